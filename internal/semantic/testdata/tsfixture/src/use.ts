import { Action } from "./action";

export function make(): Action {
  return new Action("x");
}

import { Action } from "./action";

export function make(): Action {
  return new Action("x");
}

/** {@link make} builds an {@link Action}. */

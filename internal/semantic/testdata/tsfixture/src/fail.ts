import { NotFound } from "./errors";

export function fail(): NotFound {
  return new NotFound("missing");
}

export interface Options {
  body: string;
}

export function options(): Options {
  const body = "x";
  return { body };
}

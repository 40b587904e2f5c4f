export interface NotFound extends Error {}

export interface NotFoundCtor {
  new (message: string): NotFound;
}

export const NotFound: NotFoundCtor = class extends Error {} as any;

import type { Request, Response } from 'express';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import type { ParamsSchema } from './validate';

/** What a view gets: the server, the validated parameters and, for authenticated endpoints, the caller. */
export interface PublicCall<P> {
  stoa: Stoa;
  params: P;
  req: Request;
  res: Response;
}
export interface Call<P> extends PublicCall<P> {
  user: UserRow;
}

/** A view answers the endpoint-specific fields of a success body; app.ts adds result and msg. */
export type ViewResult = Record<string, unknown> | Promise<Record<string, unknown>>;

export interface Endpoint {
  /** Whether the caller must authenticate with HTTP Basic email:api_key. */
  auth: boolean;
  params: ParamsSchema;
  /** Path parameters whose text must match, else the route table tries the next route. */
  pathPatterns?: Record<string, RegExp>;
  view: (call: Call<any>) => ViewResult;
}

/** An endpoint for authenticated users. */
export function endpoint<P>(def: {
  params: ParamsSchema;
  pathPatterns?: Record<string, RegExp>;
  view: (call: Call<P>) => ViewResult;
}): Endpoint {
  return { auth: true, ...def };
}

/** An endpoint anyone may call, such as the login and server-settings endpoints. */
export function publicEndpoint<P>(def: {
  params: ParamsSchema;
  view: (call: PublicCall<P>) => ViewResult;
}): Endpoint {
  return { auth: false, params: def.params, view: def.view as Endpoint['view'] };
}

/** The parameter schema of an endpoint that takes none. */
export const NO_PARAMS: ParamsSchema = { properties: {} };

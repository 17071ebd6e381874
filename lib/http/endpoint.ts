import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterCommit, handleRequest } from '../events/send';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import type { ApiError } from './errors';
import type { FileReceiver } from './params';
import { sendError, sendSuccess } from './respond';
import { compileParams, type ParamsSchema } from './validate';

/**
 * What a view gets: the server, the validated parameters and, for authenticated endpoints, the
 * caller. The request and response are Node's: the long-poll path serves views without Express.
 */
export interface PublicCall<P> {
  stoa: Stoa;
  params: P;
  req: IncomingMessage;
  res: ServerResponse;
}
export interface Call<P> extends PublicCall<P> {
  user: UserRow;
}
/**
 * A call to an endpoint that spectators may use too: `user` is undefined for someone
 * without an account (a browser under /json without a session), whom the view must hold to
 * web-public channels, as Zulip's views do for its AnonymousUser.
 */
export interface SpectatorCall<P> extends PublicCall<P> {
  user: UserRow | undefined;
}

/** A view answers the endpoint-specific fields of a success body; app.ts adds result and msg. */
export type ViewResult = Record<string, unknown> | Promise<Record<string, unknown>>;

export interface Endpoint {
  /** Whether the caller must authenticate with HTTP Basic email:api_key. */
  auth: boolean;
  /**
   * Whether a caller without a session may reach it under /json, as a spectator (Zulip's
   * allow_anonymous_user_web). Under /api/v1 it still needs credentials, as on Zulip.
   */
  spectators?: boolean;
  params: ParamsSchema;
  /** Path parameters whose text must match, else the route table tries the next route. */
  pathPatterns?: Record<string, RegExp>;
  /** For an endpoint that takes a file: where it goes and how large it may be. */
  fileReceiver?: (stoa: Stoa) => FileReceiver;
  /**
   * A check of the caller (their role, or an organization permission) made before the
   * parameters are read, and for a route that takes a file before its body is, as Zulip's view
   * decorators (require_realm_admin, require_member_or_admin, human_users_only ...) run before
   * its parameter parsing: someone who may not call the endpoint at all hears that, not what
   * was wrong with the request.
   */
  authorize?: (user: UserRow, stoa: Stoa) => void;
  view: (call: Call<any>) => ViewResult;
}

/** An endpoint for authenticated users. */
export function endpoint<P>(def: {
  params: ParamsSchema;
  pathPatterns?: Record<string, RegExp>;
  fileReceiver?: (stoa: Stoa) => FileReceiver;
  authorize?: (user: UserRow, stoa: Stoa) => void;
  view: (call: Call<P>) => ViewResult;
}): Endpoint {
  return { auth: true, ...def };
}

/**
 * An endpoint for authenticated users that spectators may call too (see SpectatorCall); the
 * view decides what a spectator gets, and refuses them while spectator access is off.
 */
export function spectatorEndpoint<P>(def: {
  params: ParamsSchema;
  pathPatterns?: Record<string, RegExp>;
  view: (call: SpectatorCall<P>) => ViewResult;
}): Endpoint {
  return { auth: true, spectators: true, params: def.params, pathPatterns: def.pathPatterns, view: def.view as Endpoint['view'] };
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

/**
 * Runs an endpoint for one request whose caller (if it needs one) is already known: parses the
 * raw parameters, calls the view and writes its success body unless the view answered itself.
 * Errors are thrown, or the promise rejected, for the caller to render.
 */
export function compileEndpoint(stoa: Stoa, endpoint: Endpoint, pathParams: readonly string[] = []) {
  const parse = compileParams<unknown>(endpoint.params, pathParams);
  return (
    req: IncomingMessage,
    res: ServerResponse,
    user: UserRow | undefined,
    raw: Map<string, string>,
    path: Record<string, string>,
  ): Promise<void> | void => {
    if (user !== undefined) endpoint.authorize?.(user, stoa);
    const { params, ignored } = parse(raw, path);
    const data = handleRequest(stoa, () => endpoint.view({ stoa, params, req, res, user: user! }));
    // Not an async function: a parked long-poll would keep this call's frame (the caller's
    // row, the raw parameters) alive for as long as it waits.
    if (!(data instanceof Promise)) return answer(stoa, req, res, data, ignored);
    return data.then((fields) => answer(stoa, req, res, fields, ignored));
  };
}

/**
 * For a view whose writes stand although the client is told of a failure (Zulip's partial
 * successes, such as invitations sent to some addresses and refused for others): the error
 * is answered once the writes are committed, instead of being thrown, which would undo them.
 */
export function answerErrorAfterCommit(call: PublicCall<unknown>, error: ApiError): Record<string, never> {
  afterCommit(call.stoa, (failure) => {
    if (!call.res.headersSent) sendError(call.req, call.res, failure ?? error, call.stoa.log);
  });
  return {};
}

/** Writes a view's success body once what it did (or read) is committed. */
function answer(stoa: Stoa, req: IncomingMessage, res: ServerResponse, data: Record<string, unknown>, ignored: readonly string[]): void {
  afterCommit(stoa, (failure) => {
    if (res.headersSent) return;
    if (failure === null) sendSuccess(res, data, ignored);
    else sendError(req, res, failure, stoa.log);
  });
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors';
import { bodyJson } from './json';

/**
 * Writing answers with Node's own response methods, so the Express routes and the long-poll
 * path (lib/http/long-poll.ts), which never goes through Express, answer alike.
 */

export type Log = (line: string) => void;

function sendJson(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  // Node sets Content-Length for a body given whole; no ETag or freshness check is wanted.
  res.end(text);
}

/** A view's fields in a success body, with the parameters this endpoint ignored. */
export function sendSuccess(res: ServerResponse, data: Record<string, unknown>, ignored: readonly string[]): void {
  const body: Record<string, unknown> = { result: 'success', msg: '', ...data };
  if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
  sendJson(res, 200, bodyJson(body));
}

/**
 * The one renderer of error bodies. Anything thrown that is not an ApiError is our bug: it is
 * logged with its stack and answered 500.
 */
export function sendError(req: IncomingMessage, res: ServerResponse, err: unknown, log: Log): void {
  let error: ApiError;
  if (err instanceof ApiError) {
    error = err;
  } else if (sqliteLimitMessage(err) !== undefined) {
    // Input large enough to pass every check yet too large for one SQL statement: the
    // client's request, not our fault. SQLite refuses such a statement before running it,
    // so nothing was written.
    error = new ApiError('BAD_REQUEST', sqliteLimitMessage(err)!, 400);
  } else if (isClientHttpError(err)) {
    // A library's own refusal of a client's request (Express's router, body parsing): the
    // client's mistake, said in the library's words.
    error = new ApiError('BAD_REQUEST', err.message, err.status);
  } else {
    log(`error: ${req.method} ${pathOf(req.url)}: ${(err as Error)?.stack ?? String(err)}`);
    error = new ApiError('INTERNAL_SERVER_ERROR', 'Internal server error', 500);
  }
  if (res.headersSent) return void res.end();
  sendJson(res, error.status, JSON.stringify(error.body()), error.headers);
}

/**
 * SQLite's limits a request can reach (sqlite.org/limits.html), each with what it means for
 * the client; undefined for any other error.
 */
const SQLITE_LIMITS: ReadonlyArray<[RegExp, string]> = [
  [/^Expression tree is too large|^parser stack overflow|^too many terms in compound SELECT/, 'Request too complex: too many conditions in one query'],
  [/^too many SQL variables/, 'Request too large: too many values in one query'],
  [/^string or blob too big/, 'Request too large: a value is too long'],
  [/^LIKE or GLOB pattern too complex/, 'Search pattern too complex'],
];

function sqliteLimitMessage(err: unknown): string | undefined {
  if (!(err instanceof Error) || err.name !== 'SqliteError') return undefined;
  return SQLITE_LIMITS.find(([pattern]) => pattern.test(err.message))?.[1];
}

/** An error made by the http-errors package for a 4xx status, whose message is meant for clients. */
function isClientHttpError(err: unknown): err is Error & { status: number } {
  const { status, expose } = (err ?? {}) as { status?: unknown; expose?: unknown };
  return err instanceof Error && expose === true && typeof status === 'number' && status >= 400 && status < 500;
}

/** A URL's path without its query string, which may hold credentials and is never logged. */
export function pathOf(url: string | undefined): string {
  const text = url ?? '';
  const query = text.indexOf('?');
  return query < 0 ? text : text.slice(0, query);
}

/**
 * A redirect to `url` carrying the request's own query string along, as Zulip's redirects to
 * avatars and organization pictures do (a client may ask for a size that way).
 */
export function redirectWithQuery(res: ServerResponse, url: string, requestUrl: string | undefined): void {
  const text = requestUrl ?? '';
  const query = text.indexOf('?');
  const target = query < 0 ? url : `${url}${url.includes('?') ? '&' : '?'}${text.slice(query + 1)}`;
  res.writeHead(302, { Location: target });
  res.end();
}

/** Logs method, path, status and time of a request when its response closes. */
export function logRequest(req: IncomingMessage, res: ServerResponse, log: Log): void {
  const start = performance.now();
  // Read now: Express rewrites req.url as it routes.
  const path = pathOf(req.url);
  res.once('close', () => {
    const status = res.writableFinished ? String(res.statusCode) : 'closed';
    log(`${req.method} ${path} ${status} ${(performance.now() - start).toFixed(1)}ms`);
  });
}

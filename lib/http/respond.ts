import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors';
import { bodyJson } from './json';

/**
 * Writing answers with Node's own response methods, so the Express routes and the long-poll
 * path (lib/http/long-poll.ts), which never goes through Express, answer alike.
 */

export type Log = (line: string) => void;

export function sendJson(res: ServerResponse, status: number, body: string | readonly Buffer[], headers: Record<string, string> = {}): void {
  // The headers in one writeHead rather than a setHeader each: every woken long poll comes
  // through here, and setHeader's bookkeeping was a visible share of answering a fan-out.
  // Node sets Content-Length for a body given whole; no ETag or freshness check is wanted.
  if (typeof body === 'string') return void res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8' }).end(body);
  // A body in parts (a /register answer, half a megabyte with a thousand people) goes out as
  // its parts, gathered into one write by the socket: neither joined into one buffer, which
  // copied the whole answer each time, nor encoded again from a string.
  let length = 0;
  for (const part of body) length += part.length;
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(length) });
  res.cork();
  for (const part of body) res.write(part);
  res.end();
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

/** How often the request log sums up the long polls answered since its last such line. */
export const LONG_POLL_TALLY_MS = 60_000;

/**
 * The request log, written when each response closes: method, path, status and time, one line
 * a request, except for long polls answered normally. Every client polls again as soon as it
 * is answered, so with a thousand people one message in a busy channel makes a thousand such
 * lines that tell nothing; they are counted, and a line sums them up once a minute (at the
 * next poll answered after it). A poll that fails or is given up is logged as any request.
 */
export function requestLogger(log: Log, isLongPoll: (method: string | undefined, path: string) => boolean, now = () => performance.now()) {
  let answeredPolls = 0;
  let tallyStart = now();
  return (req: IncomingMessage, res: ServerResponse): void => {
    const start = now();
    // Read now: Express rewrites req.url as it routes.
    const path = pathOf(req.url);
    res.once('close', () => {
      const finished = now();
      const status = res.writableFinished ? String(res.statusCode) : 'closed';
      if (status !== '200' || !isLongPoll(req.method, path)) return log(`${req.method} ${path} ${status} ${(finished - start).toFixed(1)}ms`);
      answeredPolls++;
      if (finished - tallyStart < LONG_POLL_TALLY_MS) return;
      log(`GET /events: ${answeredPolls} long poll${answeredPolls === 1 ? '' : 's'} answered in the last ${((finished - tallyStart) / 1000).toFixed(0)} s`);
      answeredPolls = 0;
      tallyStart = finished;
    });
  };
}

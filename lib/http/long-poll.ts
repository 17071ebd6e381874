import type { IncomingMessage, RequestListener } from 'node:http';
import parseBasicAuth from 'basic-auth';
import { getEvents } from '../events/views';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { checkApiKey, checkSession } from './auth';
import { compileEndpoint } from './endpoint';
import { ApiError } from './errors';
import { hasBody, queryFields } from './params';
import { pathOf, sendError, type Log } from './respond';
import { API_PREFIX, JSON_PREFIX } from './routes';

/** The paths of the route table's GET /events, which this serves in its stead: API clients' and the browser's. */
const EVENTS_PATH = `${API_PREFIX}/events`;
const JSON_EVENTS_PATH = `${JSON_PREFIX}/events`;

/**
 * GET /events served from Node's request event, without Express.
 *
 * Every client keeps one of these polls parked at all times, so their cost decides how many
 * clients a small server holds and how fast one event reaches them all. Express gives each
 * request its own prototypes, router state and closures, which stay alive as long as the poll
 * is parked, and its per-response work more than doubles the CPU time of answering a fan-out
 * (bench/RESULTS.md). This path runs the very same endpoint (parameters, view, answers).
 *
 * It takes only a well-formed poll by a caller whose credentials check out: a body, a
 * missing or failed login, or anything else unusual goes to Express, whose answers (the
 * Basic challenge, body errors) are then the only ones there are.
 */
export function longPollListener(stoa: Stoa, fallback: RequestListener, log: Log): RequestListener {
  const run = compileEndpoint(stoa, getEvents);
  return (req, res) => {
    const user = pollCaller(stoa, req);
    if (!user) return fallback(req, res);
    try {
      run(req, res, user, queryFields(req.url!), {})?.catch((err: unknown) => sendError(req, res, err, log));
    } catch (err) {
      sendError(req, res, err, log);
    }
  };
}

/** The caller of a plain GET /events, or undefined when the request is for the general path. */
function pollCaller(stoa: Stoa, req: IncomingMessage): UserRow | undefined {
  if (req.method !== 'GET' || hasBody(req)) return undefined;
  const path = pathOf(req.url);
  // The browser's poll: its session cookie, as under /json (a GET needs no CSRF header).
  if (path === JSON_EVENTS_PATH) return checkSession(stoa, req)?.user;
  if (path !== EVENTS_PATH) return undefined;
  // The header parser express-basic-auth itself uses, so both paths read credentials alike.
  const credentials = parseBasicAuth(req);
  if (!credentials) return undefined;
  const outcome = checkApiKey(stoa, credentials.name, credentials.pass);
  return outcome instanceof ApiError ? undefined : outcome;
}

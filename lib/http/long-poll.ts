import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import parseBasicAuth from 'basic-auth';
import type { EventQueue, PendingEvents } from '../events/queues';
import { afterCommit } from '../events/send';
import { getEvents, takePoll } from '../events/views';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { checkApiKey, checkSession } from './auth';
import { compileEndpoint } from './endpoint';
import { ApiError } from './errors';
import { hasBody, queryFields } from './params';
import { pathOf, sendError, sendJson, type Log } from './respond';
import { API_PREFIX, JSON_PREFIX } from './routes';

/** The paths of the route table's GET /events, which this serves in its stead: API clients' and the browser's. */
const EVENTS_PATH = `${API_PREFIX}/events`;
const JSON_EVENTS_PATH = `${JSON_PREFIX}/events`;

/** A poll of an event queue, by an API client or the browser. */
export function isLongPoll(method: string | undefined, path: string): boolean {
  return method === 'GET' && (path === EVENTS_PATH || path === JSON_EVENTS_PATH);
}

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
    const path = pathOf(req.url);
    if (!isLongPoll(req.method, path) || hasBody(req)) return fallback(req, res);
    const fields = pollFields(req.url!);
    const user = pollCaller(stoa, req, path, fields.get('queue_id'));
    if (!user) return fallback(req, res);
    try {
      const plain = plainPoll(stoa, user, fields);
      if (plain) return takePoll(stoa, plain.queue, plain.lastEventId, false, res, (pending) => answerPoll(stoa, req, res, plain.queue, pending, log));
      run(req, res, user, fields, {})?.catch((err: unknown) => sendError(req, res, err, log));
    } catch (err) {
      sendError(req, res, err, log);
    }
  };
}

/** An event id as clients send it: -1 before any event, else a count, in plain decimal digits. */
const PLAIN_EVENT_ID = /^(?:-1|0|[1-9]\d{0,14})$/;

/**
 * The query string of the poll every client sends, written as they write it: a queue id
 * (a UUID, which has nothing to decode) and an event id, in this order. Read from where the
 * query begins (sticky).
 */
const PLAIN_POLL_QUERY = /queue_id=([0-9a-f-]{1,64})&last_event_id=(-1|0|[1-9]\d{0,14})$/y;

/**
 * A poll's parameters: those of the plain poll read straight off the URL, which gives the
 * very fields the general parser would (nothing in them is escaped), and any other query
 * through that parser. A woken parked poll is asked again at once, a thousand at a time.
 */
export function pollFields(url: string): Map<string, string> {
  PLAIN_POLL_QUERY.lastIndex = url.indexOf('?') + 1;
  const plain = PLAIN_POLL_QUERY.lastIndex > 0 ? PLAIN_POLL_QUERY.exec(url) : null;
  if (!plain) return queryFields(url);
  return new Map([
    ['queue_id', plain[1]],
    ['last_event_id', plain[2]],
  ]);
}

/**
 * The poll every client makes again and again: its own queue, the last event id, nothing
 * else. Such a poll skips the endpoint's general machinery (parameter validation, the view's
 * promise, the success body built field by field); anything else (another parameter, a value
 * written otherwise, someone else's or an unknown queue) goes through the endpoint, whose
 * answers and errors are then the only ones there are.
 */
function plainPoll(stoa: Stoa, user: UserRow, fields: Map<string, string>): { queue: EventQueue; lastEventId: number } | undefined {
  if (fields.size !== 2) return undefined;
  const queueId = fields.get('queue_id');
  const lastEventId = fields.get('last_event_id');
  if (queueId === undefined || lastEventId === undefined || !PLAIN_EVENT_ID.test(lastEventId)) return undefined;
  const queue = stoa.queues.find(queueId);
  if (!queue || queue.userId !== user.id) return undefined;
  return { queue, lastEventId: Number(lastEventId) };
}

/** The start of a poll's success body: the same bytes the endpoint writes, field by field. */
const POLL_ANSWER_START = '{"result":"success","msg":"","events":';

/**
 * Answers a plain poll, as the endpoint would: once nothing uncommitted can be seen, with the
 * body the endpoint writes. A woken poll is answered after the turn's other answers (a
 * microtask), as the endpoint's promise was: the sender hears first that its message went.
 */
function answerPoll(stoa: Stoa, req: IncomingMessage, res: ServerResponse, queue: EventQueue, pending: PendingEvents, log: Log): void {
  const text = `${POLL_ANSWER_START}${stoa.queues.toJson(pending)},"queue_id":${JSON.stringify(queue.id)}}`;
  queueMicrotask(() =>
    afterCommit(stoa, (failure) => {
      if (res.headersSent) return;
      if (failure === null) sendJson(res, 200, text);
      else sendError(req, res, failure, log);
    }),
  );
}

/**
 * The caller of a plain GET /events, or undefined when the request is for the general path.
 *
 * A client polls its queue again as soon as it is answered, with the same credentials each
 * time: a queue remembers the Authorization header that last proved to be its owner's, with
 * the owner's row as it was then, and takes the header again without checking the key anew
 * while that row is the one kept (any write to it, a new key or a deactivation, replaces it)
 * and the organization is active. Another person's row written (a name change everyone hears
 * of) leaves it alone.
 */
function pollCaller(stoa: Stoa, req: IncomingMessage, path: string, queueId: string | undefined): UserRow | undefined {
  // The browser's poll: its session cookie, as under /json (a GET needs no CSRF header).
  if (path === JSON_EVENTS_PATH) return checkSession(stoa, req)?.user;
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const queue = queueId === undefined ? undefined : stoa.queues.find(queueId);
  const known = queue?.provenCredentials;
  if (known && known.header === header && !stoa.realm.get()?.deactivated) {
    const row = stoa.users.byId(queue!.userId);
    if (row === known.row) return row;
  }
  // The header parser express-basic-auth itself uses, so both paths read credentials alike.
  const credentials = parseBasicAuth(req);
  if (!credentials) return undefined;
  const outcome = checkApiKey(stoa, credentials.name, credentials.pass);
  if (outcome instanceof ApiError) return undefined;
  if (queue && queue.userId === outcome.id) queue.provenCredentials = { header, row: outcome };
  return outcome;
}

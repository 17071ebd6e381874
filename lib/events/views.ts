import { reactionTypeNamesFor } from '../emoji/choice';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readCookie } from '../http/cookies';
import { endpoint, spectatorEndpoint } from '../http/endpoint';
import { missingArgument } from '../http/errors';
import { JsonText } from '../http/json';
import type { EventQueue, EventQueues, PendingEvents } from './queues';
import type { Stoa } from '../stoa';
import { register, REGISTER_PARAMS, queueSettings, registerSpectator } from './register';
import type { RegisterParams } from './state-context';

/** The cookie Zulip's web app keeps a visitor's chosen language in (Django's). */
const LANGUAGE_COOKIE = 'django_language';

export const registerView = spectatorEndpoint<RegisterParams>({
  params: { properties: REGISTER_PARAMS },
  view: ({ stoa, user, params, req }) => {
    // A client that hung up while its request waited (it gave up, and will register again)
    // gets no queue and no state: when a crowd arrives at once, building states nobody will
    // read only makes everyone else wait longer.
    if (req.socket.destroyed) return {};
    return user
      ? register(stoa, user, params, reactionTypeNamesFor(req))
      : registerSpectator(stoa, params, spectatorLanguage(req), reactionTypeNamesFor(req));
  },
});

/** The language a spectator chose, when the cookie holds something shaped like a language code. */
function spectatorLanguage(req: IncomingMessage): string | undefined {
  const chosen = readCookie(req, LANGUAGE_COOKIE);
  return chosen !== undefined && /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/.test(chosen) ? chosen : undefined;
}

interface GetEventsParams extends RegisterParams {
  queue_id?: string;
  last_event_id?: number;
  dont_block: boolean;
}

function eventsJson(queues: EventQueues, pending: PendingEvents): JsonText {
  return new JsonText(queues.toJson(pending));
}

/**
 * A poll of a known queue, after its parameters: drops what the client acknowledged, then
 * answers with what waits, or parks until an event or the heartbeat comes. The one way a poll
 * is taken, by this endpoint and by the long-poll path's plain polls (lib/http/long-poll.ts).
 */
export function takePoll(
  stoa: Stoa,
  queue: EventQueue,
  lastEventId: number,
  dontBlock: boolean,
  res: ServerResponse,
  answer: (pending: PendingEvents) => void,
): void {
  queue.acknowledge(lastEventId);
  queue.touch(stoa.clock.now());
  if (queue.size > 0 || dontBlock) return answer(queue.contents());
  stoa.queues.park(queue, answer);
  // A client that hangs up frees its poll at once; nobody is left to answer. (The response's
  // close, not the request's: a request closes once its body is read.)
  res.once('close', () => stoa.queues.release(queue, answer));
}

export const getEvents = endpoint<GetEventsParams>({
  params: {
    properties: {
      queue_id: { type: 'string' },
      last_event_id: { type: 'integer' },
      dont_block: { type: 'boolean', default: false },
      ...REGISTER_PARAMS,
    },
  },
  view: ({ stoa, user, params, req, res }) => {
    if (params.queue_id === undefined) {
      // Without a queue, a non-blocking call registers one from the register parameters.
      if (!params.dont_block) throw missingArgument('queue_id');
      const queue = stoa.queues.create(queueSettings(user, params, reactionTypeNamesFor(req)));
      return { events: [], queue_id: queue.id };
    }
    const queue = stoa.queues.get(user.id, params.queue_id);
    const lastEventId = params.last_event_id;
    if (lastEventId === undefined) throw missingArgument('last_event_id');
    const reply = (pending: PendingEvents) => ({ events: eventsJson(stoa.queues, pending), queue_id: queue.id });
    // Answered now (events wait, or dont_block), or later through the promise.
    let immediate: Record<string, unknown> | undefined;
    let settle: ((fields: Record<string, unknown>) => void) | undefined;
    takePoll(stoa, queue, lastEventId, params.dont_block, res, (pending) => {
      if (settle) settle(reply(pending));
      else immediate = reply(pending);
    });
    return immediate ?? new Promise<Record<string, unknown>>((resolve) => (settle = resolve));
  },
});

export const deleteEvents = endpoint<{ queue_id: string }>({
  params: { properties: { queue_id: { type: 'string' } }, required: ['queue_id'] },
  view: ({ stoa, user, params }) => {
    stoa.queues.delete(stoa.queues.get(user.id, params.queue_id));
    return {};
  },
});

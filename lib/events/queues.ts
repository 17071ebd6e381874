import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { flatString } from '../flat-string';
import type { ReactionTypeNames } from '../emoji/choice';
import { ApiError, badRequest } from '../http/errors';
import type { UserRow } from '../users/queries';

/**
 * An event as actions create it. Queues share the object and never change it; each answer
 * adds the queue's own `id` when it writes the event out, so an event never carries one.
 */
export type Event = { type: string; id?: never } & Record<string, unknown>;

/**
 * What an action hands to delivery: one event for every queue, or a function that shapes
 * the event for one queue (its client's capabilities, client_gravatar, narrow) and may
 * return null to skip that queue. Such a function should return the very same object to
 * queues that get the same shape (see `perShape`): an event is turned into JSON once per
 * object, so a fresh object per queue costs one serialization per queue.
 */
export type Deliverable = Event | ((queue: EventQueue) => Event | null);

/**
 * A Deliverable shaped per queue that builds each distinct shape once: queues for which
 * `shapeOf` gives the same key get the same event object (and so share its JSON text).
 */
export function perShape(shapeOf: (queue: EventQueue) => string, build: (queue: EventQueue) => Event | null): Deliverable {
  const built = new Map<string, Event | null>();
  return (queue) => {
    const shape = shapeOf(queue);
    let event = built.get(shape);
    if (event === undefined) built.set(shape, (event = build(queue)));
    return event;
  };
}

/**
 * An event as queues hold it: its JSON text, made once and shared by every queue that got
 * the same event object. Queues keep the text, not the object: the text is what every answer
 * needs, and keeping both would hold each event twice.
 */
interface QueuedEvent {
  readonly text: string;
  /** How many queues hold it; its text counts against the budget while any does. */
  holders: number;
}

/** Events waiting in a queue, oldest first, as JSON texts; their ids are consecutive from `firstId`. */
export interface PendingEvents {
  firstId: number;
  events: readonly string[];
}

/** What all queues together hold: the text of each distinct event, counted once, and every queue's references to them. */
interface Ledger {
  bytes: number;
  /** How much all queues have let go of since the server started (acknowledged, dropped, collected). */
  released: number;
}

/** The client features of POST /register's client_capabilities that change what we send. */
export interface ClientCapabilities {
  notification_settings_null: boolean;
  bulk_message_deletion: boolean;
  user_avatar_url_field_optional: boolean;
  stream_typing_notifications: boolean;
  user_settings_object: boolean;
  linkifier_url_template: boolean;
  user_list_incomplete: boolean;
  include_deactivated_groups: boolean;
  empty_topic_name: boolean;
  archived_channels: boolean;
  simplified_presence_events: boolean;
}

export interface QueueSettings {
  userId: number;
  /** null: every event type. */
  eventTypes: ReadonlySet<string> | null;
  narrow: ReadonlyArray<{ operator: string; operand: unknown; negated?: boolean }>;
  allPublicStreams: boolean;
  /** Whether channel objects in events carry their subscribers: no, all, or partial for big ones. */
  includeSubscribers: boolean | 'partial';
  applyMarkdown: boolean;
  clientGravatar: boolean;
  /** Whether presence events leave out the email, as for clients that key presence by user ID. */
  slimPresence: boolean;
  capabilities: ClientCapabilities;
  /** The names of reaction types the registering client knows (by its User-Agent at registration). */
  reactionTypeNames: ReactionTypeNames;
  /** How long the queue lives without a client polling it. */
  lifespanMs: number;
}

/** A long-poll waiting on a queue: answered with the queue's events, or a heartbeat. */
interface ParkedPoll {
  answer: (pending: PendingEvents) => void;
  heartbeat: NodeJS.Timeout;
}

export function badEventQueueId(queueId: string): ApiError {
  return new ApiError('BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, 400, { queue_id: queueId });
}

/** Registration looks for idle queues at most this often. */
const COLLECT_ON_REGISTER_EVERY_MS = 10_000;

/**
 * What holding an event costs a queue besides its text: its slot in the queue's array. Shared
 * events are cheap, but thousands of queues each holding thousands of them are not.
 */
const REFERENCE_BYTES = 16;

/** One heartbeat serves every queue, so its JSON is made once. */
const HEARTBEAT_TEXT = JSON.stringify({ type: 'heartbeat' });

export class EventQueue {
  readonly id = randomUUID();
  /** Shared with every other queue that got the same event; the ids follow from the position. */
  private events: QueuedEvent[] = [];
  /** The length of the texts this queue holds (shared texts counted in full). */
  bytes = 0;
  /** The newest event id a client has acknowledged (and we dropped); -1 before any. */
  private newestPrunedId = -1;
  parked: ParkedPoll | null = null;
  /** Whether a client has asked this queue for events yet; until then it may be abandoned (see unpolledLifespanMs). */
  polled = false;
  /**
   * The Authorization header that last proved to be the owner's on a poll of this queue, and
   * the owner's kept row then (lib/http/long-poll.ts): the next poll with the same header is
   * the owner's without checking the key again while that row is still the one kept.
   */
  provenCredentials: { header: string; row: UserRow } | null = null;

  constructor(
    readonly settings: QueueSettings,
    /** When a client last polled or was last answered (clock ms); idle time counts from here. */
    public lastActive: number,
    private readonly ledger: Ledger,
  ) {}

  get userId(): number {
    return this.settings.userId;
  }

  get size(): number {
    return this.events.length;
  }

  /** Whether this queue's client asked for this event, as Zulip's event filter decides. */
  accepts(event: Event): boolean {
    const { eventTypes } = this.settings;
    if (event.type === 'heartbeat') return true;
    if (eventTypes !== null && !eventTypes.has(event.type)) return false;
    // A client that asked for user_topic has no use for the old muted_topics list as well.
    if (event.type === 'muted_topics' && eventTypes?.has('user_topic')) return false;
    return true;
  }

  push(event: QueuedEvent): void {
    this.events.push(event);
    this.bytes += event.text.length + REFERENCE_BYTES;
    this.ledger.bytes += REFERENCE_BYTES;
    if (event.holders++ === 0) this.ledger.bytes += event.text.length;
  }

  /** Drops the oldest `count` events (all by default), releasing their share of the budget. */
  drop(count = this.events.length): void {
    for (const event of this.events.splice(0, count)) {
      this.bytes -= event.text.length + REFERENCE_BYTES;
      this.ledger.bytes -= REFERENCE_BYTES;
      this.ledger.released += REFERENCE_BYTES;
      if (--event.holders === 0) {
        this.ledger.bytes -= event.text.length;
        this.ledger.released += event.text.length;
      }
    }
  }

  /**
   * Drops the events a client acknowledged with last_event_id, refusing an id that does not
   * match what the queue holds, in Zulip's words.
   */
  acknowledge(lastEventId: number): void {
    if (lastEventId < this.newestPrunedId) {
      throw badRequest(`An event newer than ${lastEventId} has already been pruned!`);
    }
    const drop = Math.min(lastEventId - this.newestPrunedId, this.events.length);
    if (drop > 0) {
      this.newestPrunedId += drop;
      this.drop(drop);
    }
    if (lastEventId !== this.newestPrunedId) throw badRequest(`Event ${lastEventId} was not in this queue`);
  }

  /** A client asked for this queue's events: it is in use, and its idle time counts from now. */
  touch(now: number): void {
    this.polled = true;
    this.lastActive = now;
  }

  contents(): PendingEvents {
    return { firstId: this.newestPrunedId + 1, events: this.events.map((event) => event.text) };
  }
}

export interface EventQueuesOptions {
  heartbeatMs: number;
  /**
   * A queue holding more unacknowledged events than this is dropped, so a client that stops
   * reading cannot grow memory without bound; it re-registers after BAD_EVENT_QUEUE_ID.
   */
  maxEventsPerQueue: number;
  /**
   * The most queues one user may hold. Registering another drops the one idle longest (its
   * client gets BAD_EVENT_QUEUE_ID and registers again), so nobody can pile up queues.
   */
  maxQueuesPerUser: number;
  /**
   * The most event text all queues together may hold (each distinct event counted once).
   * Past it, the queues holding the most that nobody is polling are dropped, as if their
   * clients had gone, until the rest fit: memory stays bounded whatever clients do.
   */
  maxQueuedBytes: number;
  /**
   * A lower budget for queues no client has polled yet: past it, those holding the most are
   * dropped first, until the queues' event text fits it or none of them holds anything. Real
   * clients poll within a second or two of registering, so their queues are never among
   * them; a flood of registrations nobody reads (or clients that went away before their first
   * poll) then keeps a few MB of events alive instead of the full budget.
   */
  maxUnpolledQueuedBytes: number;
  /**
   * How long a queue that no client has polled yet lives, if less than its lifespan. Clients
   * poll right after registering (the web app, the mobile apps, the Python and JavaScript
   * bindings all do within a second or two); a queue never polled for this long was
   * registered only for its initial state, or by a client that went away, and nobody will
   * read what it collects. Once polled, a queue lives its full lifespan. A client that comes
   * back after this gets BAD_EVENT_QUEUE_ID and registers again, as Zulip's clients do
   * whenever a queue has expired.
   */
  unpolledLifespanMs: number;
  /**
   * Off unless given: told after each delivery when it began (performance.now(), right after
   * the commit) and how many parked polls it answered. Benchmarks time fan-out with it.
   */
  onDelivery?: (delivery: { startedAt: number; answeredPolls: number }) => void;
}

/** The queue to give up first among a user's: one nobody is polling, idle longest; else the idlest. */
function idlest(queues: Iterable<EventQueue>): EventQueue {
  let found: EventQueue | undefined;
  for (const queue of queues) {
    if (!found || (found.parked && !queue.parked) || (!found.parked === !queue.parked && queue.lastActive < found.lastActive)) {
      found = queue;
    }
  }
  return found!;
}

/** Every event queue of the server: registration, delivery, long-polls and garbage collection. */
export class EventQueues {
  private readonly byId = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  private shuttingDown = false;
  /** When idle queues were last looked for (clock ms). */
  private lastCollection = -Infinity;
  /** Each event object's queued form, so an object delivered again is not serialized again. */
  private readonly queued = new WeakMap<Event, QueuedEvent>();
  private readonly ledger: Ledger = { bytes: 0, released: 0 };
  /** How many events were turned into JSON: one per distinct event object, however many queues got it. */
  serializedEvents = 0;
  /**
   * Told when a user's last queue goes (collected when idle, deleted by its client, dropped
   * for holding too much), with the events its client never acknowledged: Zulip's
   * missedmessage hook sends then the notifications it held back while the client was open.
   */
  onLastQueueGone: ((queue: EventQueue, unacknowledged: PendingEvents) => void) | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly options: EventQueuesOptions,
  ) {}

  get count(): number {
    return this.byId.size;
  }

  /** How many queues have a poll parked now. */
  get parkedCount(): number {
    let parked = 0;
    for (const queue of this.byId.values()) if (queue.parked) parked++;
    return parked;
  }

  get heartbeatMs(): number {
    return this.options.heartbeatMs;
  }

  /** The event text all queues hold, each distinct event counted once. */
  get queuedBytes(): number {
    return this.ledger.bytes;
  }

  /** The event text (and references) queues have let go of since the start: what a collection of the JavaScript heap may now free. */
  get releasedBytes(): number {
    return this.ledger.released;
  }

  create(settings: QueueSettings): EventQueue {
    // Collecting walks every queue, so a burst of registrations (clients coming back after a
    // restart) collects once, not once per registration.
    if (this.clock.now() - this.lastCollection >= COLLECT_ON_REGISTER_EVERY_MS) this.collectGarbage();
    let mine = this.byUser.get(settings.userId);
    if (!mine) this.byUser.set(settings.userId, (mine = new Set()));
    // The user is here, registering: the queue given up for the new one is not their last.
    while (mine.size >= this.options.maxQueuesPerUser) this.remove(idlest(mine), false);
    const queue = new EventQueue(settings, this.clock.now(), this.ledger);
    this.byId.set(queue.id, queue);
    mine.add(queue);
    return queue;
  }

  /** The queue of that ID, whoever owns it; undefined if there is none. */
  find(queueId: string): EventQueue | undefined {
    return this.byId.get(queueId);
  }

  /** The caller's own queue; anyone else's, and an unknown or expired one, are all "bad". */
  get(userId: number, queueId: string): EventQueue {
    const queue = this.byId.get(queueId);
    if (!queue || queue.userId !== userId) throw badEventQueueId(queueId);
    return queue;
  }

  delete(queue: EventQueue): void {
    this.remove(queue, true);
  }

  private remove(queue: EventQueue, mayBeLast: boolean): void {
    if (!this.byId.delete(queue.id)) return;
    this.byUser.get(queue.userId)?.delete(queue);
    const last = this.byUser.get(queue.userId)?.size === 0;
    if (last) this.byUser.delete(queue.userId);
    if (last && mayBeLast && this.onLastQueueGone) this.onLastQueueGone(queue, queue.contents());
    if (queue.parked) {
      clearTimeout(queue.parked.heartbeat);
      const { answer } = queue.parked;
      queue.parked = null;
      answer(queue.contents());
    }
    queue.drop();
  }

  /** Users with a queue registered with all_public_streams (bots and mirrors that follow every public channel). */
  usersFollowingPublicChannels(): number[] {
    const users: number[] = [];
    for (const [userId, queues] of this.byUser) {
      if ([...queues].some((queue) => queue.settings.allPublicStreams)) users.push(userId);
    }
    return users;
  }

  queuesOf(userId: number): Iterable<EventQueue> {
    return this.byUser.get(userId) ?? [];
  }

  /** Puts each event into the accepting queues of its users, then wakes those queues' polls. */
  deliver(batch: ReadonlyArray<{ event: Deliverable; userIds: Iterable<number> }>): void {
    const startedAt = this.options.onDelivery ? performance.now() : 0;
    const touched = new Set<EventQueue>();
    for (const { event, userIds } of batch) {
      for (const userId of new Set(userIds)) {
        for (const queue of this.queuesOf(userId)) {
          const shaped = typeof event === 'function' ? event(queue) : event;
          if (shaped && queue.accepts(shaped)) {
            queue.push(this.toQueued(shaped));
            touched.add(queue);
          }
        }
      }
    }
    let answeredPolls = 0;
    for (const queue of touched) {
      if (queue.parked) answeredPolls++;
      if (queue.size > this.options.maxEventsPerQueue) this.delete(queue);
      else this.wake(queue);
    }
    if (this.ledger.bytes > this.options.maxUnpolledQueuedBytes) this.shed(this.options.maxUnpolledQueuedBytes, true);
    if (this.ledger.bytes > this.options.maxQueuedBytes) this.shed(this.options.maxQueuedBytes, false);
    this.options.onDelivery?.({ startedAt, answeredPolls });
  }

  /** An event's queued form: its JSON, made once per event object whatever the number of queues. */
  private toQueued(event: Event): QueuedEvent {
    let queued = this.queued.get(event);
    if (queued === undefined) {
      queued = { text: flatString(JSON.stringify(event)), holders: 0 };
      this.queued.set(event, queued);
      this.serializedEvents++;
    }
    return queued;
  }

  /**
   * Drops the queues nobody is polling that hold the most until what counts against the budget
   * fits it again: every queue's events, or, if neverPolled, only those of queues never polled
   * (so that many clients slow to poll again cannot make a newly registered queue go at once).
   */
  private shed(budget: number, neverPolled: boolean): void {
    let held = this.ledger.bytes;
    if (neverPolled) {
      held = 0;
      for (const queue of this.byId.values()) if (!queue.polled) held += queue.bytes;
    }
    while (held > budget) {
      let largest: EventQueue | undefined;
      for (const queue of this.byId.values()) {
        if (neverPolled && queue.polled) continue;
        if (!queue.parked && queue.size > 0 && (!largest || queue.bytes > largest.bytes)) largest = queue;
      }
      if (!largest) return; // what is left is on its way to clients being answered now
      held -= largest.bytes;
      this.delete(largest);
    }
  }

  /** The JSON array of a queue's pending events, each with the queue's own id spliced in. */
  toJson({ firstId, events }: PendingEvents): string {
    // An event is an object with at least its type, so its text ends in the closing brace.
    const parts = events.map((text, index) => `${text.slice(0, -1)},"id":${firstId + index}}`);
    return `[${parts.join(',')}]`;
  }

  /**
   * Parks a long-poll on an empty queue until an event arrives or the heartbeat interval
   * passes. A newer poll on the same queue replaces an older one, which is answered at once.
   */
  park(queue: EventQueue, answer: (pending: PendingEvents) => void): void {
    if (this.shuttingDown) return answer(queue.contents());
    this.wake(queue);
    const heartbeat = setTimeout(() => {
      queue.push({ text: HEARTBEAT_TEXT, holders: 0 });
      this.wake(queue);
    }, this.options.heartbeatMs);
    queue.parked = { answer, heartbeat };
  }

  /** A client gave up on its poll (closed the connection): free it, and start the idle clock. */
  release(queue: EventQueue, answer: (pending: PendingEvents) => void): void {
    if (queue.parked?.answer !== answer) return;
    clearTimeout(queue.parked.heartbeat);
    queue.parked = null;
    queue.lastActive = this.clock.now();
  }

  private wake(queue: EventQueue): void {
    if (!queue.parked) return;
    clearTimeout(queue.parked.heartbeat);
    const { answer } = queue.parked;
    queue.parked = null;
    queue.lastActive = this.clock.now();
    answer(queue.contents());
  }

  /** Drops queues nobody has polled for longer than their lifespan, and those never polled at all for unpolledLifespanMs. */
  collectGarbage(): number {
    const now = this.clock.now();
    this.lastCollection = now;
    let removed = 0;
    for (const queue of this.byId.values()) {
      const lifespan = queue.polled ? queue.settings.lifespanMs : Math.min(queue.settings.lifespanMs, this.options.unpolledLifespanMs);
      if (!queue.parked && now - queue.lastActive >= lifespan) {
        this.delete(queue);
        removed++;
      }
    }
    return removed;
  }

  /** Answers every parked poll (with what its queue holds) so shutdown need not wait for them. */
  shutdown(): void {
    this.shuttingDown = true;
    for (const queue of this.byId.values()) this.wake(queue);
  }
}

import type { Stoa } from '../stoa';
import type { Deliverable } from './queues';

/** Drops the rows kept in memory (users, the organization): an undone transaction may have written them. */
function forgetKeptRows(stoa: Stoa): void {
  stoa.users.forget();
  stoa.realm.forget();
  stoa.tableWrites.forget();
}

/**
 * Writes, and the events they cause.
 *
 * Every change runs through `write`: all of its writes land or none do, and the events it
 * sends are delivered only once its writes are committed (dropped if they are undone).
 *
 * Group commit. Committing costs far more than the writes of one request (a message dirties
 * a page per receiver, and each dirty page is written out at commit), so the requests that
 * arrive in one turn of the event loop share one transaction: the first `write` made while
 * handling a request begins it, each `write` is a savepoint inside it (undone alone if it
 * fails), and it commits when the turn's I/O is done (setImmediate). Until then no response
 * goes out (`afterCommit`): a client never hears of a change that could still be lost, nor
 * reads one. Writes made outside a request (start-up, timers, tests) commit at once.
 */

/**
 * Runs fn in one transaction: all of its writes land, or none do. Events sent inside it are
 * held back and delivered only after the commit; if fn throws they are dropped with the
 * writes. Nested calls, and calls while requests share a transaction, are savepoints.
 */
export function write<T>(stoa: Stoa, fn: () => T): T {
  if (stoa.handlingRequest && !stoa.requestStart) {
    // Between two requests nothing is half done, so a shared transaction open long enough
    // commits here, answering its requests, before this one begins a new one.
    if (stoa.shared && performance.now() - stoa.shared.begunAt >= stoa.groupCommitMaxMs) commitShared(stoa);
    beginRequestWrites(stoa);
  }
  const pending = stoa.pendingEvents;
  if (pending) {
    const mark = pending.length;
    try {
      return stoa.db.transaction(fn)();
    } catch (err) {
      pending.length = mark; // the savepoint's writes are gone, so are its events
      forgetKeptRows(stoa); // and any kept rows it wrote
      throw err;
    }
  }
  const batch: NonNullable<Stoa['pendingEvents']> = [];
  stoa.pendingEvents = batch;
  let result: T;
  try {
    result = stoa.db.transaction(fn).immediate();
  } catch (err) {
    forgetKeptRows(stoa); // rows kept during the transaction may hold its undone writes
    throw err;
  } finally {
    stoa.pendingEvents = null;
  }
  deliverCommitted(stoa, batch);
  return result;
}

/** After a commit: the transaction's events go to their queues, then its committed work starts. */
function deliverCommitted(stoa: Stoa, batch: NonNullable<Stoa['pendingEvents']>): void {
  const events: Array<{ event: Deliverable; userIds: number[] }> = [];
  const work: Array<() => void> = [];
  for (const entry of batch) {
    if ('committed' in entry) work.push(entry.committed);
    else events.push(entry);
  }
  stoa.queues.deliver(events);
  for (const start of work) start();
}

/**
 * Runs a request's handler (its synchronous part) so that its writes join the transaction
 * the turn's requests share.
 */
export function handleRequest<T>(stoa: Stoa, handler: () => T): T {
  stoa.handlingRequest = true;
  try {
    const result = handler();
    if (stoa.requestStart) stoa.db.exec(`RELEASE ${REQUEST_SAVEPOINT}`);
    return result;
  } catch (err) {
    // A request that fails after some of its writes (a second action refused, a bug) leaves
    // none of them behind: the client was told it failed.
    if (stoa.requestStart && stoa.db.inTransaction) {
      stoa.db.exec(`ROLLBACK TO ${REQUEST_SAVEPOINT}`);
      stoa.db.exec(`RELEASE ${REQUEST_SAVEPOINT}`);
      if (stoa.pendingEvents) stoa.pendingEvents.length = stoa.requestStart.events;
      forgetKeptRows(stoa);
    }
    throw err;
  } finally {
    stoa.handlingRequest = false;
    stoa.requestStart = null;
  }
}

/** The savepoint around one request's writes inside the shared transaction. */
const REQUEST_SAVEPOINT = 'stoa_request';

/** Before a request's first write: join (or begin) the shared transaction and mark where this request starts. */
function beginRequestWrites(stoa: Stoa): void {
  if (!stoa.pendingEvents) beginShared(stoa);
  stoa.db.exec(`SAVEPOINT ${REQUEST_SAVEPOINT}`);
  stoa.requestStart = { events: stoa.pendingEvents!.length };
}

/** Runs fn once nothing uncommitted can be seen any more: at once, or after the shared commit. */
export function afterCommit(stoa: Stoa, fn: (failure: unknown) => void): void {
  if (stoa.shared) stoa.shared.afterCommit.push(fn);
  else fn(null);
}

function beginShared(stoa: Stoa): void {
  stoa.db.exec('BEGIN IMMEDIATE');
  stoa.pendingEvents = [];
  const shared: NonNullable<Stoa['shared']> = { afterCommit: [], begunAt: performance.now() };
  stoa.shared = shared;
  setImmediate(() => {
    // Unless it was committed early (see Stoa's groupCommitMaxMs) and another one begun since.
    if (stoa.shared === shared) commitShared(stoa);
  });
}

/** Commits the shared transaction if one is open, then delivers its events and answers. */
export function commitShared(stoa: Stoa): void {
  const { shared, pendingEvents } = stoa;
  if (!shared || !pendingEvents) return;
  stoa.shared = null;
  stoa.pendingEvents = null;
  let failure: unknown = null;
  try {
    stoa.db.exec('COMMIT');
  } catch (err) {
    failure = err;
    if (stoa.db.inTransaction) stoa.db.exec('ROLLBACK');
    forgetKeptRows(stoa);
  }
  if (failure === null) deliverCommitted(stoa, pendingEvents);
  for (const done of shared.afterCommit) done(failure);
}

/**
 * Runs `start` once the current transaction has committed, and never if it is undone (as the
 * events sent beside it); outside a transaction, at once. For work that must not see, or
 * act on, writes that could still be lost, such as calling a bot about a new message.
 */
export function onCommit(stoa: Stoa, start: () => void): void {
  if (stoa.pendingEvents) stoa.pendingEvents.push({ committed: start });
  else start();
}

/**
 * Sends an event to the queues of the given users: after the commit when called inside
 * `write`, at once otherwise (for events that change no stored state, such as typing).
 */
export function sendEvent(stoa: Stoa, event: Deliverable, userIds: Iterable<number>): void {
  const entry = { event, userIds: [...userIds] };
  if (stoa.pendingEvents) stoa.pendingEvents.push(entry);
  else stoa.queues.deliver([entry]);
}

import type { Stoa } from '../stoa';
import type { Deliverable } from './queues';

/**
 * Runs fn in one IMMEDIATE transaction: all of its writes land, or none do. Events sent
 * inside it are held back and delivered only after the commit; if fn throws they are dropped
 * with the writes. Nested calls become savepoints of the outer transaction.
 */
export function write<T>(stoa: Stoa, fn: () => T): T {
  const pending = stoa.pendingEvents;
  if (pending) {
    const mark = pending.length;
    try {
      return stoa.db.transaction(fn)();
    } catch (err) {
      pending.length = mark; // the savepoint's writes are gone, so are its events
      stoa.users.forget(); // and any user rows it wrote
      throw err;
    }
  }
  const batch: NonNullable<Stoa['pendingEvents']> = [];
  stoa.pendingEvents = batch;
  let result: T;
  try {
    result = stoa.db.transaction(fn).immediate();
  } catch (err) {
    stoa.users.forget(); // rows kept during the transaction may hold its undone writes
    throw err;
  } finally {
    stoa.pendingEvents = null;
  }
  stoa.queues.deliver(batch);
  return result;
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

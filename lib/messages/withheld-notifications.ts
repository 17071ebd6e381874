import type { EventQueue, PendingEvents } from '../events/queues';
import { write } from '../events/send';
import { emailWithheldMessages } from '../mail/missed-messages';
import { pushWithheldMessages } from '../push/actions';
import { inBackground } from '../push/background';
import type { Stoa } from '../stoa';
import type { MessageRow } from './queries';

/**
 * Zulip's missedmessage hook. While a person has a client open, Zulip holds back the push
 * notifications (unless they asked for pushes while online) and emails of new messages: they
 * will read them there. A client that simply went away (a laptop closed, a tab killed) keeps
 * its queue until the queue's idle lifespan passes, so when a person's last queue goes, the
 * messages it still held unacknowledged notify them as if they had been away all along:
 * pushed now, mailed with their next batch. Messages read meanwhile notify no one.
 */
export function notifyWhatLastQueueMissed(stoa: Stoa, queue: EventQueue, unacknowledged: PendingEvents): void {
  const messageIds = messageIdsIn(unacknowledged);
  if (messageIds.length === 0) return;
  const userId = queue.userId;
  inBackground(stoa, `notifying user ${userId} of messages their last client missed`, async () => {
    if (!stoa.db.open) return;
    const user = stoa.users.byId(userId);
    if (!user || !user.is_active || user.is_bot) return;
    const flags = stoa.messages.flagsOfMany(userId, messageIds);
    const messages: Array<{ message: MessageRow; flags: number }> = [];
    for (const id of messageIds) {
      const message = stoa.messages.byId(id);
      const bits = flags.get(id);
      if (message && bits !== undefined) messages.push({ message, flags: bits });
    }
    if (messages.length === 0) return;
    write(stoa, () => {
      pushWithheldMessages(stoa, user, messages);
      emailWithheldMessages(stoa, user, queue, messages);
    });
  });
}

/** The IDs of the messages whose `message` events are among these queued event texts. */
function messageIdsIn({ events }: PendingEvents): number[] {
  const ids: number[] = [];
  for (const text of events) {
    // Most queued events are not messages; only those are parsed.
    if (!text.includes('"type":"message"')) continue;
    const event = JSON.parse(text) as { type: string; message?: { id?: unknown } };
    if (event.type === 'message' && typeof event.message?.id === 'number') ids.push(event.message.id);
  }
  return ids;
}

import { sendEvent, write } from '../events/send';
import { rescheduleDelivery } from '../scheduled-messages/delivery';
import type { ScheduledFields } from '../scheduled-messages/queries';
import type { Stoa } from '../stoa';
import { presentReminder } from './present';

/** Stores a reminder, to be sent with the scheduled messages, and tells the user's clients; answers its ID. */
export function createReminder(stoa: Stoa, userId: number, fields: ScheduledFields, targetMessageId: number, note: string): number {
  const id = write(stoa, () => {
    const id = stoa.scheduledMessages.insertReminder(userId, fields, targetMessageId, note === '' ? null : note);
    const created = presentReminder(stoa.scheduledMessages.getReminder(userId, id)!);
    sendEvent(stoa, { type: 'reminders', op: 'add', reminders: [created] }, [userId]);
    return id;
  });
  rescheduleDelivery(stoa);
  return id;
}

/** Forgets a reminder, so it is never sent. */
export function deleteReminder(stoa: Stoa, userId: number, id: number): void {
  write(stoa, () => {
    stoa.scheduledMessages.remove(id);
    sendEvent(stoa, { type: 'reminders', op: 'remove', reminder_id: id }, [userId]);
  });
  rescheduleDelivery(stoa);
}

import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { rescheduleDelivery } from './delivery';
import { presentScheduledMessage } from './present';
import type { ScheduledFields } from './queries';

/** Stores a message to send later and tells the sender's clients; answers its ID. */
export function scheduleMessage(stoa: Stoa, senderId: number, fields: ScheduledFields, readBySender: boolean): number {
  const id = write(stoa, () => {
    const id = stoa.scheduledMessages.insert(senderId, fields, readBySender);
    const created = presentScheduledMessage(stoa.scheduledMessages.get(senderId, id)!);
    sendEvent(stoa, { type: 'scheduled_messages', op: 'add', scheduled_messages: [created] }, [senderId]);
    return id;
  });
  rescheduleDelivery(stoa);
  return id;
}

/** Replaces a scheduled message's contents and time; one that had failed is tried again at its new time. */
export function editScheduledMessage(stoa: Stoa, senderId: number, id: number, fields: ScheduledFields): void {
  write(stoa, () => {
    stoa.scheduledMessages.update(id, fields);
    const updated = presentScheduledMessage(stoa.scheduledMessages.get(senderId, id)!);
    sendEvent(stoa, { type: 'scheduled_messages', op: 'update', scheduled_message: updated }, [senderId]);
  });
  rescheduleDelivery(stoa);
}

/** Forgets a scheduled message, so it is never sent. */
export function deleteScheduledMessage(stoa: Stoa, senderId: number, id: number): void {
  write(stoa, () => {
    stoa.scheduledMessages.remove(id);
    sendEvent(stoa, { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, [senderId]);
  });
  rescheduleDelivery(stoa);
}

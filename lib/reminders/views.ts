import type { StateContext } from '../events/state-context';
import { clientName } from '../http/client-name';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { ApiError, badRequest } from '../http/errors';
import { accessMessage } from '../messages/access';
import { renderContent } from '../messages/render';
import { REALM_SERVER_FACTS } from '../realm/settings';
import { checkDeliveryTime } from '../scheduled-messages/views';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { createReminder, deleteReminder } from './actions';
import { reminderContent } from './content';
import { presentReminder } from './present';

const MAX_REMINDER_NOTE_LENGTH = REALM_SERVER_FACTS.max_reminder_note_length as number;

/** A note as stored: trailing whitespace and leading blank lines go, as for message content. */
function normalizeNote(raw: string): string {
  const note = raw.trimEnd().replace(/^\n+/, '');
  if (Array.from(note).length > MAX_REMINDER_NOTE_LENGTH) {
    throw badRequest(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  }
  return note;
}

function remindersOf(stoa: Stoa, user: UserRow): Record<string, unknown>[] {
  return stoa.scheduledMessages.remindersOf(user.id).map(presentReminder);
}

export const getReminders = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => ({ reminders: remindersOf(stoa, user) }),
});

export const createReminderView = endpoint<{ message_id: number; scheduled_delivery_timestamp: number; note?: string }>({
  params: {
    properties: { message_id: { type: 'integer' }, scheduled_delivery_timestamp: { type: 'integer' }, note: { type: 'string' } },
    required: ['message_id', 'scheduled_delivery_timestamp'],
  },
  view: ({ stoa, user, params, req }) => {
    const timestamp = checkDeliveryTime(stoa, params.scheduled_delivery_timestamp);
    const { row: message } = accessMessage(stoa, user, params.message_id);
    const note = normalizeNote(params.note ?? '');
    const content = reminderContent(stoa, message, note);
    const fields = {
      type: 'private' as const,
      to: [user.id],
      topic: '',
      content,
      renderedContent: renderContent(stoa, user, content, []).html,
      sendingClient: clientName(req, undefined),
      scheduledTimestamp: timestamp,
    };
    return { reminder_id: createReminder(stoa, user.id, fields, message.id, note) };
  },
});

export const deleteReminderView = endpoint<{ reminder_id: number }>({
  pathPatterns: { reminder_id: /^\d+$/ },
  params: { properties: { reminder_id: { type: 'integer' } } },
  view: ({ stoa, user, params }) => {
    if (!stoa.scheduledMessages.getReminder(user.id, params.reminder_id)) {
      throw new ApiError('BAD_REQUEST', 'Reminder does not exist', 404);
    }
    deleteReminder(stoa, user.id, params.reminder_id);
    return {};
  },
});

/** Register state for fetch type `reminders`: the user's reminders not yet sent, soonest first. */
export function remindersState({ stoa, user }: StateContext): Record<string, unknown> {
  return { reminders: remindersOf(stoa, user) };
}

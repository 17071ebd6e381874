import type { Statements } from '../db';

/** How a scheduled message is addressed, in the words its API objects use. */
export type ScheduledType = 'stream' | 'private';

export interface ScheduledMessageRow {
  id: number;
  sender_id: number;
  type: ScheduledType;
  /** JSON array of IDs; see schema.sql. */
  to_ids: string;
  topic: string;
  content: string;
  rendered_content: string;
  sending_client: string;
  scheduled_timestamp: number;
  read_by_sender: number;
  delivered: number;
  delivered_message_id: number | null;
  failed: number;
  failure_message: string | null;
  /** Set for a reminder: the message it is about (a reminder is sent to its sender by the notification bot). */
  reminder_target_message_id: number | null;
  reminder_note: string | null;
}

/** A scheduled message's contents as checked, ready to store. */
export interface ScheduledFields {
  type: ScheduledType;
  /** The channel's ID alone, or the other people of a direct message (the sender alone for a note to self). */
  to: number[];
  topic: string;
  content: string;
  renderedContent: string;
  sendingClient: string;
  scheduledTimestamp: number;
}

type Columns = [string, string, string, string, string, string, number];

/** The columns a message's contents fill, in the order the statements below name them. */
function columnsOf(fields: ScheduledFields): Columns {
  return [
    fields.type,
    JSON.stringify(fields.to),
    fields.topic,
    fields.content,
    fields.renderedContent,
    fields.sendingClient,
    fields.scheduledTimestamp,
  ];
}

export function prepareScheduledMessageQueries(db: Statements) {
  const pendingOf = db.prepare<[number], ScheduledMessageRow>(
    `SELECT * FROM scheduled_messages WHERE sender_id = ? AND delivered = 0 AND reminder_target_message_id IS NULL
     ORDER BY scheduled_timestamp, id`,
  );
  const get = db.prepare<[number, number], ScheduledMessageRow>(
    'SELECT * FROM scheduled_messages WHERE id = ? AND sender_id = ? AND reminder_target_message_id IS NULL',
  );
  const remindersOf = db.prepare<[number], ScheduledMessageRow>(
    `SELECT * FROM scheduled_messages WHERE sender_id = ? AND delivered = 0 AND reminder_target_message_id IS NOT NULL
     ORDER BY scheduled_timestamp, id`,
  );
  const getReminder = db.prepare<[number, number], ScheduledMessageRow>(
    'SELECT * FROM scheduled_messages WHERE id = ? AND sender_id = ? AND reminder_target_message_id IS NOT NULL',
  );
  const insertReminder = db.prepare<[number, ...Columns, number, string | null]>(
    `INSERT INTO scheduled_messages
       (sender_id, type, to_ids, topic, content, rendered_content, sending_client, scheduled_timestamp, read_by_sender,
        reminder_target_message_id, reminder_note)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
  );
  const nextDue = db.prepare<[], { scheduled_timestamp: number }>(
    'SELECT scheduled_timestamp FROM scheduled_messages WHERE delivered = 0 AND failed = 0 ORDER BY scheduled_timestamp, id LIMIT 1',
  );
  const firstDue = db.prepare<[number], ScheduledMessageRow>(
    `SELECT * FROM scheduled_messages WHERE delivered = 0 AND failed = 0 AND scheduled_timestamp <= ?
     ORDER BY scheduled_timestamp, id LIMIT 1`,
  );
  const insert = db.prepare<[number, ...Columns, number]>(
    `INSERT INTO scheduled_messages
       (sender_id, type, to_ids, topic, content, rendered_content, sending_client, scheduled_timestamp, read_by_sender)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // An edit also clears a failure: the message is to be tried again at its (new) time.
  const update = db.prepare<[...Columns, number]>(
    `UPDATE scheduled_messages SET type = ?, to_ids = ?, topic = ?, content = ?, rendered_content = ?,
       sending_client = ?, scheduled_timestamp = ?, failed = 0, failure_message = NULL
     WHERE id = ?`,
  );
  const markDelivered = db.prepare<[number, number]>(
    'UPDATE scheduled_messages SET delivered = 1, delivered_message_id = ? WHERE id = ?',
  );
  const markFailed = db.prepare<[string, number]>(
    'UPDATE scheduled_messages SET failed = 1, failure_message = ? WHERE id = ?',
  );
  const remove = db.prepare<[number]>('DELETE FROM scheduled_messages WHERE id = ?');
  return {
    /** The user's scheduled messages not yet sent (failed ones included), soonest first, as Zulip lists them. */
    pendingOf: (userId: number) => pendingOf.all(userId),
    /** One of the user's scheduled messages, sent or not; another user's is as good as missing. */
    get: (userId: number, id: number) => get.get(id, userId),
    /** The user's reminders not yet sent (failed ones included), soonest first. */
    remindersOf: (userId: number) => remindersOf.all(userId),
    /** One of the user's reminders, sent or not. */
    getReminder: (userId: number, id: number) => getReminder.get(id, userId),
    insertReminder: (userId: number, fields: ScheduledFields, targetMessageId: number, note: string | null) =>
      Number(insertReminder.run(userId, ...columnsOf(fields), targetMessageId, note).lastInsertRowid),
    /** When the next message waiting to be sent is due (UNIX seconds), if any is. */
    nextDueTimestamp: () => nextDue.get()?.scheduled_timestamp,
    /** The earliest message waiting to be sent whose time has come by `now` (UNIX seconds). */
    firstDue: (now: number) => firstDue.get(now),
    insert: (senderId: number, fields: ScheduledFields, readBySender: boolean) =>
      Number(insert.run(senderId, ...columnsOf(fields), readBySender ? 1 : 0).lastInsertRowid),
    update: (id: number, fields: ScheduledFields) => void update.run(...columnsOf(fields), id),
    markDelivered: (id: number, messageId: number) => void markDelivered.run(messageId, id),
    markFailed: (id: number, why: string) => void markFailed.run(why, id),
    remove: (id: number) => void remove.run(id),
  };
}

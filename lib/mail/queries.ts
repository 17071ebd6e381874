import type { Statements } from '../db';
import type { MessageRow } from '../messages/queries';

/** How many earlier messages of a topic come with a mention, as in Zulip's emails. */
const CONTEXT_MESSAGES = 10;

export type EmailLinkKind = 'password_reset' | 'email_change' | 'unsubscribe';

export interface EmailLinkRow {
  key: string;
  kind: EmailLinkKind;
  user_id: number;
  new_email: string | null;
  created_ms: number;
  expires_ms: number | null;
  used_ms: number | null;
}

export interface PendingEmailRow {
  user_id: number;
  message_id: number;
  trigger: string;
  mentioned_group_id: number | null;
  due_ms: number;
}

export function prepareMailQueries(db: Statements) {
  const insertLink = db.prepare<EmailLinkRow>(
    `INSERT INTO email_links (key, kind, user_id, new_email, created_ms, expires_ms, used_ms)
     VALUES (@key, @kind, @user_id, @new_email, @created_ms, @expires_ms, @used_ms)`,
  );
  const linkByKey = db.prepare<[string], EmailLinkRow>('SELECT * FROM email_links WHERE key = ?');
  const linksOfUser = db.prepare<[number, string], EmailLinkRow>('SELECT * FROM email_links WHERE user_id = ? AND kind = ? ORDER BY created_ms');
  const markUsed = db.prepare<[number, string]>('UPDATE email_links SET used_ms = ? WHERE key = ?');
  const retireOpen = db.prepare<[number, number, string]>(
    'UPDATE email_links SET used_ms = ? WHERE user_id = ? AND kind = ? AND used_ms IS NULL',
  );

  const insertPending = db.prepare<PendingEmailRow>(
    `INSERT OR IGNORE INTO email_notifications_pending (user_id, message_id, trigger, mentioned_group_id, due_ms)
     VALUES (@user_id, @message_id, @trigger, @mentioned_group_id, @due_ms)`,
  );
  const dueOfUser = db.prepare<[number], { due_ms: number }>('SELECT min(due_ms) AS due_ms FROM email_notifications_pending WHERE user_id = ?');
  const earliestDue = db.prepare<[], { due_ms: number | null }>('SELECT min(due_ms) AS due_ms FROM email_notifications_pending');
  const pendingDue = db.prepare<[number], PendingEmailRow>(
    'SELECT * FROM email_notifications_pending WHERE due_ms <= ? ORDER BY user_id, message_id',
  );
  const deletePending = db.prepare<[number, number]>('DELETE FROM email_notifications_pending WHERE user_id = ? AND message_id = ?');
  const pendingOfUser = db.prepare<[number], PendingEmailRow>('SELECT * FROM email_notifications_pending WHERE user_id = ? ORDER BY message_id');

  // Zulip's context for a mention: the topic's messages of the quarter of an hour before it.
  const topicContext = db.prepare<[number, string, number, number], MessageRow>(
    `SELECT * FROM messages WHERE recipient_id = ? AND lower(topic) = lower(?) AND id < ? AND date_sent > ?
     ORDER BY id DESC LIMIT ${CONTEXT_MESSAGES}`,
  );

  return {
    insertLink: (row: EmailLinkRow) => insertLink.run(row),
    linkByKey: (key: string) => linkByKey.get(key),
    linksOfUser: (userId: number, kind: EmailLinkKind) => linksOfUser.all(userId, kind),
    markLinkUsed: (key: string, nowMs: number) => markUsed.run(nowMs, key),
    /** Ends the person's unused links of one kind: a newer one replaces them. */
    retireOpenLinks: (userId: number, kind: EmailLinkKind, nowMs: number) => retireOpen.run(nowMs, userId, kind),

    /** Adds a message to a person's batch (once; a message already waiting stays as it is). */
    addPending: (row: PendingEmailRow) => insertPending.run(row),
    /** When the person's waiting batch falls due, if one is waiting. */
    batchDueOf: (userId: number): number | undefined => dueOfUser.get(userId)?.due_ms ?? undefined,
    earliestDue: (): number | undefined => earliestDue.get()?.due_ms ?? undefined,
    pendingDue: (nowMs: number) => pendingDue.all(nowMs),
    pendingOfUser: (userId: number) => pendingOfUser.all(userId),
    deletePending: (userId: number, messageId: number) => deletePending.run(userId, messageId),
    /** Up to ten messages of the message's topic sent in the 15 minutes before it, newest first. */
    topicContext: (message: MessageRow) => topicContext.all(message.recipient_id, message.topic, message.id, message.date_sent - 15 * 60),
  };
}

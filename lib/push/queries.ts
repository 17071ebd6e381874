import type { Statements } from '../db';
import { Flag } from '../messages/flags';
import { onBothTables } from '../messages/queries';

/** Zulip's numbering of token kinds, used in the relay protocol too. */
export const TokenKind = { apns: 1, fcm: 2 } as const;
export type TokenKindValue = (typeof TokenKind)[keyof typeof TokenKind];

export interface PushTokenRow {
  id: number;
  user_id: number;
  kind: TokenKindValue;
  token: string;
  ios_app_id: string | null;
  last_updated: number;
}

export function preparePushQueries(db: Statements) {
  const tokensOfUser = db.prepare<[number], PushTokenRow>('SELECT * FROM push_device_tokens WHERE user_id = ? ORDER BY id');
  const tokenOfUser = db.prepare<[number, string], PushTokenRow>(
    'SELECT * FROM push_device_tokens WHERE user_id = ? AND token = ? ORDER BY id LIMIT 1',
  );
  const tokenOfUserByKind = db.prepare<[number, string, number], PushTokenRow>(
    'SELECT * FROM push_device_tokens WHERE user_id = ? AND token = ? AND kind = ?',
  );
  const upsertToken = db.prepare<[number, number, string, string | null, number]>(
    `INSERT INTO push_device_tokens (user_id, kind, token, ios_app_id, last_updated) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (token, kind) DO UPDATE SET user_id = excluded.user_id, ios_app_id = excluded.ios_app_id,
       last_updated = excluded.last_updated`,
  );
  const deleteToken = db.prepare<[number]>('DELETE FROM push_device_tokens WHERE id = ?');
  const deleteTokenByValue = db.prepare<[string, number]>('DELETE FROM push_device_tokens WHERE token = ? AND kind = ?');

  const deleteTokensOfUser = db.prepare<[number]>('DELETE FROM push_device_tokens WHERE user_id = ?');

  const ACTIVE = Flag.active_mobile_push_notification;
  const markNotified = onBothTables<[number, number]>(
    db,
    `UPDATE user_messages SET flags = flags | ${ACTIVE} WHERE user_id = ? AND message_id = ? AND (flags & ${Flag.read | ACTIVE}) = 0`,
  );
  const showingOfMessages = db.prepare<[string], { user_id: number; message_id: number }>(
    `SELECT user_id, message_id FROM user_messages_all WHERE message_id IN (SELECT value FROM json_each(?)) AND (flags & ${ACTIVE}) != 0
     ORDER BY user_id, message_id`,
  );
  // Through the user's partial index: reading by message would visit every receiver's row of
  // each message (a thousand for a channel with everyone) to find the one user's.
  const showingOfUserMessages = db.prepare<[number, string], { user_id: number; message_id: number }>(
    `SELECT user_id, message_id FROM user_messages_all WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?)) AND (flags & ${ACTIVE}) != 0
     ORDER BY message_id`,
  );
  const showingOfUser = db.prepare<[number], { user_id: number; message_id: number }>(
    `SELECT user_id, message_id FROM user_messages_all WHERE user_id = ? AND (flags & ${ACTIVE}) != 0 ORDER BY message_id`,
  );
  const clearShowing = onBothTables<[number, number]>(db, `UPDATE user_messages SET flags = flags & ~${ACTIVE} WHERE user_id = ? AND message_id = ?`);

  return {
    tokensOfUser: (userId: number) => tokensOfUser.all(userId),
    /** The user's token with this value, of either kind. */
    tokenOfUser: (userId: number, token: string) => tokenOfUser.get(userId, token),
    tokenOfUserByKind: (userId: number, token: string, kind: TokenKindValue) => tokenOfUserByKind.get(userId, token, kind),
    /** Adds the token, or moves it to this user if another account on the same phone had it. */
    upsertToken: (userId: number, kind: TokenKindValue, token: string, iosAppId: string | null, now: number) =>
      void upsertToken.run(userId, kind, token, iosAppId, now),
    deleteToken: (id: number) => void deleteToken.run(id),
    deleteTokenByValue: (token: string, kind: TokenKindValue) => deleteTokenByValue.run(token, kind).changes > 0,

    /** Forgets the user's legacy tokens: their API key changed, so those apps are logged out. */
    forgetTokensOfUser: (userId: number) => void deleteTokensOfUser.run(userId),

    /**
     * Records that the user's phones show a notification of the message; false if it is read
     * already, or was notified before, so nothing should be sent.
     */
    markNotified: (userId: number, messageId: number) => markNotified(userId, messageId) > 0,
    /** The (user, message) pairs among these messages whose notification is showing. */
    showingOfMessages: (messageIds: readonly number[]) => showingOfMessages.all(JSON.stringify(messageIds)),
    /** Those of these messages whose notification is showing on the user's phones. */
    showingOfUserMessages: (userId: number, messageIds: readonly number[]) => showingOfUserMessages.all(userId, JSON.stringify(messageIds)),
    /** Every message whose notification is showing on the user's phones. */
    showingOfUser: (userId: number) => showingOfUser.all(userId),
    clearShowing: (userId: number, messageId: number) => void clearShowing(userId, messageId),
  };
}

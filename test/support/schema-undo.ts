/**
 * Takes back migration 36 -> 37 (new unread rows waiting in user_messages_recent), for tests
 * that build a database as an older schema version had it.
 */
export const UNDO_RECENT_UNREAD = `
  DROP INDEX user_messages_recent;
  DROP INDEX user_messages_unread;
  ALTER TABLE user_messages DROP COLUMN recent;
  CREATE INDEX user_messages_unread ON user_messages (user_id, message_id) WHERE (flags & 1) = 0;
`;

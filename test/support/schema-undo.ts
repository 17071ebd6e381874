/**
 * Takes back migration 37 -> 38 (new rows of user_messages waiting in user_messages_new): the
 * staged rows go back into user_messages, unread ones waiting in user_messages_recent as
 * version 37 kept them. For tests that build a database as an older schema version had it.
 */
export const UNDO_STAGED_ROWS = `
  CREATE INDEX user_messages_recent ON user_messages (user_id, message_id) WHERE recent IS NOT NULL;
  INSERT INTO user_messages (user_id, message_id, flags, recent)
    SELECT user_id, message_id, flags, CASE WHEN (flags & 1) = 0 THEN 1 END FROM user_messages_new;
  DROP VIEW user_messages_all;
  DROP TABLE user_messages_new;
`;

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

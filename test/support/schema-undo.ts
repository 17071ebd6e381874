/**
 * Takes back migration 38 -> 39 (user_messages_new without foreign keys): the table as version
 * 38 made it, with its waiting rows.
 */
export const UNDO_STAGED_WITHOUT_KEYS = `
  DROP TRIGGER messages_delete_waiting_rows;
  DROP VIEW user_messages_all;
  ALTER TABLE user_messages_new RENAME TO user_messages_unkeyed;
  CREATE TABLE user_messages_new (
    message_id        INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    user_id           INTEGER NOT NULL REFERENCES users (id),
    flags             INTEGER NOT NULL,
    PRIMARY KEY (message_id, user_id)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO user_messages_new SELECT message_id, user_id, flags FROM user_messages_unkeyed;
  DROP TABLE user_messages_unkeyed;
  CREATE INDEX user_messages_new_by_user ON user_messages_new (user_id, message_id);
  CREATE VIEW user_messages_all AS
    SELECT user_id, message_id, flags FROM user_messages
    UNION ALL
    SELECT user_id, message_id, flags FROM user_messages_new;
`;

/**
 * Takes back migrations 38 -> 39 and 37 -> 38 (new rows of user_messages waiting in
 * user_messages_new): the staged rows go back into user_messages, unread ones waiting in user_messages_recent as
 * version 37 kept them. For tests that build a database as an older schema version had it.
 */
export const UNDO_STAGED_ROWS = `
  DROP TRIGGER messages_delete_waiting_rows;
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

import type Database from 'better-sqlite3';
import type { Statements } from '../db';
import { KeptWhileUnwritten, type TableWrites } from '../table-writes';
import { topicKey } from '../user-topics/queries';
import { Flag } from './flags';

export interface MessageRow {
  id: number;
  sender_id: number;
  recipient_id: number;
  stream_id: number | null;
  topic: string;
  topic_key: string;
  content: string;
  rendered_content: string;
  date_sent: number;
  sending_client: string;
  is_me_message: number;
  has_link: number;
  has_image: number;
  has_attachment: number;
  last_edit_time: number | null;
  last_moved_time: number | null;
  edit_history: string | null;
}

/**
 * A user's unread messages in one conversation (a recipient, and a channel's topic matched
 * without regard to case): its channel (null if direct), the topic of its oldest unread
 * message, how many, and their IDs oldest first, comma-separated; of those, the ones
 * mentioning the user and the ones mentioning only everyone (channel or topic), in no
 * particular order, or null.
 */
export type UnreadGroup = [
  recipientId: number,
  streamId: number | null,
  topicKey: string,
  topic: string,
  count: number,
  ids: string,
  mentionedIds: string | null,
  wildcardIds: string | null,
  firstId: number,
];

export type NewMessage = Omit<MessageRow, 'id' | 'topic_key' | 'last_edit_time' | 'last_moved_time' | 'edit_history'>;

export interface ReactionRow {
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

export interface SubmessageRow {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export type NewSubmessage = Omit<SubmessageRow, 'id'>;

/** The columns `messagesOf` reads, in MessageRow's order; a query may select user_flags after them. */
export const MESSAGE_COLUMNS =
  'm.id, m.sender_id, m.recipient_id, m.stream_id, m.topic, m.topic_key, m.content, m.rendered_content, m.date_sent, ' +
  'm.sending_client, m.is_me_message, m.has_link, m.has_image, m.has_attachment, m.last_edit_time, m.last_moved_time, m.edit_history';

/** One row of MESSAGE_COLUMNS (and user_flags, when selected) as the object the code reads. */
function messageFromValues(v: any[]): MessageRow & { user_flags?: number } {
  return {
    id: v[0],
    sender_id: v[1],
    recipient_id: v[2],
    stream_id: v[3],
    topic: v[4],
    topic_key: v[5],
    content: v[6],
    rendered_content: v[7],
    date_sent: v[8],
    sending_client: v[9],
    is_me_message: v[10],
    has_link: v[11],
    has_image: v[12],
    has_attachment: v[13],
    last_edit_time: v[14],
    last_moved_time: v[15],
    edit_history: v[16],
    user_flags: v[17],
  };
}

/** The text a message is found by in full-text search: its Markdown source. */
export function searchableText(content: string): string {
  return content;
}

/**
 * How many new rows wait in user_messages_new (schema.sql) before they move into user_messages
 * together: 32 messages to 1,000 people. Measured on a copy of the day's organization
 * (bench/RESULTS.md): a message to everyone then writes about 160 pages instead of 1,150, and
 * costs 15% less CPU than with batches of 16,000 (a person's pages of user_messages and of its
 * unread index are written once for twice as many rows); a larger batch makes the staging
 * table's per-person index, which every message writes whole, larger too.
 */
const STAGED_ROWS_PER_BATCH = 32_000;
/**
 * A batch moves a range of this many person IDs per transaction, one range every
 * ROWS_BETWEEN_MOVES new rows, rather than all at once: the whole batch is about 200 ms of the
 * server's thread for the day's organization, an eighth of it per range. Each person's rows
 * still move together, so their page is written once a batch.
 */
const PEOPLE_PER_MOVE = 128;
const ROWS_BETWEEN_MOVES = 500;
/**
 * Message rows kept for fetches (rowsByIds): at most this many, and at most this many
 * characters of content (Markdown and HTML), so that long messages cannot make it large: about
 * a megabyte for the day's 2,000 short messages, at most some 8 MB whatever they hold.
 */
const KEPT_ROWS = 2000;
const KEPT_CHARS = 4_000_000;
/** Rows of a message written by one statement (bench/RESULTS.md: 64 and 128 cost the same). */
const ROWS_PER_INSERT = 64;

/**
 * A write to a person's row of a message, prepared for both tables the row may be in
 * (user_messages, or user_messages_new while it waits for its batch; schema.sql): `sql` names
 * `user_messages ` once. Runs on both and returns how many rows changed.
 */
export function onBothTables<P extends unknown[]>(db: Statements, sql: string): (...params: P) => number {
  const settled = db.prepare<P>(sql);
  const staged = db.prepare<P>(sql.replace('user_messages ', 'user_messages_new '));
  return (...params: P) => settled.run(...params).changes + staged.run(...params).changes;
}

export function prepareMessageQueries(db: Statements, writes: TableWrites) {
  const statements = new Map<string, Database.Statement>();
  /**
   * A statement built from our own SQL text (narrow queries), prepared once per distinct text
   * and mode (rows as arrays or as objects). The text never contains request values; those
   * are always bound parameters.
   */
  const prepared = (sql: string, asArrays = false): Database.Statement => {
    const key = asArrays ? `raw:${sql}` : sql;
    let statement = statements.get(key);
    if (!statement) {
      statement = db.prepare(sql).raw(asArrays);
      if (statements.size > 500) statements.clear();
      statements.set(key, statement);
    }
    return statement;
  };
  const insert = db.prepare<Record<string, unknown>>(
    // Above every ID in use and every ID ever deleted, so that no ID is given twice.
    `INSERT INTO messages (id, sender_id, recipient_id, stream_id, topic, topic_key, content, rendered_content, date_sent,
       sending_client, is_me_message, has_link, has_image, has_attachment)
     VALUES (
       max((SELECT id FROM deleted_messages_high_water), (SELECT coalesce(max(id), 0) FROM messages)) + 1,
       @sender_id, @recipient_id, @stream_id, @topic, @topic_key, @content, @rendered_content, @date_sent,
       @sending_client, @is_me_message, @has_link, @has_image, @has_attachment)`,
  );
  const indexForSearch = db.prepare<[number, string, string]>('INSERT INTO messages_fts (rowid, topic, content) VALUES (?, ?, ?)');
  // A new row starts in user_messages_new, keyed by message, so that a message's rows fill a
  // few pages of their own (schema.sql); once STAGED_ROWS_PER_BATCH wait, they move into
  // user_messages a range of people at a time, in person order, so that each person's page
  // there (and in the unread index) is written once a batch instead of once a message.
  const insertUserMessage = db.prepare<[number, number, number]>('INSERT INTO user_messages_new (user_id, message_id, flags) VALUES (?, ?, ?)');
  // A message's rows ROWS_PER_INSERT to a statement: one call into SQLite and one statement
  // step instead of ROWS_PER_INSERT (bench/RESULTS.md).
  const insertUserMessages = db.prepare<[number[]]>(
    `INSERT INTO user_messages_new (user_id, message_id, flags) VALUES ${Array<string>(ROWS_PER_INSERT).fill('(?, ?, ?)').join(', ')}`,
  );
  const rowParams: number[] = [];
  const countStaged = db.prepare<[], { count: number }>('SELECT count(*) AS count FROM user_messages_new');
  const moveRange = db.prepare<[number, number]>(
    `INSERT INTO user_messages (user_id, message_id, flags)
     SELECT user_id, message_id, flags FROM user_messages_new INDEXED BY user_messages_new_by_user
     WHERE user_id >= ? AND user_id < ? ORDER BY user_id, message_id`,
  );
  const clearRange = db.prepare<[number, number]>('DELETE FROM user_messages_new WHERE user_id >= ? AND user_id < ?');
  const lastStagedPerson = db.prepare<[], { id: number | null }>('SELECT max(user_id) AS id FROM user_messages_new');
  let stagedRows: number | undefined;
  // The first person ID of the next range while a batch is under way; rows added meanwhile for
  // people already passed wait for the next batch.
  let nextPerson: number | undefined;
  let rowsSinceMove = 0;
  /** Moves the waiting rows of the next range of people that has any; ends the batch after the last. */
  const moveNextRange = () => {
    const last = lastStagedPerson.get()!.id;
    let from = nextPerson ?? 0;
    nextPerson = undefined;
    while (last !== null && from <= last) {
      const to = from + PEOPLE_PER_MOVE;
      moveRange.run(from, to);
      const moved = clearRange.run(from, to).changes;
      from = to;
      if (moved > 0) {
        if (stagedRows !== undefined) stagedRows -= moved;
        if (from <= last) nextPerson = from;
        return;
      }
    }
  };
  /** Counts `added` new waiting rows; starts a batch, and moves a range, when due. */
  const staged = (added: number) => {
    stagedRows = (stagedRows ?? countStaged.get()!.count) + added;
    if (nextPerson !== undefined) rowsSinceMove += added;
    else if (stagedRows >= STAGED_ROWS_PER_BATCH) {
      // A batch's first range moves at once.
      nextPerson = 0;
      rowsSinceMove = ROWS_BETWEEN_MOVES;
    } else return;
    while (nextPerson !== undefined && rowsSinceMove >= ROWS_BETWEEN_MOVES) {
      rowsSinceMove -= ROWS_BETWEEN_MOVES;
      moveNextRange();
    }
  };
  /** Moves every row waiting in user_messages_new into user_messages. */
  const moveStagedRows = () => {
    nextPerson = 0;
    while (nextPerson !== undefined) moveNextRange();
    stagedRows = 0;
  };
  const recentIdsTo = db.prepare<[number, number, number], { id: number }>(
    'SELECT id FROM messages WHERE recipient_id = ? AND date_sent > ? ORDER BY id DESC LIMIT ?',
  );
  const byId = db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE id = ?');
  const flagsOf = db.prepare<[number, number], { flags: number }>(
    'SELECT flags FROM user_messages_all WHERE user_id = ? AND message_id = ?',
  );
  const holders = db.prepare<[number], { user_id: number; flags: number }>(
    'SELECT user_id, flags FROM user_messages_all WHERE message_id = ?',
  );
  // From user_messages_by_message alone: without the flags no row of user_messages is read,
  // a third of the time for a message to everyone (bench/RESULTS.md).
  const holderIds = db.prepare<[number], { user_id: number }>('SELECT user_id FROM user_messages_all WHERE message_id = ?');
  const reactionsOf = db.prepare<[string], ReactionRow>(
    `SELECT message_id, user_id, emoji_name, emoji_code, reaction_type FROM reactions
     WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  );
  const directGroupByUsers = db.prepare<[string], { id: number; recipient_id: number }>(
    'SELECT id, recipient_id FROM direct_message_groups WHERE user_ids = ?',
  );
  const insertDirectGroup = db.prepare<[string]>('INSERT INTO direct_message_groups (user_ids) VALUES (?)');
  const insertRecipient = db.prepare<[number, number]>('INSERT INTO recipients (type, type_id) VALUES (?, ?)');
  const setDirectGroupRecipient = db.prepare<[number, number]>('UPDATE direct_message_groups SET recipient_id = ? WHERE id = ?');
  const recipient = db.prepare<[number], { id: number; type: number; type_id: number }>('SELECT * FROM recipients WHERE id = ?');
  const directGroupMembers = db.prepare<[number], { user_ids: string }>('SELECT user_ids FROM direct_message_groups WHERE id = ?');
  const maxId = db.prepare<[], { id: number | null }>('SELECT max(id) AS id FROM messages');
  const topicParticipants = db.prepare<{ recipient: number; topic: string }, { user_id: number }>(
    `SELECT m.sender_id AS user_id FROM messages m WHERE m.recipient_id = @recipient AND m.topic_key = @topic
     UNION
     SELECT r.user_id FROM reactions r JOIN messages m ON m.id = r.message_id
     WHERE m.recipient_id = @recipient AND m.topic_key = @topic`,
  );
  const ownReaction = db.prepare<[number, number, string, string], ReactionRow>(
    `SELECT message_id, user_id, emoji_name, emoji_code, reaction_type FROM reactions
     WHERE message_id = ? AND user_id = ? AND emoji_code = ? AND reaction_type = ?`,
  );
  const firstReaction = db.prepare<[number, string, string], ReactionRow>(
    `SELECT message_id, user_id, emoji_name, emoji_code, reaction_type FROM reactions
     WHERE message_id = ? AND emoji_code = ? AND reaction_type = ? ORDER BY id LIMIT 1`,
  );
  const insertReaction = db.prepare<ReactionRow>(
    `INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type)
     VALUES (@message_id, @user_id, @emoji_name, @emoji_code, @reaction_type)`,
  );
  const deleteReaction = db.prepare<[number, number, string, string]>(
    'DELETE FROM reactions WHERE message_id = ? AND user_id = ? AND emoji_code = ? AND reaction_type = ?',
  );
  const submessagesOf = db.prepare<[string], SubmessageRow>(
    `SELECT id, message_id, sender_id, msg_type, content FROM submessages
     WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY message_id, id`,
  );
  const insertSubmessage = db.prepare<NewSubmessage>(
    `INSERT INTO submessages (message_id, sender_id, msg_type, content)
     VALUES (@message_id, @sender_id, @msg_type, @content)`,
  );
  const firstSubmessageOfType = db.prepare<[number, string], { content: string }>(
    'SELECT content FROM submessages WHERE message_id = ? AND msg_type = ? ORDER BY id LIMIT 1',
  );
  const hasSubmessageFrom = db.prepare<[number, number], { found: 1 }>(
    'SELECT 1 AS found FROM submessages WHERE message_id = ? AND sender_id = ? LIMIT 1',
  );
  const hasSubmessages = db.prepare<[number], { found: 1 }>('SELECT 1 AS found FROM submessages WHERE message_id = ? LIMIT 1');
  const flagsOfMany = db.prepare<[number, string], { message_id: number; flags: number }>(
    'SELECT message_id, flags FROM user_messages_all WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?))',
  );
  const byIds = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id');
  const rowsOf = db.prepare<[string]>(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.id IN (SELECT value FROM json_each(?))`).raw(true);
  // The messages people open, mostly the same recent ones for everyone: kept until any message
  // is edited, moved or deleted (new messages change none of them), the oldest kept making room.
  const keptRows = new KeptWhileUnwritten<{ rows: Map<number, MessageRow>; chars: number }>(writes, ['messages']);
  const charsOf = (row: MessageRow) => row.content.length + row.rendered_content.length;
  const rowsByIds = (ids: readonly number[]): MessageRow[] => {
    const kept = keptRows.get(() => ({ rows: new Map(), chars: 0 }));
    const found = new Map<number, MessageRow>();
    const missing: number[] = [];
    for (const id of ids) {
      const row = kept.rows.get(id);
      if (row) found.set(id, row);
      else missing.push(id);
    }
    if (missing.length === 0) return ids.map((id) => found.get(id)!);
    const fresh = (rowsOf.all(JSON.stringify(missing)) as unknown[][]).map((values) => {
      const { user_flags: _none, ...row } = messageFromValues(values);
      return row;
    });
    let freshChars = 0;
    for (const row of fresh) {
      found.set(row.id, row);
      freshChars += charsOf(row);
    }
    if (fresh.length <= KEPT_ROWS && freshChars <= KEPT_CHARS) {
      // A Map iterates in insertion order: the oldest kept go first.
      for (const [id, row] of kept.rows) {
        if (kept.rows.size + fresh.length <= KEPT_ROWS && kept.chars + freshChars <= KEPT_CHARS) break;
        kept.rows.delete(id);
        kept.chars -= charsOf(row);
      }
      for (const row of fresh) kept.rows.set(row.id, row);
      kept.chars += freshChars;
    }
    return ids.map((id) => found.get(id)!);
  };
  const setFlag = onBothTables<[number, number, string]>(
    db,
    'UPDATE user_messages SET flags = flags | ? WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?))',
  );
  const clearFlag = onBothTables<[number, number, string]>(
    db,
    'UPDATE user_messages SET flags = flags & ~? WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?))',
  );
  const unreadIn = db.prepare<[number, number], { message_id: number }>(
    `SELECT um.message_id FROM user_messages_all um JOIN messages m ON m.id = um.message_id
     WHERE um.user_id = ? AND (um.flags & 1) = 0 AND m.recipient_id = ? ORDER BY um.message_id`,
  );
  // Active users with the message read who let it be known: send_read_receipts is stored only
  // when it differs from its default, true.
  const readers = db.prepare<[number], { user_id: number }>(
    `SELECT um.user_id FROM user_messages_all um JOIN users u ON u.id = um.user_id
     WHERE um.message_id = ? AND (um.flags & 1) <> 0 AND u.is_active = 1
       AND NOT EXISTS (SELECT 1 FROM user_settings s WHERE s.user_id = um.user_id AND s.name = 'send_read_receipts' AND s.value = 'false')
     ORDER BY um.user_id`,
  );
  const unreadFromSender = db.prepare<[number, number], { message_id: number }>(
    `SELECT um.message_id FROM user_messages_all um JOIN messages m ON m.id = um.message_id
     WHERE um.user_id = ? AND (um.flags & 1) = 0 AND m.sender_id = ? ORDER BY um.message_id`,
  );
  const unreadInTopic = db.prepare<[number, number, string], { message_id: number }>(
    `SELECT um.message_id FROM user_messages_all um JOIN messages m ON m.id = um.message_id
     WHERE um.user_id = ? AND (um.flags & 1) = 0 AND m.recipient_id = ? AND m.topic_key = ? ORDER BY um.message_id`,
  );
  const hasTopicRow = db.prepare<{ user: number; recipient: number; topic: string }, { found: 1 }>(
    `SELECT 1 AS found FROM user_messages um JOIN messages m ON m.id = um.message_id
     WHERE um.user_id = @user AND m.recipient_id = @recipient AND m.topic_key = @topic
     UNION ALL
     SELECT 1 AS found FROM user_messages_new um JOIN messages m ON m.id = um.message_id
     WHERE um.user_id = @user AND m.recipient_id = @recipient AND m.topic_key = @topic LIMIT 1`,
  );
  const markAllRead = onBothTables<[number]>(db, 'UPDATE user_messages SET flags = flags | 1 WHERE user_id = ? AND (flags & 1) = 0');
  // The partial indexes are named: left to itself the planner walks the user's whole history in
  // ID order rather than the few rows the flag picks out.
  // A person's rows are in the two tables (schema.sql); the unread index carries the flags, so
  // the rows come from it without a lookup each. Every /register reads them (hundreds a person,
  // in a few dozen conversations): grouped here, because handing each row to JavaScript (an
  // array and a topic string per message) cost more than SQLite's search. With one min() in
  // the query, SQLite takes the bare `topic` from the row holding the minimum, the
  // conversation's oldest unread.
  const unreadRowsOf = (limited: boolean) => `
    SELECT um.message_id, um.flags, m.recipient_id, m.stream_id, m.topic, m.topic_key
    FROM user_messages um INDEXED BY user_messages_unread JOIN messages m ON m.id = um.message_id
    WHERE um.user_id = @user AND (um.flags & 1) = 0 AND um.recent IS NULL
    UNION ALL
    SELECT um.message_id, um.flags, m.recipient_id, m.stream_id, m.topic, m.topic_key
    FROM user_messages_new um JOIN messages m ON m.id = um.message_id
    WHERE um.user_id = @user AND (um.flags & 1) = 0
    ${limited ? 'ORDER BY 1 DESC LIMIT @limit' : ''}`;
  const groupsOf = (limited: boolean) =>
    db
      .prepare<{ user: number; limit?: number }, UnreadGroup>(
        `SELECT recipient_id, stream_id, topic_key, topic, count(*), group_concat(message_id, ',' ORDER BY message_id),
           group_concat(iif((flags & ${Flag.mentioned}) <> 0, message_id, NULL)),
           group_concat(iif((flags & ${Flag.mentioned}) = 0 AND (flags & ${Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned}) <> 0, message_id, NULL)),
           min(message_id)
         FROM (${unreadRowsOf(limited)})
         GROUP BY recipient_id, topic_key`,
      )
      .raw(true);
  // Keeping only the newest `limit` rows makes SQLite set them all aside before grouping (a
  // fifth of the statement's time): done only for the rare person who has more.
  const unreadGroups = groupsOf(false);
  const unreadGroupsLimited = groupsOf(true);
  const starredIds = db.prepare<{ user: number; limit: number }, { message_id: number }>(
    `SELECT * FROM (SELECT message_id FROM user_messages INDEXED BY user_messages_starred WHERE user_id = @user AND (flags & 2) <> 0 ORDER BY message_id LIMIT @limit)
     UNION ALL
     SELECT * FROM (SELECT message_id FROM user_messages_new WHERE user_id = @user AND (flags & 2) <> 0 ORDER BY message_id LIMIT @limit)
     ORDER BY message_id LIMIT @limit`,
  );
  // max() of a NULL is NULL: a person without staged rows is the common case.
  const maxIdOf = db.prepare<{ user: number }, { id: number | null }>(
    `SELECT max(id) AS id FROM (SELECT max(message_id) AS id FROM user_messages WHERE user_id = @user
       UNION ALL SELECT max(message_id) FROM user_messages_new WHERE user_id = @user)`,
  );
  const recentDirect = db.prepare<{ user: number; window: number }, { recipient_id: number; max_id: number }>(
    `SELECT m.recipient_id, max(m.id) AS max_id FROM (
       SELECT * FROM (SELECT message_id FROM user_messages INDEXED BY user_messages_private WHERE user_id = @user AND (flags & 256) <> 0 ORDER BY message_id DESC LIMIT @window)
       UNION ALL
       SELECT * FROM (SELECT message_id FROM user_messages_new WHERE user_id = @user AND (flags & 256) <> 0 ORDER BY message_id DESC LIMIT @window)
       ORDER BY message_id DESC LIMIT @window
     ) recent JOIN messages m ON m.id = recent.message_id GROUP BY m.recipient_id ORDER BY max_id DESC`,
  );
  const deleteMessage = db.prepare<[number]>('DELETE FROM messages WHERE id = ?');
  const deleteFromSearch = db.prepare<[number]>('DELETE FROM messages_fts WHERE rowid = ?');
  const firstSentSince = db.prepare<[number], { id: number }>(
    'SELECT id FROM messages WHERE date_sent >= ? ORDER BY date_sent, id LIMIT 1',
  );
  const firstInTopic = db.prepare<[number, string], { id: number | null }>(
    'SELECT min(id) AS id FROM messages WHERE recipient_id = ? AND topic_key = ?',
  );
  const latestInTopic = db.prepare<[number, string], { id: number | null }>(
    'SELECT max(id) AS id FROM messages WHERE recipient_id = ? AND topic_key = ?',
  );
  const topicIn = db.prepare<[number, string], { found: 1 }>('SELECT 1 AS found FROM messages WHERE recipient_id = ? AND topic_key = ? LIMIT 1');
  const namedTopicIn = db.prepare<[number], { found: 1 }>("SELECT 1 AS found FROM messages WHERE recipient_id = ? AND topic <> '' LIMIT 1");
  const firstIn = db.prepare<[number], { id: number | null }>('SELECT min(id) AS id FROM messages WHERE recipient_id = ?');
  const topicsOf = db.prepare<[number], { topic: string; max_id: number }>(
    'SELECT topic, max(id) AS max_id FROM messages WHERE recipient_id = ? GROUP BY topic',
  );
  const topicsOfUser = db.prepare<[number, number], { topic: string; max_id: number }>(
    `SELECT m.topic, max(m.id) AS max_id FROM user_messages_all um JOIN messages m ON m.id = um.message_id
     WHERE um.user_id = ? AND m.recipient_id = ? GROUP BY m.topic`,
  );
  const inTopic = db.prepare<[number, string], MessageRow>('SELECT * FROM messages WHERE recipient_id = ? AND topic_key = ? ORDER BY id');
  const newestInTopic = db.prepare<[number, string, number], MessageRow>(
    'SELECT * FROM messages WHERE recipient_id = ? AND topic_key = ? ORDER BY id DESC LIMIT ?',
  );
  const newestInTopicOfUser = db.prepare<{ user: number; recipient: number; topic: string; limit: number }, MessageRow>(
    `SELECT * FROM (SELECT m.* FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = @user AND m.recipient_id = @recipient AND m.topic_key = @topic ORDER BY m.id DESC LIMIT @limit)
     UNION ALL
     SELECT * FROM (SELECT m.* FROM user_messages_new um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = @user AND m.recipient_id = @recipient AND m.topic_key = @topic ORDER BY m.id DESC LIMIT @limit)
     ORDER BY id DESC LIMIT @limit`,
  );
  const sentBy = db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE sender_id = ? ORDER BY id');
  const setUserFlags = onBothTables<[number, number, number]>(db, 'UPDATE user_messages SET flags = ? WHERE user_id = ? AND message_id = ?');
  const deleteUserMessage = onBothTables<[number, number]>(db, 'DELETE FROM user_messages WHERE user_id = ? AND message_id = ?');
  const updateStatements = new Map<string, Database.Statement>();

  return {
    /**
     * Forgets the statements prepared for narrows (when the server goes quiet, see
     * memory/idle-release.ts); SQLite frees each once JavaScript collects it. Returns how many.
     */
    forgetNarrowStatements: (): number => {
      const count = statements.size;
      statements.clear();
      return count;
    },
    /** Lets go of the message rows kept for fetches (when the server goes quiet). */
    forgetKeptRows: () => keptRows.forget(),
    /** Stores a message and indexes it for search; returns its ID. */
    insert: (message: NewMessage): number => {
      const id = Number(insert.run({ ...message, topic_key: topicKey(message.topic) }).lastInsertRowid);
      indexForSearch.run(id, message.topic, searchableText(message.content));
      return id;
    },
    insertUserMessage: (userId: number, messageId: number, flags: number) => {
      insertUserMessage.run(userId, messageId, flags);
      staged(1);
    },
    /** Gives a new message a row for each of its receivers, with their flags. */
    insertUserMessages: (messageId: number, flagsByUser: ReadonlyMap<number, number>) => {
      let inStatement = 0;
      for (const [userId, flags] of flagsByUser) {
        rowParams.push(userId, messageId, flags);
        if (++inStatement === ROWS_PER_INSERT) {
          insertUserMessages.run(rowParams);
          rowParams.length = 0;
          inStatement = 0;
        }
      }
      for (let i = 0; i < rowParams.length; i += 3) insertUserMessage.run(rowParams[i]!, rowParams[i + 1]!, rowParams[i + 2]!);
      rowParams.length = 0;
      staged(flagsByUser.size);
    },
    moveStagedRows,
    /** The IDs of the last `limit` messages to a recipient sent after `sinceSeconds`, newest first. */
    recentIdsTo: (recipientId: number, sinceSeconds: number, limit: number) => recentIdsTo.all(recipientId, sinceSeconds, limit).map((r) => r.id),
    byId: (id: number) => byId.get(id),
    /** The user's flags on a message, or undefined when it is not in their history. */
    flagsOf: (userId: number, messageId: number) => flagsOf.get(userId, messageId)?.flags,
    /** Everyone who has the message in their history, with their flags. */
    holders: (messageId: number) => holders.all(messageId),
    /** The IDs of everyone who has the message in their history. */
    holderIds: (messageId: number) => holderIds.all(messageId).map((r) => r.user_id),
    /** The user's flags on those of the messages in their history. */
    flagsOfMany: (userId: number, messageIds: readonly number[]) =>
      new Map(flagsOfMany.all(userId, JSON.stringify(messageIds)).map((r) => [r.message_id, r.flags])),
    byIds: (ids: readonly number[]) => byIds.all(JSON.stringify(ids)),
    /**
     * The messages of these IDs, in the order given: each must exist (IDs just read from the
     * database in the same turn). Shared with other requests: not to be changed.
     */
    rowsByIds,
    setFlag: (userId: number, bit: number, messageIds: readonly number[]) =>
      void setFlag(bit, userId, JSON.stringify(messageIds)),
    clearFlag: (userId: number, bit: number, messageIds: readonly number[]) =>
      void clearFlag(bit, userId, JSON.stringify(messageIds)),
    unreadIn: (userId: number, recipientId: number) => unreadIn.all(userId, recipientId).map((r) => r.message_id),
    /** The active users who have read the message and send read receipts. */
    readersOf: (messageId: number) => readers.all(messageId).map((r) => r.user_id),
    unreadFromSender: (userId: number, senderId: number) =>
      unreadFromSender.all(userId, senderId).map((r) => r.message_id),
    unreadInTopic: (userId: number, recipientId: number, topic: string) =>
      unreadInTopic.all(userId, recipientId, topicKey(topic)).map((r) => r.message_id),
    hasTopicRow: (userId: number, recipientId: number, topic: string) =>
      hasTopicRow.get({ user: userId, recipient: recipientId, topic: topicKey(topic) }) !== undefined,
    markAllRead: (userId: number) => markAllRead(userId),
    /** The user's newest `limit` unread messages, by conversation, in no particular order. */
    unreadGroups: (userId: number, limit: number) => {
      const groups = unreadGroups.all({ user: userId });
      return groups.reduce((sum, group) => sum + group[4], 0) <= limit ? groups : unreadGroupsLimited.all({ user: userId, limit });
    },
    starredIds: (userId: number, limit: number) => starredIds.all({ user: userId, limit }).map((r) => r.message_id),
    /** The newest message in the user's history. */
    maxIdOf: (userId: number) => maxIdOf.get({ user: userId })!.id,
    /** The direct conversations among the user's `window` newest direct messages, newest first. */
    recentDirect: (userId: number, window: number) => recentDirect.all({ user: userId, window }),
    /** Every message of a channel topic (matched without regard to case), oldest first. */
    inTopic: (recipientId: number, topic: string) => inTopic.all(recipientId, topicKey(topic)),
    /** The newest messages of a channel topic, newest first; with `userId`, only those in that user's history. */
    newestInTopic: (recipientId: number, topic: string, limit: number, userId?: number) =>
      userId === undefined
        ? newestInTopic.all(recipientId, topicKey(topic), limit)
        : newestInTopicOfUser.all({ user: userId, recipient: recipientId, topic: topicKey(topic), limit }),
    /** Every message the user sent, oldest first. */
    sentBy: (senderId: number) => sentBy.all(senderId),
    /** Changes columns of a message (names from our code, never from a request), keeping search in step. */
    update: (id: number, changes: Partial<Omit<MessageRow, 'id' | 'topic_key'>>) => {
      const values: Record<string, unknown> = { ...changes };
      if (changes.topic !== undefined) values.topic_key = topicKey(changes.topic);
      const columns = Object.keys(values).sort();
      if (columns.length === 0) return;
      const key = columns.join(',');
      let statement = updateStatements.get(key);
      if (!statement) {
        statement = db.prepare(`UPDATE messages SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`);
        updateStatements.set(key, statement);
      }
      statement.run({ ...values, id });
      if (changes.topic !== undefined || changes.content !== undefined) {
        const row = byId.get(id)!;
        deleteFromSearch.run(id);
        indexForSearch.run(id, row.topic, searchableText(row.content));
      }
    },
    setUserFlags: (userId: number, messageId: number, flags: number) => void setUserFlags(flags, userId, messageId),
    deleteUserMessage: (userId: number, messageId: number) => void deleteUserMessage(userId, messageId),
    /** Deletes a message with everyone's copies, reactions, submessages and search entry. */
    delete: (id: number) => {
      deleteFromSearch.run(id);
      deleteMessage.run(id);
    },
    /** The organization's first message sent at or after a time (UNIX seconds). */
    firstSentSince: (seconds: number) => firstSentSince.get(seconds)?.id,
    firstInTopic: (recipientId: number, topic: string) => firstInTopic.get(recipientId, topicKey(topic))?.id ?? undefined,
    latestInTopic: (recipientId: number, topic: string) => latestInTopic.get(recipientId, topicKey(topic))?.id ?? undefined,
    /** Whether any message of the channel is in a topic other than the empty one. */
    hasNamedTopic: (recipientId: number) => namedTopicIn.get(recipientId) !== undefined,
    /** Whether the channel has a message in this topic (in any spelling). */
    hasTopic: (recipientId: number, topic: string) => topicIn.get(recipientId, topicKey(topic)) !== undefined,
    firstIn: (recipientId: number) => firstIn.get(recipientId)?.id ?? undefined,
    /** Each spelling of each topic of a channel, with its newest message. */
    topicsOf: (recipientId: number) => topicsOf.all(recipientId),
    /** The same, among the messages in the user's own history. */
    topicsOfUser: (userId: number, recipientId: number) => topicsOfUser.all(userId, recipientId),
    reactionsOf: (messageIds: readonly number[]) => reactionsOf.all(JSON.stringify(messageIds)),
    /** The user's reaction to a message with this emoji, if they made it. */
    ownReaction: (messageId: number, userId: number, code: string, type: string) => ownReaction.get(messageId, userId, code, type),
    /** The first reaction to a message with this emoji, by anyone. */
    firstReaction: (messageId: number, code: string, type: string) => firstReaction.get(messageId, code, type),
    insertReaction: (reaction: ReactionRow) => void insertReaction.run(reaction),
    deleteReaction: (reaction: ReactionRow) =>
      void deleteReaction.run(reaction.message_id, reaction.user_id, reaction.emoji_code, reaction.reaction_type),
    /** The submessages of these messages, each message's in the order they came. */
    submessagesOf: (messageIds: readonly number[]) => submessagesOf.all(JSON.stringify(messageIds)),
    /** Stores a submessage; returns its ID. */
    insertSubmessage: (submessage: NewSubmessage): number => Number(insertSubmessage.run(submessage).lastInsertRowid),
    /** The content of the message's first submessage of this type, if any. */
    firstSubmessageOfType: (messageId: number, msgType: string) => firstSubmessageOfType.get(messageId, msgType)?.content,
    hasSubmessageFrom: (messageId: number, senderId: number) => hasSubmessageFrom.get(messageId, senderId) !== undefined,
    hasSubmessages: (messageId: number) => hasSubmessages.get(messageId) !== undefined,
    directGroupRecipient: (userIds: string) => directGroupByUsers.get(userIds)?.recipient_id,
    /** Creates the conversation of these users (sorted, comma-separated IDs); returns its recipient ID. */
    insertDirectGroup: (userIds: string): number => {
      const groupId = Number(insertDirectGroup.run(userIds).lastInsertRowid);
      const recipientId = Number(insertRecipient.run(3, groupId).lastInsertRowid);
      setDirectGroupRecipient.run(recipientId, groupId);
      return recipientId;
    },
    recipient: (id: number) => recipient.get(id),
    directGroupMembers: (groupId: number) => directGroupMembers.get(groupId)!.user_ids.split(',').map(Number),
    maxId: () => maxId.get()!.id,
    /** Everyone who has sent or reacted to a message in a topic: its participants, for topic wildcard mentions. */
    topicParticipants: (recipientId: number, topic: string) =>
      topicParticipants.all({ recipient: recipientId, topic: topicKey(topic) }).map((r) => r.user_id),
    prepared: (sql: string, asArrays = false) => prepared(sql, asArrays),
    /**
     * The messages a query of ours selects with MESSAGE_COLUMNS first. They are read as arrays
     * and made into objects here: better-sqlite3 builds an object per row about twice as
     * slowly, which was a third of the time of fetching 100 messages.
     */
    messagesOf: <R extends MessageRow>(sql: string, params: Record<string, unknown>): R[] =>
      (prepared(sql, true).all(params) as unknown[][]).map(messageFromValues) as R[],
  };
}

import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export type Db = Database.Database;

// The bundle (scripts/build.ts) defines this as the text of schema.sql; from source we read the file.
declare const STOA_SCHEMA_SQL: string | undefined;

function schemaSql(): string {
  if (typeof STOA_SCHEMA_SQL === 'string') return STOA_SCHEMA_SQL;
  return readFileSync(path.join(__dirname, '..', 'schema.sql'), 'utf8');
}

/**
 * Upgrades from each older schema version, in order: MIGRATIONS[i] takes a database from
 * version i + 1 to i + 2. schema.sql already contains every step, so a fresh database skips them.
 */
const MIGRATIONS: ReadonlyArray<(db: Db) => void> = [
  // 1 -> 2: muted users.
  (db) =>
    db.exec(`
      CREATE TABLE muted_users (
        user_id           INTEGER NOT NULL REFERENCES users (id),
        muted_user_id     INTEGER NOT NULL REFERENCES users (id),
        date_muted        INTEGER NOT NULL,
        PRIMARY KEY (user_id, muted_user_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX muted_users_by_muted_user ON muted_users (muted_user_id);
    `),
  // 2 -> 3: message IDs are never given twice. IDs deleted before this are not known; the
  // highest in use is the best floor there is.
  (db) =>
    db.exec(`
      CREATE TABLE deleted_messages_high_water (id INTEGER NOT NULL) STRICT;
      INSERT INTO deleted_messages_high_water (id) SELECT coalesce(max(id), 0) FROM messages;
      CREATE TRIGGER messages_raise_high_water AFTER DELETE ON messages
      BEGIN
        UPDATE deleted_messages_high_water SET id = max(id, OLD.id);
      END;
    `),
  // 3 -> 4: uploaded files.
  (db) =>
    db.exec(`
      CREATE TABLE attachments (
        id                INTEGER PRIMARY KEY,
        path_id           TEXT    NOT NULL UNIQUE,
        file_name         TEXT    NOT NULL,
        owner_id          INTEGER NOT NULL REFERENCES users (id),
        size              INTEGER NOT NULL,
        create_time       INTEGER NOT NULL,
        content_type      TEXT,
        width             INTEGER,
        height            INTEGER,
        animated          INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX attachments_by_owner ON attachments (owner_id, id);
      CREATE TABLE attachment_messages (
        attachment_id     INTEGER NOT NULL REFERENCES attachments (id) ON DELETE CASCADE,
        message_id        INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        PRIMARY KEY (attachment_id, message_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX attachment_messages_by_message ON attachment_messages (message_id);
    `),
  // 4 -> 5: submessages (widgets). A new table, so older messages simply have none.
  (db) =>
    db.exec(`
      CREATE TABLE submessages (
        id                INTEGER PRIMARY KEY AUTOINCREMENT,
        message_id        INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        sender_id         INTEGER NOT NULL REFERENCES users (id),
        msg_type          TEXT    NOT NULL,
        content           TEXT    NOT NULL
      ) STRICT;
      CREATE INDEX submessages_by_message ON submessages (message_id, id);
    `),
  // 5 -> 6: custom emoji.
  (db) =>
    db.exec(`
      CREATE TABLE realm_emoji (
        id                INTEGER PRIMARY KEY,
        name              TEXT    NOT NULL,
        file_name         TEXT    NOT NULL,
        author_id         INTEGER REFERENCES users (id),
        is_animated       INTEGER NOT NULL DEFAULT 0,
        deactivated       INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE UNIQUE INDEX realm_emoji_active_name ON realm_emoji (name) WHERE deactivated = 0;
    `),
];
export const SCHEMA_VERSION = MIGRATIONS.length + 1;

/** Thrown when another process (or another server in this one) already holds the database. */
export class DatabaseInUseError extends Error {}

/**
 * Opens (creating if needed) the database file, takes it for this server alone, and brings
 * its schema up to date. `:memory:` gives a private database that lives as long as the server.
 */
export function openDatabase(file: string): Db {
  // No busy timeout: if someone else holds the file we want to know at once, not wait.
  const db = new Database(file, { timeout: 0 });
  try {
    // EXCLUSIVE locking: the first write below takes the file's lock and keeps it until
    // close, so a second server on the same folder fails at start instead of interleaving
    // writes with ours. The OS drops the lock if we die, so there is no stale lock to clean.
    // It also lets WAL run without a shared-memory index, since nobody else reads the file.
    db.pragma('locking_mode = EXCLUSIVE');
    // WAL: readers never wait for the writer, and a commit is one sequential append.
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a committed transaction survives a crash of this process; only a
    // power loss can lose the last few commits. FULL would fsync on every commit.
    db.pragma('synchronous = NORMAL');
    // A checkpoint copies the WAL's pages into the file and syncs both. A message touches a
    // page per receiver, and the same pages again with the next message, so checkpointing
    // every 40 MB instead of every 4 MB copies each hot page once instead of ten times.
    db.pragma('wal_autocheckpoint = 10000');
    db.pragma('foreign_keys = ON');
    // 16 MB page cache (negative means KiB): enough for the hot indexes, small for a small box.
    db.pragma('cache_size = -16000');
    db.pragma('temp_store = MEMORY');
    migrate(db);
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DatabaseInUseError(`${file} is in use by another Stoa server`);
    }
    throw err;
  }
  return db;
}

function migrate(db: Db): void {
  // An IMMEDIATE transaction takes the write lock now, even when there is nothing to migrate.
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version === 0) {
      db.exec(schemaSql());
    } else if (version > SCHEMA_VERSION) {
      throw new Error(`database schema version ${version} is newer than this Stoa (${SCHEMA_VERSION})`);
    } else {
      for (let v = version; v < SCHEMA_VERSION; v++) MIGRATIONS[v - 1](db);
    }
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

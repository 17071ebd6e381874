import Database from 'better-sqlite3';
import { readFileSync, stat } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { flagsForNewWorker } from './memory/young-generation';

export type Db = Database.Database;

/** What the query modules (queries.ts) need of the database: statements to prepare. */
export type Statements = Pick<Db, 'prepare'>;

/**
 * A statement prepared when it is first used, not when its query module is set up: the
 * server has over 200 statements, and preparing all of them cost about 10 ms and 1.2 MB at
 * every start, for statements many servers never run. Once prepared, its run, get, all and
 * iterate are the prepared statement's own, bound to it, so later calls pay nothing extra. A
 * mistake in a statement's SQL shows on its first use, so a test prepares them all (test/database.test.ts).
 */
export class LazyStatement {
  #statement: Database.Statement | undefined;
  constructor(
    readonly database: Db,
    readonly source: string,
  ) {}

  prepared(): Database.Statement {
    if (!this.#statement) {
      const statement = (this.#statement = this.database.prepare(this.source));
      for (const name of ['run', 'get', 'all', 'iterate'] as const) {
        Object.defineProperty(this, name, { value: statement[name].bind(statement) });
      }
    }
    return this.#statement;
  }

  get reader() {
    return this.prepared().reader;
  }
  get readonly() {
    return this.prepared().readonly;
  }
  get busy() {
    return this.prepared().busy;
  }
  run(...params: unknown[]) {
    return this.prepared().run(...params);
  }
  get(...params: unknown[]) {
    return this.prepared().get(...params);
  }
  all(...params: unknown[]) {
    return this.prepared().all(...params);
  }
  iterate(...params: unknown[]) {
    return this.prepared().iterate(...params);
  }
  pluck(toggleState?: boolean) {
    this.prepared().pluck(toggleState);
    return this;
  }
  expand(toggleState?: boolean) {
    this.prepared().expand(toggleState);
    return this;
  }
  raw(toggleState?: boolean) {
    this.prepared().raw(toggleState);
    return this;
  }
  safeIntegers(toggleState?: boolean) {
    this.prepared().safeIntegers(toggleState);
    return this;
  }
  bind(...params: unknown[]) {
    this.prepared().bind(...params);
    return this;
  }
  columns() {
    return this.prepared().columns();
  }
}

/**
 * Statements prepared on first use (see LazyStatement). A test passes `made` to collect every
 * statement and prepare each one; the server does not, as narrow queries make new statements
 * as they go and the list would only grow.
 */
export function lazyStatements(db: Db, made?: LazyStatement[]): Statements {
  return {
    prepare: ((source: string) => {
      const statement = new LazyStatement(db, source);
      made?.push(statement);
      return statement;
    }) as Db['prepare'],
  };
}

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
/** A random (version 4) UUID made by SQLite, for an organization that predates realm.uuid. */
const RANDOM_UUID_SQL = `lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
  substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + abs(random() % 4), 1) ||
  substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))`;

/**
 * A note to oneself is a one-member direct message group, as every conversation is from level
 * 482 on; older Stoas filed notes under the person's personal recipient. Each such recipient
 * keeps its ID and becomes the group's, so links, unread state and clients' caches that name
 * it stay right. Exported for the test that upgrades a database of the older model.
 */
export function notesToSelfAsGroups(db: Db): void {
  db.exec(`
    INSERT INTO direct_message_groups (user_ids, recipient_id)
      SELECT CAST(r.type_id AS TEXT), r.id FROM recipients r
      WHERE r.type = 1 AND EXISTS (SELECT 1 FROM messages m WHERE m.recipient_id = r.id);
    UPDATE recipients SET type = 3, type_id = (SELECT g.id FROM direct_message_groups g WHERE g.recipient_id = recipients.id)
      WHERE type = 1 AND id IN (SELECT recipient_id FROM direct_message_groups);
  `);
}

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
  // 6 -> 7: the organization's defaults for new users' settings, and channel email addresses.
  (db) =>
    db.exec(`
      CREATE TABLE realm_user_settings_defaults (
        name              TEXT    PRIMARY KEY,
        value             TEXT    NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE channel_email_addresses (
        stream_id         INTEGER NOT NULL REFERENCES streams (id),
        creator_id        INTEGER NOT NULL REFERENCES users (id),
        sender_id         INTEGER REFERENCES users (id),
        email_token       TEXT    NOT NULL UNIQUE
      ) STRICT;
      CREATE UNIQUE INDEX channel_email_addresses_by_channel
        ON channel_email_addresses (stream_id, creator_id, coalesce(sender_id, 0));
    `),
  // 7 -> 8: scheduled messages.
  (db) =>
    db.exec(`
      CREATE TABLE scheduled_messages (
        id                    INTEGER PRIMARY KEY,
        sender_id             INTEGER NOT NULL REFERENCES users (id),
        type                  TEXT    NOT NULL CHECK (type IN ('stream', 'private')),
        to_ids                TEXT    NOT NULL,
        topic                 TEXT    NOT NULL,
        content               TEXT    NOT NULL,
        rendered_content      TEXT    NOT NULL,
        sending_client        TEXT    NOT NULL,
        scheduled_timestamp   INTEGER NOT NULL,
        read_by_sender        INTEGER NOT NULL,
        delivered             INTEGER NOT NULL DEFAULT 0,
        delivered_message_id  INTEGER,
        failed                INTEGER NOT NULL DEFAULT 0,
        failure_message       TEXT
      ) STRICT;
      CREATE INDEX scheduled_messages_due ON scheduled_messages (scheduled_timestamp, id) WHERE delivered = 0 AND failed = 0;
      CREATE INDEX scheduled_messages_by_sender ON scheduled_messages (sender_id, scheduled_timestamp) WHERE delivered = 0;
    `),
  // 8 -> 9: outgoing-webhook bots' services. Older bots are generic or incoming, so none has one.
  (db) =>
    db.exec(`
      CREATE TABLE bot_services (
        bot_id            INTEGER PRIMARY KEY REFERENCES users (id),
        name              TEXT    NOT NULL,
        base_url          TEXT    NOT NULL,
        interface         INTEGER NOT NULL CHECK (interface IN (1, 2)),
        token             TEXT    NOT NULL
      ) STRICT;
    `),
  // 9 -> 10: browser sessions. A new table: nobody was signed in from a browser before.
  (db) =>
    db.exec(`
      CREATE TABLE sessions (
        id                INTEGER PRIMARY KEY,
        token_hash        TEXT    NOT NULL UNIQUE,
        user_id           INTEGER NOT NULL REFERENCES users (id),
        csrf_token        TEXT    NOT NULL,
        created_ms        INTEGER NOT NULL,
        last_seen_ms      INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX sessions_by_user ON sessions (user_id);
    `),
  // 10 -> 11: invitations.
  (db) =>
    db.exec(`
      CREATE TABLE invites (
        id                INTEGER PRIMARY KEY,
        key               TEXT    NOT NULL UNIQUE,
        is_multiuse       INTEGER NOT NULL,
        email             TEXT,
        invited_by_user_id INTEGER NOT NULL REFERENCES users (id),
        invited_as        INTEGER NOT NULL,
        include_realm_default_subscriptions INTEGER NOT NULL DEFAULT 0,
        notify_referrer_on_join INTEGER NOT NULL DEFAULT 1,
        invited_at        INTEGER NOT NULL,
        expires_at        INTEGER,
        status            INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX invites_by_inviter ON invites (invited_by_user_id);
      CREATE TABLE invite_channels (
        invite_id         INTEGER NOT NULL REFERENCES invites (id) ON DELETE CASCADE,
        channel_id        INTEGER NOT NULL REFERENCES streams (id),
        PRIMARY KEY (invite_id, channel_id)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE invite_groups (
        invite_id         INTEGER NOT NULL REFERENCES invites (id) ON DELETE CASCADE,
        group_id          INTEGER NOT NULL REFERENCES user_groups (id),
        PRIMARY KEY (invite_id, group_id)
      ) STRICT, WITHOUT ROWID;
    `),
  // 11 -> 12: data exports.
  (db) =>
    db.exec(`
      CREATE TABLE realm_exports (
        id                INTEGER PRIMARY KEY,
        acting_user_id    INTEGER NOT NULL REFERENCES users (id),
        export_type       INTEGER NOT NULL CHECK (export_type IN (1, 2)),
        date_requested    REAL    NOT NULL,
        date_succeeded    REAL,
        date_failed       REAL,
        date_deleted      REAL,
        file_path         TEXT,
        size              INTEGER,
        sha256            TEXT
      ) STRICT;
    `),
  // 12 -> 13: the special permission to change other people's email addresses.
  (db) => db.exec('ALTER TABLE users ADD COLUMN can_change_user_emails INTEGER NOT NULL DEFAULT 0'),
  // 13 -> 14: reminders, kept with the scheduled messages.
  (db) =>
    db.exec(`
      ALTER TABLE scheduled_messages ADD COLUMN reminder_target_message_id INTEGER;
      ALTER TABLE scheduled_messages ADD COLUMN reminder_note TEXT;
    `),
  // 14 -> 15: navigation views.
  (db) =>
    db.exec(`
      CREATE TABLE navigation_views (
        id                INTEGER PRIMARY KEY,
        user_id           INTEGER NOT NULL REFERENCES users (id),
        -- The view's address (its URL hash without '#'), which names it.
        fragment          TEXT    NOT NULL,
        is_pinned         INTEGER NOT NULL,
        -- NULL for a built-in view (Inbox, Recent, ...), whose name is the client's.
        name              TEXT,
        UNIQUE (user_id, fragment)
      ) STRICT;
    `),
  // 15 -> 16: allowed email domains.
  (db) =>
    db.exec(`
      CREATE TABLE realm_domains (
        id                INTEGER PRIMARY KEY,
        domain            TEXT    NOT NULL UNIQUE,
        allow_subdomains  INTEGER NOT NULL
      ) STRICT;
    `),
  // 16 -> 17: an invitation's own welcome message.
  (db) => db.exec('ALTER TABLE invites ADD COLUMN welcome_message_custom_text TEXT'),
  // 17 -> 18: logged-in devices.
  (db) =>
    db.exec(`
      CREATE TABLE client_devices (
        id                INTEGER PRIMARY KEY,
        user_id           INTEGER NOT NULL REFERENCES users (id),
        push_key_id       INTEGER,
        push_token_id     TEXT,
        pending_push_token_id TEXT,
        -- UNIX seconds.
        push_token_last_updated_timestamp INTEGER,
        push_registration_error_code TEXT
      ) STRICT;
      CREATE INDEX client_devices_by_user ON client_devices (user_id);
    `),
  // 18 -> 19: channel folders get their place in the organization's order (by ID until now),
  // and channels the permissions to resolve topics and to start new ones, which begin as
  // Zulip's defaults: nobody beyond the organization's own setting, and everyone.
  (db) =>
    db.exec(`
      ALTER TABLE channel_folders ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
      UPDATE channel_folders SET position = (SELECT count(*) FROM channel_folders f WHERE f.id < channel_folders.id);
      ALTER TABLE streams ADD COLUMN can_resolve_topics_group_id INTEGER;
      ALTER TABLE streams ADD COLUMN can_create_topic_group_id INTEGER;
      UPDATE streams SET
        can_resolve_topics_group_id = (SELECT id FROM user_groups WHERE name = 'role:nobody' AND is_system_group = 1),
        can_create_topic_group_id = (SELECT id FROM user_groups WHERE name = 'role:everyone' AND is_system_group = 1);
    `),
  // 19 -> 20: Zulip 12's names and the organization's UUID. The Recent conversations home view
  // is 'recent' since feature level 454, the GIF rating realm_gif_rating_policy since 453.
  (db) =>
    db.exec(`
      UPDATE user_settings SET value = '"recent"' WHERE name = 'web_home_view' AND value = '"recent_topics"';
      UPDATE realm_user_settings_defaults SET value = '"recent"' WHERE name = 'web_home_view' AND value = '"recent_topics"';
      UPDATE realm_settings SET key = 'realm_gif_rating_policy' WHERE key = 'realm_giphy_rating';
      ALTER TABLE realm ADD COLUMN uuid TEXT NOT NULL DEFAULT '';
      UPDATE realm SET uuid = ${RANDOM_UUID_SQL};
    `),
  // 20 -> 21: drafts' and scheduled messages' IDs are never given twice (AUTOINCREMENT, which
  // SQLite adds only by rebuilding the table). Copying the rows sets each counter to the
  // highest ID in use; IDs deleted above it before this are not known.
  (db) => {
    for (const table of ['drafts', 'scheduled_messages']) {
      const { sql } = db.prepare<[string], { sql: string }>("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table)!;
      const indexes = db
        .prepare<[string], { sql: string }>("SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
        .all(table);
      db.exec(`
        ALTER TABLE ${table} RENAME TO ${table}_before_autoincrement;
        ${sql.replace(/\bid(\s+)INTEGER PRIMARY KEY(?! AUTOINCREMENT)/, 'id$1INTEGER PRIMARY KEY AUTOINCREMENT')};
        INSERT INTO ${table} SELECT * FROM ${table}_before_autoincrement;
        DROP TABLE ${table}_before_autoincrement;
        ${indexes.map((index) => `${index.sql};`).join('\n')}
      `);
    }
  },
  // 21 -> 22: bots' key-value storage. A new table: no bot stored anything before.
  (db) =>
    db.exec(`
      CREATE TABLE bot_storage (
        bot_id            INTEGER NOT NULL REFERENCES users (id),
        key               TEXT    NOT NULL,
        value             TEXT    NOT NULL,
        PRIMARY KEY (bot_id, key)
      ) STRICT;
    `),
  // 22 -> 23: default channel groups. New tables: there were none before.
  (db) =>
    db.exec(`
      CREATE TABLE default_stream_groups (
        id                INTEGER PRIMARY KEY AUTOINCREMENT,
        name              TEXT    NOT NULL UNIQUE,
        description       TEXT    NOT NULL
      ) STRICT;
      CREATE TABLE default_stream_group_channels (
        group_id          INTEGER NOT NULL REFERENCES default_stream_groups (id) ON DELETE CASCADE,
        stream_id         INTEGER NOT NULL REFERENCES streams (id),
        PRIMARY KEY (group_id, stream_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX default_stream_group_channels_by_channel ON default_stream_group_channels (stream_id);
    `),
  // 23 -> 24: onboarding steps each user has seen. A new table: nobody had seen any.
  (db) =>
    db.exec(`
      CREATE TABLE onboarding_steps_seen (
        user_id           INTEGER NOT NULL REFERENCES users (id),
        step              TEXT    NOT NULL,
        timestamp         INTEGER NOT NULL,
        PRIMARY KEY (user_id, step)
      ) STRICT, WITHOUT ROWID;
    `),
  // 24 -> 25: imported stub accounts, and accounts whose date_joined waits for their first
  // login. Nobody was either before: every existing account keeps the date it has.
  (db) =>
    db.exec(`
      ALTER TABLE users ADD COLUMN is_imported_stub INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE users ADD COLUMN joins_at_first_login INTEGER NOT NULL DEFAULT 0;
    `),
  // 25 -> 26: custom profile fields used to match people in suggestions. None was before.
  (db) => db.exec('ALTER TABLE custom_profile_fields ADD COLUMN use_for_user_matching INTEGER NOT NULL DEFAULT 0'),
  // 26 -> 27: the settings each user changed themselves. Earlier changes were not recorded,
  // so nobody counts as having edited anything yet.
  (db) =>
    db.exec(`
      CREATE TABLE user_settings_edited (
        user_id           INTEGER NOT NULL REFERENCES users (id),
        name              TEXT    NOT NULL,
        PRIMARY KEY (user_id, name)
      ) STRICT, WITHOUT ROWID;
    `),
  // 27 -> 28: push registration by logged-in device (level 468). The level-420 registrations
  // by push account are dropped: their keys were of the older cryptosystem, so the apps
  // register again, by device, when they next start.
  (db) =>
    db.exec(`
      DROP TABLE push_devices;
      ALTER TABLE client_devices ADD COLUMN push_key TEXT;
      ALTER TABLE client_devices ADD COLUMN push_token_kind TEXT CHECK (push_token_kind IN ('fcm', 'apns'));
      ALTER TABLE client_devices ADD COLUMN pending_bouncer_public_key TEXT;
      ALTER TABLE client_devices ADD COLUMN pending_encrypted_push_registration TEXT;
    `),
  // 28 -> 29: linkifiers' reverse-linkification fields (Zulip 12, levels 471 and 478). Existing
  // linkifiers have none: no example, no reverse template, no alternative URL templates.
  (db) =>
    db.exec(`
      ALTER TABLE realm_linkifiers ADD COLUMN example_input TEXT;
      ALTER TABLE realm_linkifiers ADD COLUMN reverse_template TEXT;
      ALTER TABLE realm_linkifiers ADD COLUMN alternative_url_templates TEXT NOT NULL DEFAULT '[]';
    `),
  // 29 -> 30: messages by the time they were sent, for GET /messages' date anchors (level 445).
  (db) => db.exec('CREATE INDEX messages_by_date_sent ON messages (date_sent, id);'),
  // 30 -> 31: the messages whose push notification is still showing (flag 512), found when a
  // user marks everything read, to withdraw them (level 413's "remove" notifications).
  (db) => db.exec('CREATE INDEX user_messages_push_showing ON user_messages (user_id, message_id) WHERE (flags & 512) <> 0;'),
  // 31 -> 32: email: links that act without a login (password reset, email change,
  // unsubscribe) and missed-message emails waiting for their batch.
  (db) =>
    db.exec(`
      CREATE TABLE email_links (
        key               TEXT    PRIMARY KEY,
        kind              TEXT    NOT NULL CHECK (kind IN ('password_reset', 'email_change', 'unsubscribe')),
        user_id           INTEGER NOT NULL REFERENCES users (id),
        new_email         TEXT,
        created_ms        INTEGER NOT NULL,
        expires_ms        INTEGER,
        used_ms           INTEGER
      ) STRICT;
      CREATE INDEX email_links_by_user ON email_links (user_id, kind);

      CREATE TABLE email_notifications_pending (
        user_id            INTEGER NOT NULL REFERENCES users (id),
        message_id         INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        trigger            TEXT    NOT NULL,
        mentioned_group_id INTEGER,
        due_ms             INTEGER NOT NULL,
        PRIMARY KEY (user_id, message_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX email_notifications_by_due ON email_notifications_pending (due_ms);
    `),
  // 32 -> 33: a user's direct messages (flag 256), read at every /register for the recent
  // conversations, which otherwise walked the user's whole history.
  (db) => db.exec('CREATE INDEX user_messages_private ON user_messages (user_id, message_id) WHERE (flags & 256) <> 0;'),
  // 33 -> 34: notes to oneself become one-member direct message groups (level 482).
  notesToSelfAsGroups,
  // 34 -> 35: whether the organization's owners may read all its private content (Zulip's
  // owner_full_content_access, level 438), set only by `stoa owner-full-content-access`. No
  // organization had it. With it, owners may ask for full exports without consent (type 3,
  // level 449), which the exports table's check now admits (SQLite changes a check by copying).
  (db) =>
    db.exec(`
      ALTER TABLE realm ADD COLUMN owner_full_content_access INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE realm_exports RENAME TO realm_exports_old;
      CREATE TABLE realm_exports (
        id                INTEGER PRIMARY KEY,
        acting_user_id    INTEGER NOT NULL REFERENCES users (id),
        export_type       INTEGER NOT NULL CHECK (export_type IN (1, 2, 3)),
        date_requested    REAL    NOT NULL,
        date_succeeded    REAL,
        date_failed       REAL,
        date_deleted      REAL,
        file_path         TEXT,
        size              INTEGER,
        sha256            TEXT
      ) STRICT;
      INSERT INTO realm_exports SELECT id, acting_user_id, export_type, date_requested, date_succeeded,
        date_failed, date_deleted, file_path, size, sha256 FROM realm_exports_old;
      DROP TABLE realm_exports_old;
    `),
  // 35 -> 36: a member's own bots by their owner, read at every /register (a scan of all users without it).
  (db) => db.exec('CREATE INDEX users_by_bot_owner ON users (bot_owner_id) WHERE bot_owner_id IS NOT NULL;'),
  // 36 -> 37: a new message's unread rows wait in a small index (user_messages_recent) and join
  // the unread index in batches (lib/messages/queries.ts), so that a message to many people
  // does not dirty a page of the unread index per receiver. Existing rows stay where they are.
  (db) =>
    db.exec(`
      ALTER TABLE user_messages ADD COLUMN recent INTEGER;
      DROP INDEX user_messages_unread;
      CREATE INDEX user_messages_unread ON user_messages (user_id, message_id) WHERE (flags & 1) = 0 AND recent IS NULL;
      CREATE INDEX user_messages_recent ON user_messages (user_id, message_id) WHERE recent IS NOT NULL;
    `),
  // 37 -> 38: new rows of user_messages wait in a table of their own, keyed by message, and move
  // into user_messages in batches (schema.sql). The rows waiting in user_messages_recent join
  // the unread index now; the column stays, always NULL (dropping it rewrites every row).
  (db) =>
    db.exec(`
      UPDATE user_messages INDEXED BY user_messages_recent SET recent = NULL WHERE recent IS NOT NULL;
      DROP INDEX user_messages_recent;
      CREATE TABLE user_messages_new (
        message_id        INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        user_id           INTEGER NOT NULL REFERENCES users (id),
        flags             INTEGER NOT NULL,
        PRIMARY KEY (message_id, user_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX user_messages_new_by_user ON user_messages_new (user_id, message_id);
      CREATE VIEW user_messages_all AS
        SELECT user_id, message_id, flags FROM user_messages
        UNION ALL
        SELECT user_id, message_id, flags FROM user_messages_new;
    `),
  // 38 -> 39: user_messages_new without foreign keys, a trigger in place of the cascade
  // (schema.sql). Its rows (at most a batch, 16,000 at version 38) are copied through a table in memory.
  (db) =>
    db.exec(`
      CREATE TEMP TABLE waiting_rows AS SELECT message_id, user_id, flags FROM user_messages_new;
      DROP VIEW user_messages_all;
      DROP TABLE user_messages_new;
      CREATE TABLE user_messages_new (
        message_id        INTEGER NOT NULL,
        user_id           INTEGER NOT NULL,
        flags             INTEGER NOT NULL,
        PRIMARY KEY (message_id, user_id)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO user_messages_new (message_id, user_id, flags) SELECT message_id, user_id, flags FROM temp.waiting_rows;
      DROP TABLE temp.waiting_rows;
      CREATE INDEX user_messages_new_by_user ON user_messages_new (user_id, message_id);
      CREATE TRIGGER messages_delete_waiting_rows AFTER DELETE ON messages
      BEGIN
        DELETE FROM user_messages_new WHERE message_id = OLD.id;
      END;
      CREATE VIEW user_messages_all AS
        SELECT user_id, message_id, flags FROM user_messages
        UNION ALL
        SELECT user_id, message_id, flags FROM user_messages_new;
    `),
  // 39 -> 40: the unread index carries each row's flags (and `recent`, named by its queries), so
  // that the unread state read at every /register (lib/messages/queries.ts) comes from the index
  // alone, not from a lookup of each unread row in user_messages (scattered over the pages of
  // the person's whole history).
  (db) =>
    db.exec(`
      DROP INDEX user_messages_unread;
      CREATE INDEX user_messages_unread ON user_messages (user_id, message_id, flags, recent) WHERE (flags & 1) = 0 AND recent IS NULL;
    `),
];
export const SCHEMA_VERSION = MIGRATIONS.length + 1;

/** Thrown when another process (or another server in this one) already holds the database. */
export class DatabaseInUseError extends Error {}

/** How often the checkpointer copies committed pages from the WAL into the database file. */
const CHECKPOINT_EVERY_MS = 500;

/**
 * Opens (creating if needed) the database file, takes it for this server alone, and brings
 * its schema up to date. `:memory:` gives a private database that lives as long as the server.
 */
export function openDatabase(file: string): Db {
  const memory = file === ':memory:';
  // One server per database: a lock on a small file beside it, held by a connection of its
  // own in EXCLUSIVE locking mode from its first write until close. A second server on the
  // same folder fails at start instead of interleaving writes with ours, and the OS drops the
  // lock if we die, so there is no stale lock to clean. (The database itself cannot be held
  // this way: the checkpointer below needs a connection of its own to it.)
  const lock = memory ? undefined : takeLock(file);
  // No busy timeout: if someone else holds the file we want to know at once, not wait.
  const db = new Database(file, { timeout: 0 });
  try {
    // WAL: readers never wait for the writer, and a commit is one sequential append.
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a committed transaction survives a crash of this process; only a
    // power loss can lose the last few commits. FULL would fsync on every commit.
    db.pragma('synchronous = NORMAL');
    // A checkpoint copies the WAL's pages into the file and syncs both. A message touches a
    // page per receiver, and the same pages again with the next message, so checkpointing
    // every 40 MB instead of every 4 MB copies each hot page once instead of ten times.
    // Under sustained writes a worker thread checkpoints long before that (startCheckpointer):
    // a checkpoint can take hundreds of milliseconds on a slow disk, and on this thread every
    // request would wait for it.
    db.pragma('wal_autocheckpoint = 10000');
    db.pragma('foreign_keys = ON');
    // 16 MB page cache (negative means KiB): enough for the hot indexes, small for a small box.
    db.pragma('cache_size = -16000');
    db.pragma('temp_store = MEMORY');
    migrate(db);
  } catch (err) {
    db.close();
    lock?.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DatabaseInUseError(`${file} is in use by another Stoa server`);
    }
    throw err;
  }
  if (lock) {
    // Released with the database, whoever closes it.
    const close = db.close.bind(db);
    db.close = () => {
      close();
      lock.close();
      return db;
    };
  }
  return db;
}

function takeLock(file: string): Db {
  const lock = new Database(`${file}-lock`, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.pragma('journal_mode = MEMORY');
    // A write takes the EXCLUSIVE lock, kept until close in this locking mode.
    lock.pragma('user_version = 1');
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DatabaseInUseError(`${file} is in use by another Stoa server`);
    }
    throw err;
  }
  return lock;
}

/**
 * The checkpointer's code, run in a worker thread with its own connection to the database:
 * every CHECKPOINT_EVERY_MS, a PASSIVE checkpoint, which copies what is committed without
 * waiting for (or blocking) the server's writes. Durability is the same as a checkpoint
 * made by the server's own connection, with the same synchronous setting.
 */
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
for (const flag of workerData.v8Flags) require('node:v8').setFlagsFromString(flag);
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 1000 });
db.pragma('synchronous = NORMAL');
db.pragma('wal_autocheckpoint = 0');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) });
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage({ closed: true });
});
`;

/** Writes must go on for this many consecutive seconds before the checkpointer starts... */
const BUSY_SECONDS_TO_START = 2;
/** ...and stop for this many before it stops, handing checkpoints back to the server's own connection. */
const QUIET_SECONDS_TO_STOP = 30;

/**
 * Checkpoints the database file in a worker thread while writes keep coming. A worker holds
 * a JavaScript engine of its own (about 10 MB), so it runs only under sustained writes: the
 * write-ahead log's modification time, looked at once a second, tells when. Otherwise the
 * server's connection checkpoints by itself (wal_autocheckpoint), rarely, as writes are few.
 * The returned function stops it, which must happen before the server's own connection
 * closes, so that the last close checkpoints what is left and removes the WAL.
 */
export function startCheckpointer(file: string, report: (line: string) => void): () => Promise<void> {
  let worker: Worker | undefined;
  let stopping: Promise<void> | undefined;
  let lastModified = 0;
  let busySeconds = 0;
  let quietSeconds = 0;

  const startWorker = () => {
    const started = new Worker(CHECKPOINTER, {
      eval: true,
      workerData: { file, driver: require.resolve('better-sqlite3'), everyMs: CHECKPOINT_EVERY_MS, v8Flags: flagsForNewWorker() },
    });
    started.unref();
    started.on('message', (message: { error?: string; closed?: boolean }) => {
      if (message.error) report(`Checkpoint failed: ${message.error}`);
      if (message.closed) void started.terminate();
    });
    started.on('error', (err) => report(`Checkpointer stopped: ${err.message}`));
    started.once('exit', () => {
      if (worker === started) worker = undefined;
    });
    worker = started;
  };
  const stopWorker = (): Promise<void> => {
    const running = worker;
    if (!running) return Promise.resolve();
    worker = undefined;
    return new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.postMessage('stop');
    });
  };

  const watch = setInterval(() => {
    stat(`${file}-wal`, (err, stats) => {
      if (stopping) return;
      const modified = err ? 0 : stats.mtimeMs;
      const busy = modified !== lastModified;
      lastModified = modified;
      busySeconds = busy ? busySeconds + 1 : 0;
      quietSeconds = busy ? 0 : quietSeconds + 1;
      if (!worker && busySeconds >= BUSY_SECONDS_TO_START) startWorker();
      if (worker && quietSeconds >= QUIET_SECONDS_TO_STOP) void stopWorker();
    });
  }, 1000).unref();

  return () => {
    clearInterval(watch);
    stopping ??= stopWorker();
    return stopping;
  };
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

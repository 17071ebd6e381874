import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { systemClock } from '../lib/clock';
import { parseConfig, type Config } from '../lib/config';
import { lazyStatements, openDatabase, SCHEMA_VERSION, type Db, type LazyStatement } from '../lib/db';
import { createStoa } from '../lib/stoa';
import { createChannel } from './support/channels';
import { sendMessage } from './support/messages';
import { UNDO_RECENT_UNREAD, UNDO_STAGED_ROWS } from './support/schema-undo';
import { TestServer, tempDir } from './support/server';

/** Every table, index and trigger with its SQL, for comparing two databases' schemas. */
function schemaOf(db: Db): Array<{ type: string; name: string; sql: string | null }> {
  const rows = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();
  // Comments and whitespace differ between schema.sql and the migrations; the meaning may not.
  return (rows as Array<{ type: string; name: string; sql: string | null }>).map((row) => ({
    ...row,
    sql: row.sql?.replace(/--[^\n]*/g, '').replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').replace(/ ,/g, ',') ?? null,
  }));
}

describe('the database', () => {
  test('a database of the first schema version, migrated, has the schema of a fresh one', () => {
    const fresh = openDatabase(':memory:');
    const file = path.join(tempDir(), 'stoa.db');
    const old = openDatabase(file);
    // Version 1's drafts gave a deleted draft's ID again.
    const { sql: drafts } = old.prepare("SELECT sql FROM sqlite_master WHERE name = 'drafts'").get() as { sql: string };
    old.exec(`
      DROP TABLE drafts;
      ${drafts.replace(' AUTOINCREMENT', '')};
      CREATE INDEX drafts_by_user ON drafts (user_id, last_edit_time);
    `);
    // What version 1 lacked, taken away again: the migrations must put back exactly this.
    old.exec(`
      DROP TABLE attachment_messages;
      DROP TABLE attachments;
      DROP TABLE muted_users;
      DROP TRIGGER messages_raise_high_water;
      DROP TABLE deleted_messages_high_water;
      DROP TABLE submessages;
      DROP TABLE realm_emoji;
      DROP TABLE realm_user_settings_defaults;
      DROP TABLE channel_email_addresses;
      DROP TABLE scheduled_messages;
      DROP TABLE bot_services;
      DROP TABLE sessions;
      DROP TABLE invite_groups;
      DROP TABLE invite_channels;
      DROP TABLE invites;
      DROP TABLE realm_exports;
      DROP TABLE navigation_views;
      DROP TABLE realm_domains;
      DROP TABLE client_devices;
      DROP TABLE bot_storage;
      DROP TABLE default_stream_group_channels;
      DROP TABLE default_stream_groups;
      DROP TABLE onboarding_steps_seen;
      DROP TABLE user_settings_edited;
      ALTER TABLE users DROP COLUMN can_change_user_emails;
      ALTER TABLE users DROP COLUMN is_imported_stub;
      ALTER TABLE users DROP COLUMN joins_at_first_login;
      ALTER TABLE custom_profile_fields DROP COLUMN use_for_user_matching;
      ALTER TABLE channel_folders DROP COLUMN position;
      ALTER TABLE streams DROP COLUMN can_resolve_topics_group_id;
      ALTER TABLE streams DROP COLUMN can_create_topic_group_id;
      ALTER TABLE realm DROP COLUMN uuid;
      ALTER TABLE realm DROP COLUMN owner_full_content_access;
      -- Version 1 had level 420's push registrations by push account, which version 28 dropped.
      CREATE TABLE push_devices (
        id                           INTEGER PRIMARY KEY,
        user_id                      INTEGER NOT NULL REFERENCES users (id),
        push_account_id              INTEGER NOT NULL,
        token_kind                   TEXT    NOT NULL CHECK (token_kind IN ('fcm', 'apns')),
        push_public_key              TEXT    NOT NULL,
        bouncer_public_key           TEXT    NOT NULL,
        encrypted_push_registration  TEXT    NOT NULL,
        relay_device_id              INTEGER,
        error_code                   TEXT,
        UNIQUE (user_id, push_account_id)
      ) STRICT;
      ALTER TABLE realm_linkifiers DROP COLUMN example_input;
      ALTER TABLE realm_linkifiers DROP COLUMN reverse_template;
      ALTER TABLE realm_linkifiers DROP COLUMN alternative_url_templates;
      DROP INDEX messages_by_date_sent;
      DROP INDEX user_messages_push_showing;
      DROP TABLE email_links;
      DROP TABLE email_notifications_pending;
      DROP INDEX user_messages_private;
      DROP INDEX users_by_bot_owner;
      ${UNDO_STAGED_ROWS};
      ${UNDO_RECENT_UNREAD};
      PRAGMA user_version = 1;
    `);
    old.close();
    const migrated = openDatabase(file);
    assert.equal(migrated.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.deepEqual(schemaOf(migrated), schemaOf(fresh));
    migrated.close();
    fresh.close();
  });

  test('every statement of the query modules prepares against the schema (they are prepared on first use)', () => {
    const db = openDatabase(':memory:');
    const made: LazyStatement[] = [];
    createStoa(db, parseConfig(['--data', ':memory:'], {}) as Config, systemClock, {}, lazyStatements(db, made));
    assert.ok(made.length > 200, `${made.length} statements`);
    for (const statement of made) assert.doesNotThrow(() => statement.prepared(), statement.source);
    db.close();
  });

  test('never gives a message ID twice, also after the newest message is deleted and the server restarts', async () => {
    const server = await TestServer.start();
    try {
      const { id: channelId } = await createChannel(server.owner);
      const send = () => sendMessage(server.owner, { type: 'stream', to: channelId, topic: 'ids', content: 'x' });
      const first = await send();
      const newest = await send();
      assert.equal((await server.owner.delete(`/messages/${newest}`)).status, 200);
      await server.restart();
      const next = await send();
      assert.ok(next > newest, `${next} was given after ${newest} was deleted`);
      assert.ok(first < newest);
    } finally {
      await server.close();
    }
  });

  test('never gives a draft or scheduled-message ID twice, also after the newest is deleted and the server restarts', async () => {
    const server = await TestServer.start();
    try {
      const { id: channelId } = await createChannel(server.owner);
      const draft = { type: 'stream', to: [channelId], topic: 'ids', content: 'x', timestamp: 1 };
      const newDraft = async () => (await server.owner.post('/drafts', { drafts: [draft] })).body.ids[0] as number;
      const scheduled = { type: 'stream', to: channelId, topic: 'ids', content: 'x', scheduled_delivery_timestamp: 4_000_000_000 };
      const newScheduled = async () => (await server.owner.post('/scheduled_messages', scheduled)).body.scheduled_message_id as number;
      const [draftId, scheduledId] = [await newDraft(), await newScheduled()];
      assert.equal((await server.owner.delete(`/drafts/${draftId}`)).status, 200);
      assert.equal((await server.owner.delete(`/scheduled_messages/${scheduledId}`)).status, 200);
      await server.restart();
      const [nextDraft, nextScheduled] = [await newDraft(), await newScheduled()];
      assert.ok(nextDraft > draftId, `draft ${nextDraft} was given after ${draftId} was deleted`);
      assert.ok(nextScheduled > scheduledId, `scheduled message ${nextScheduled} was given after ${scheduledId} was deleted`);
    } finally {
      await server.close();
    }
  });
});

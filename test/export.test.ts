import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import * as tar from 'tar';
import {
  DATE_FIELDS,
  EXPORT_FILES,
  FILE_FOLDERS,
  FOREIGN_KEYS,
  OPTIONAL_REALM_TABLES,
  REALM_GROUP_SETTINGS,
  realmField,
  REQUIRED_REALM_TABLES,
  STOA_EXTRAS_FILE,
  STREAM_GROUP_SETTINGS,
  USER_GROUP_SETTINGS,
  ZULIP_TARGET_VERSION,
  SUBSCRIPTION_SETTINGS,
  ZULIP_FIELDS,
  zulipFlagNames,
} from '../lib/export/zulip-format';
import { USER_SETTINGS } from '../lib/users/settings';
import { runOwnerFullContentAccessCommand } from '../lib/realm/reactivate-cli';
import type { Client } from './support/client';
import { ok, png } from './support/fixtures';
import { listen } from './support/events';
import { spawnStoa, tempDir, TestServer } from './support/server';

type Row = Record<string, any>;

/** An unpacked export: the one folder inside the tarball, and its JSON files read. */
interface Unpacked {
  root: string;
  realm: Row;
  messages: Row[];
  userMessages: Row[];
  attachments: Row[];
  records: Record<string, Row[]>;
}

async function unpack(tarball: string): Promise<Unpacked> {
  const into = tempDir('stoa-export-unpacked-');
  await tar.x({ file: tarball, cwd: into });
  const folders = readdirSync(into);
  assert.equal(folders.length, 1, `one folder in the tarball, not ${folders.join(', ')}`);
  assert.match(folders[0], /^zulip-export-[0-9a-f]+$/);
  const root = path.join(into, folders[0]);
  const json = (name: string) => JSON.parse(readFileSync(path.join(root, name), 'utf8'));
  const messages: Row[] = [];
  const userMessages: Row[] = [];
  for (let n = 1; existsSync(path.join(root, EXPORT_FILES.messages(n))); n++) {
    const file = json(EXPORT_FILES.messages(n));
    assert.deepEqual(Object.keys(file).sort(), ['zerver_message', 'zerver_usermessage']);
    messages.push(...file.zerver_message);
    userMessages.push(...file.zerver_usermessage);
  }
  const records: Record<string, Row[]> = {};
  for (const folder of FILE_FOLDERS) records[folder] = json(path.join(folder, 'records.json'));
  return { root, realm: json(EXPORT_FILES.realm), messages, userMessages, attachments: json(EXPORT_FILES.attachment).zerver_attachment, records };
}

/** What the organization built below holds, by name, for checking the export. */
interface Fixture {
  ownerId: number;
  admin: Client & { userId: number };
  moderator: Client & { userId: number };
  member: Client & { userId: number };
  guest: Client & { userId: number };
  botId: number;
  /** An outgoing-webhook bot of the owner's. */
  outgoingBotId: number;
  publicStream: number;
  privateStream: number;
  starredMessage: number;
  editedMessage: number;
  movedMessage: number;
  uploadMessage: number;
  uploadPath: string;
  dmMessage: number;
  groupDmMessage: number;
  privateMessage: number;
  emojiId: number;
  fieldIds: { text: number; users: number };
  groupId: number;
}

/** An organization with one of everything, made through the API. */
async function buildOrganization(server: TestServer): Promise<Fixture> {
  const owner = server.owner;
  const admin = await server.createUser('Ada Admin');
  const moderator = await server.createUser('Mo Moderator');
  const member = await server.createUser('Mel Member');
  const guest = await server.createUser('Gus Guest');
  ok(await owner.patch(`/users/${admin.userId}`, { role: 200 }), 'make admin');
  ok(await owner.patch(`/users/${moderator.userId}`, { role: 300 }), 'make moderator');
  ok(await owner.patch(`/users/${guest.userId}`, { role: 600 }), 'make guest');
  const bot = ok(await member.post('/bots', { full_name: 'Helper Bot', short_name: 'helper' }), 'bot');

  // Private data: only the owner and the member agree to it leaving with an export.
  ok(await owner.patch('/settings', { allow_private_data_export: true, twenty_four_hour_time: true }), 'consent');
  ok(await member.patch('/settings', { allow_private_data_export: true }), 'consent');
  // The guest hides their address even from administrators.
  ok(await guest.patch('/settings', { email_address_visibility: 4 }), 'hide email');

  ok(
    await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'general', description: 'Everything **else**' }],
      principals: [owner.credentials!.email, admin.credentials!.email, moderator.credentials!.email, member.credentials!.email, guest.credentials!.email],
    }),
    'public channel',
  );
  ok(
    await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'secret', description: 'Owners and members only' }],
      principals: [owner.credentials!.email, member.credentials!.email],
      invite_only: true,
    }),
    'private channel',
  );
  const streams = ok(await owner.get('/streams'), 'streams').streams as Row[];
  const publicStream = streams.find((s) => s.name === 'general')!.stream_id;
  const privateStream = streams.find((s) => s.name === 'secret')!.stream_id;
  ok(
    await member.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: publicStream, property: 'color', value: '#abcdef' }],
    }),
    'color',
  );

  const send = async (client: Client, params: Row) => ok(await client.post('/messages', params), 'send').id as number;
  const starredMessage = await send(owner, { type: 'stream', to: publicStream, topic: 'greetings', content: 'Hello @**Mel Member**' });
  const editedMessage = await send(member, { type: 'stream', to: publicStream, topic: 'greetings', content: 'first draft' });
  ok(await member.patch(`/messages/${editedMessage}`, { content: 'second draft' }), 'edit');
  const movedMessage = await send(member, { type: 'stream', to: publicStream, topic: 'old place', content: 'moving on' });
  ok(await member.patch(`/messages/${movedMessage}`, { topic: 'new place', propagate_mode: 'change_one' }), 'move');
  const privateMessage = await send(owner, { type: 'stream', to: privateStream, topic: 'plans', content: 'quiet plans' });

  const uploaded = await member.upload('/user_uploads', [{ name: 'notes.txt', bytes: 'some notes', type: 'text/plain' }]);
  const uploadUrl = ok(uploaded, 'upload').url as string;
  const uploadMessage = await send(member, { type: 'stream', to: publicStream, topic: 'files', content: `[notes.txt](${uploadUrl})` });
  const uploadPath = uploadUrl.replace(/^\/user_uploads\//, '');

  const dmMessage = await send(member, { type: 'direct', to: [owner.credentials!.email], content: 'a word in private' });
  const groupDmMessage = await send(member, { type: 'direct', to: [owner.credentials!.email, admin.credentials!.email], content: 'the three of us' });

  ok(await owner.post('/messages/flags', { messages: [starredMessage], op: 'add', flag: 'starred' }), 'star');
  ok(await member.post('/messages/flags', { messages: [starredMessage], op: 'add', flag: 'read' }), 'read');

  ok(await owner.upload('/realm/emoji/party_parrot', [{ name: 'parrot.png', bytes: await png({ r: 250, g: 10, b: 10 }), type: 'image/png' }]), 'emoji');
  const emoji = Object.values(ok(await owner.get('/realm/emoji'), 'emoji list').emoji as Record<string, Row>).find((e) => e.name === 'party_parrot')!;
  ok(await member.post(`/messages/${starredMessage}/reactions`, { emoji_name: 'party_parrot' }), 'custom reaction');
  ok(await admin.post(`/messages/${starredMessage}/reactions`, { emoji_name: 'thumbs_up' }), 'unicode reaction');

  ok(await member.upload('/users/me/avatar', [{ name: 'me.png', bytes: await png({ r: 10, g: 200, b: 10 }, 120), type: 'image/png' }]), 'avatar');

  const text = ok(await owner.post('/realm/profile_fields', { name: 'Team', hint: 'Where you work', field_type: 1 }), 'text field').id as number;
  const users = ok(await owner.post('/realm/profile_fields', { name: 'Mentor', field_type: 6 }), 'user field').id as number;
  ok(
    await member.patch('/users/me/profile_data', {
      data: [
        { id: text, value: 'Platform' },
        { id: users, value: [server.ownerId] },
      ],
    }),
    'profile data',
  );

  const group = ok(
    await owner.post('/user_groups/create', { name: 'reviewers', description: 'People who review', members: [member.userId, moderator.userId] }),
    'group',
  );
  ok(await member.post(`/users/me/muted_users/${guest.userId}`), 'mute user');
  ok(await member.post('/user_topics', { stream_id: publicStream, topic: 'files', visibility_policy: 1 }), 'mute topic');
  ok(await member.post('/users/me/status', { status_text: 'On holiday', emoji_name: 'party_parrot' }), 'status');
  ok(await owner.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/{id}' }), 'linkifier');
  ok(await owner.patch('/realm', { topics_policy: 'disable_empty_topic' }), 'topics policy');

  // What Zulip 10.2 keeps in tables of its own: scheduled messages (to a channel, one person
  // and a group), a reminder (which Zulip 10.2 cannot hold), a saved snippet, an outgoing
  // webhook and the organization's defaults for new users (one Zulip 10 has, one it has not).
  const later = Math.floor(Date.now() / 1000) + 86_400;
  const schedule = async (params: Row) => ok(await member.post('/scheduled_messages', { ...params, scheduled_delivery_timestamp: later }), 'schedule');
  await schedule({ type: 'stream', to: publicStream, topic: 'later', content: 'see you tomorrow' });
  await schedule({ type: 'direct', to: [server.ownerId], content: 'a private word, later' });
  await schedule({ type: 'direct', to: [server.ownerId, admin.userId], content: 'the three of us, later' });
  // A file only a scheduled message links: Zulip exports it with that message.
  const laterUpload = ok(await member.upload('/user_uploads', [{ name: 'later.txt', bytes: 'for later', type: 'text/plain' }]), 'upload').url as string;
  await schedule({ type: 'stream', to: publicStream, topic: 'later', content: `[later.txt](${laterUpload})` });
  ok(await member.post('/reminders', { message_id: starredMessage, scheduled_delivery_timestamp: later, note: 'answer this' }), 'reminder');
  ok(await member.post('/saved_snippets', { title: 'Greeting', content: 'Hello there!' }), 'snippet');
  const hook = ok(
    await owner.post('/bots', { full_name: 'Hook Out', short_name: 'hookout', bot_type: 3, payload_url: JSON.stringify('https://bots.example.com/hook') }),
    'outgoing bot',
  );
  ok(
    await owner.patch('/realm/user_settings_defaults', { web_home_view: 'recent', enter_sends: true, resolved_topic_notice_auto_read_policy: 'never' }),
    'defaults',
  );

  return {
    ownerId: server.ownerId,
    admin,
    moderator,
    member,
    guest,
    botId: bot.user_id,
    outgoingBotId: hook.user_id,
    publicStream,
    privateStream,
    starredMessage,
    editedMessage,
    movedMessage,
    uploadMessage,
    uploadPath,
    dmMessage,
    groupDmMessage,
    privateMessage,
    emojiId: Number(emoji.id),
    fieldIds: { text, users },
    groupId: group.group_id ?? (ok(await owner.get('/user_groups'), 'groups').user_groups as Row[]).find((g) => g.name === 'reviewers')!.id,
  };
}

/**
 * What Zulip's importer needs of any export: every table it reads, every date field it
 * converts, ids that match across tables and files that the records point at.
 */
function checkImportable(exported: Unpacked): void {
  const { realm, messages, userMessages, attachments, records, root } = exported;
  const status = JSON.parse(readFileSync(path.join(root, EXPORT_FILES.migrationStatus), 'utf8'));
  assert.equal(status.zulip_version, ZULIP_TARGET_VERSION);
  assert.deepEqual(status.migrations_by_app, {});
  for (const table of REQUIRED_REALM_TABLES) assert.ok(Array.isArray(realm[table]), `realm.json has ${table}`);
  for (const table of OPTIONAL_REALM_TABLES) assert.ok(Array.isArray(realm[table]), `realm.json has ${table}`);
  assert.equal(realm.zerver_realm.length, 1);

  const tables: Record<string, Row[]> = { ...realm, zerver_message: messages, zerver_usermessage: userMessages, zerver_attachment: attachments };
  // Every row has the fields of its table and no others: the importer passes rows to Zulip's
  // models as keyword arguments, and an unknown one fails the import.
  const optional: Record<string, readonly string[]> = {
    zerver_userprofile: USER_SETTINGS.map((d) => d.name),
    zerver_userprofile_mirrordummy: USER_SETTINGS.map((d) => d.name),
    zerver_subscription: SUBSCRIPTION_SETTINGS,
    zerver_realmuserdefault: USER_SETTINGS.map((d) => d.name),
  };
  for (const [table, rows] of Object.entries(tables)) {
    if (!Array.isArray(rows)) continue;
    const fields = ZULIP_FIELDS[table === 'zerver_userprofile_mirrordummy' ? 'zerver_userprofile' : table];
    if (!fields) {
      assert.deepEqual(rows, [], `${table} is written empty`);
      continue;
    }
    for (const row of rows) {
      for (const key of Object.keys(row)) assert.ok(fields.includes(key) || optional[table]?.includes(key), `${table}.${key} is a Zulip field`);
      for (const key of fields) assert.ok(key in row || optional[table]?.includes(key), `${table}.${key} is present`);
    }
  }
  for (const [table, fields] of Object.entries(DATE_FIELDS)) {
    for (const row of tables[table] ?? []) {
      for (const field of fields) {
        assert.ok(field in row, `${table}.${field}`);
        assert.ok(row[field] === null || typeof row[field] === 'number', `${table}.${field} is seconds or null`);
      }
    }
  }
  // Ids are unique per table and every foreign key names a row that exists. A user id may
  // also be a cross-realm bot's, which the importer maps to the new server's bot.
  const ids = (table: string) => {
    const list = (tables[table] ?? []).map((r) => r.id);
    if (table === 'zerver_userprofile') list.push(...realm.zerver_userprofile_mirrordummy.map((r: Row) => r.id), ...realm.zerver_userprofile_crossrealm.map((r: Row) => r.id));
    if (table === 'zerver_recipient') list.push(...realm.zerver_userprofile_crossrealm.map((r: Row) => r.recipient_id));
    return new Set(list);
  };
  for (const [table, rows] of Object.entries(tables)) {
    if (!Array.isArray(rows) || table === 'zerver_usermessage') continue;
    assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, `${table} ids are unique`);
  }
  for (const [table, keys] of Object.entries(FOREIGN_KEYS)) {
    for (const [field, target] of Object.entries(keys)) {
      const known = ids(target);
      for (const row of tables[table] ?? []) {
        assert.ok(field in row, `${table}.${field} is present`);
        if (row[field] !== null) assert.ok(known.has(row[field]), `${table}.${field} = ${row[field]} names a row of ${target}`);
      }
    }
  }
  // Users: the fields the importer deletes or remaps must be there.
  for (const user of [...realm.zerver_userprofile, ...realm.zerver_userprofile_mirrordummy]) {
    for (const field of ['user_permissions', 'groups', 'last_active_message_id', 'default_sending_stream', 'default_events_register_stream', 'bot_owner']) {
      assert.ok(field in user, `zerver_userprofile.${field}`);
    }
    assert.match(user.email, /@/);
    assert.match(user.delivery_email, /@/);
    assert.equal(typeof user.is_active, 'boolean');
    assert.ok([100, 200, 300, 400, 600].includes(user.role));
  }
  // Recipients point at what they name; every user has a personal recipient and its subscription.
  const recipientsByKey = new Set(realm.zerver_recipient.map((r: Row) => `${r.type}:${r.type_id}`));
  for (const r of realm.zerver_recipient) {
    const target = { 1: 'zerver_userprofile', 2: 'zerver_stream', 3: 'zerver_huddle' }[r.type as 1 | 2 | 3];
    assert.ok(ids(target).has(r.type_id), `recipient ${r.id} names a row of ${target}`);
  }
  for (const user of [...realm.zerver_userprofile, ...realm.zerver_userprofile_mirrordummy]) {
    assert.ok(recipientsByKey.has(`1:${user.id}`), `user ${user.id} has a personal recipient`);
  }
  for (const s of realm.zerver_stream) assert.ok(recipientsByKey.has(`2:${s.id}`), `channel ${s.id} has a recipient`);
  for (const h of realm.zerver_huddle) {
    const members = realm.zerver_subscription.filter((s: Row) => s.recipient === h.recipient);
    assert.equal(members.length, h.group_size, 'each group member is subscribed to the group');
  }
  // Group settings name groups of the export.
  const groups = ids('zerver_usergroup');
  for (const key of REALM_GROUP_SETTINGS) assert.ok(groups.has(realm.zerver_realm[0][realmField(key)]), `realm ${realmField(key)}`);
  for (const s of realm.zerver_stream) for (const setting of STREAM_GROUP_SETTINGS) assert.ok(groups.has(s[setting]), `stream ${setting}`);
  for (const g of realm.zerver_namedusergroup) for (const setting of USER_GROUP_SETTINGS) assert.ok(groups.has(g[setting]), `group ${setting}`);
  for (const name of ['role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet', 'role:nobody']) {
    assert.ok(realm.zerver_namedusergroup.some((g: Row) => g.name === name && g.is_system_group === true), name);
  }
  // Reactions to custom emoji carry the emoji's id, and its name matches (the importer asserts it).
  for (const r of realm.zerver_reaction) {
    assert.ok(['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji'].includes(r.reaction_type));
    if (r.reaction_type === 'realm_emoji') {
      const emoji = realm.zerver_realmemoji.find((e: Row) => String(e.id) === r.emoji_code);
      assert.equal(emoji?.name, r.emoji_name);
    }
  }
  // Messages: the fields a Zulip Message has, with usermessages only for exported messages.
  const messageIds = new Set(messages.map((m) => m.id));
  for (const m of messages) {
    assert.equal(typeof m.subject, 'string');
    assert.equal(typeof m.rendered_content, 'string');
    assert.equal(typeof m.has_attachment, 'boolean');
    if (m.edit_history !== null) for (const entry of JSON.parse(m.edit_history)) assert.ok(ids('zerver_userprofile').has(entry.user_id));
  }
  for (const um of userMessages) {
    assert.ok(messageIds.has(um.message), 'usermessage names an exported message');
    assert.equal(typeof um.flags_mask, 'number');
    assert.ok(!('flags' in um));
  }
  // Files: every record's file is in the tarball; attachments and uploads agree on paths.
  for (const folder of FILE_FOLDERS) {
    for (const record of records[folder]) {
      assert.ok(statSync(path.join(root, folder, record.path)).isFile(), `${folder}/${record.path} is in the tarball`);
      assert.equal(typeof record.s3_path, 'string');
      assert.ok(Number.isInteger(record.realm_id));
    }
  }
  const uploadPaths = new Set(records.uploads.map((r) => r.s3_path));
  for (const a of attachments) {
    assert.ok(uploadPaths.has(a.path_id), `attachment ${a.path_id} has its file`);
    assert.ok(Array.isArray(a.messages) && Array.isArray(a.scheduled_messages));
    for (const id of a.messages) assert.ok(messageIds.has(id));
    for (const id of a.scheduled_messages) {
      const scheduled = realm.zerver_scheduledmessage.find((m: Row) => m.id === id);
      assert.ok(scheduled?.has_attachment && scheduled.content.includes(a.path_id), 'the scheduled message links the path');
    }
    const linking = messages.filter((m) => a.messages.includes(m.id));
    for (const m of linking) {
      assert.equal(m.has_attachment, true);
      assert.ok(m.content.includes(a.path_id), 'the message links the path the importer rewrites');
    }
  }
  for (const record of records.avatars) {
    assert.ok(record.s3_path.endsWith('.original'));
    assert.ok(Number.isInteger(record.avatar_version));
    assert.ok(ids('zerver_userprofile').has(record.user_profile_id));
  }
  for (const record of records.emoji) {
    assert.ok(realm.zerver_realmemoji.some((e: Row) => e.file_name === record.file_name && e.name === record.name));
  }
}

/** Asks the owner's export of this type through the API, waits for it, and unpacks it, checked importable. */
async function exportThroughApi(server: TestServer, exportType: string): Promise<Unpacked> {
  const created = ok(await server.owner.post('/export/realm', exportType === 'public' ? {} : { export_type: exportType }), 'export');
  let done: Row | undefined;
  for (let i = 0; i < 200 && !done; i++) {
    const row = ok(await server.owner.get('/export/realm'), 'list').exports.find((e: Row) => e.id === created.id);
    if (!row.pending) done = row;
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(done!.export_type, exportType);
  const file = path.join(tempDir(), `${exportType}.tar.gz`);
  writeFileSync(file, (await server.owner.download(new URL(done!.export_url).pathname)).bytes);
  const exported = await unpack(file);
  checkImportable(exported);
  return exported;
}

describe('data exports in Zulip format', () => {
  let server: TestServer;
  let fixture: Fixture;
  before(async () => {
    server = await TestServer.start();
    fixture = await buildOrganization(server);
  });
  after(async () => {
    await server.close();
  });

  test('stoa export writes a full export that Zulip can import, with everything in it', async () => {
    const output = path.join(tempDir(), 'full.tar.gz');
    // Beside the running server: the command reads a snapshot and writes nothing.
    const child = spawnStoa(['export', '--data', server.data, '--output', output]);
    assert.equal(await child.exited, 0, child.output());
    assert.match(child.output(), /Wrote .*full\.tar\.gz/);
    const exported = await unpack(output);
    checkImportable(exported);
    const { realm, messages, userMessages, attachments, records } = exported;

    // Users of every role, the bot and its owner; the notification bot is Zulip's own.
    const user = (id: number) => realm.zerver_userprofile.find((u: Row) => u.id === id);
    assert.equal(user(fixture.ownerId).role, 100);
    assert.equal(user(fixture.admin.userId).role, 200);
    assert.equal(user(fixture.moderator.userId).role, 300);
    assert.equal(user(fixture.member.userId).role, 400);
    assert.equal(user(fixture.guest.userId).role, 600);
    assert.equal(user(fixture.botId).is_bot, true);
    assert.equal(user(fixture.botId).bot_owner, fixture.member.userId);
    assert.equal(user(fixture.ownerId).twenty_four_hour_time, true);
    assert.equal(user(fixture.member.userId).avatar_source, 'U');
    assert.equal(user(fixture.guest.userId).delivery_email, fixture.guest.credentials!.email, 'a full export keeps every address');
    assert.deepEqual(realm.zerver_userprofile_mirrordummy, []);
    // Each of the server's own bots by its own address, as Zulip names them (Welcome Bot greeted the people made).
    assert.deepEqual(realm.zerver_userprofile_crossrealm.map((u: Row) => u.email), ['notification-bot@zulip.com', 'welcome-bot@zulip.com']);
    assert.ok(!('api_key' in user(fixture.ownerId)) && !('password' in user(fixture.ownerId)));

    // Channels with descriptions, privacy and subscriptions with their colors.
    const general = realm.zerver_stream.find((s: Row) => s.id === fixture.publicStream);
    const secret = realm.zerver_stream.find((s: Row) => s.id === fixture.privateStream);
    assert.equal(general.description, 'Everything **else**');
    assert.equal(general.invite_only, false);
    assert.equal(secret.invite_only, true);
    const generalRecipient = realm.zerver_recipient.find((r: Row) => r.type === 2 && r.type_id === fixture.publicStream).id;
    const memberSub = realm.zerver_subscription.find((s: Row) => s.recipient === generalRecipient && s.user_profile === fixture.member.userId);
    assert.equal(memberSub.color, '#abcdef');
    assert.equal(realm.zerver_subscription.filter((s: Row) => s.recipient === generalRecipient).length, 5);

    // Messages: channel messages with topics, the edit, one-to-one and group direct messages.
    const message = (id: number): Row => messages.find((m) => m.id === id)!;
    assert.equal(message(fixture.starredMessage).subject, 'greetings');
    assert.equal(message(fixture.editedMessage).content, 'second draft');
    const history = JSON.parse(message(fixture.editedMessage).edit_history);
    assert.equal(history[0].prev_content, 'first draft');
    assert.equal(history[0].user_id, fixture.member.userId);
    assert.equal(typeof message(fixture.editedMessage).last_edit_time, 'number');
    // A message only moved was edited too in Zulip's model, so Zulip shows it moved, with its history.
    const moveHistory = JSON.parse(message(fixture.movedMessage).edit_history);
    assert.deepEqual([moveHistory[0].prev_topic, moveHistory[0].topic], ['old place', 'new place']);
    assert.equal(message(fixture.movedMessage).last_edit_time, moveHistory[0].timestamp);
    // Zulip 10.2's form of the topics policy.
    assert.equal(realm.zerver_realm[0].mandatory_topics, true);
    // Zulip tells direct messages from channel messages by is_channel_message.
    assert.deepEqual(
      [fixture.starredMessage, fixture.dmMessage, fixture.groupDmMessage].map((id) => message(id).is_channel_message),
      [true, false, false],
    );
    const ownerPersonal = realm.zerver_recipient.find((r: Row) => r.type === 1 && r.type_id === fixture.ownerId).id;
    assert.equal(message(fixture.dmMessage).recipient, ownerPersonal, "a one-to-one message goes to the receiver's personal recipient");
    const groupRecipient = realm.zerver_recipient.find((r: Row) => r.id === message(fixture.groupDmMessage).recipient);
    assert.equal(groupRecipient.type, 3);
    assert.equal(realm.zerver_huddle.length, 1);
    assert.equal(realm.zerver_huddle[0].group_size, 3);
    assert.ok(message(fixture.privateMessage), 'a full export has private channels');

    // Flags in Zulip's bit order.
    const flagsOf = (messageId: number, userId: number) =>
      zulipFlagNames(userMessages.find((um) => um.message === messageId && um.user_profile === userId)!.flags_mask);
    assert.ok(flagsOf(fixture.starredMessage, fixture.ownerId).includes('starred'));
    assert.ok(flagsOf(fixture.starredMessage, fixture.member.userId).includes('read'));
    assert.ok(flagsOf(fixture.starredMessage, fixture.member.userId).includes('mentioned'));
    assert.ok(flagsOf(fixture.dmMessage, fixture.ownerId).includes('is_private'));
    assert.ok(!flagsOf(fixture.dmMessage, fixture.ownerId).includes('read'));

    // Reactions, custom emoji and their image.
    const reactions = realm.zerver_reaction.filter((r: Row) => r.message === fixture.starredMessage);
    assert.deepEqual(reactions.map((r: Row) => r.reaction_type).sort(), ['realm_emoji', 'unicode_emoji']);
    assert.equal(reactions.find((r: Row) => r.reaction_type === 'realm_emoji').emoji_code, String(fixture.emojiId));
    assert.equal(records.emoji.length, 1);
    assert.equal(records.emoji[0].name, 'party_parrot');

    // The upload, linked from its message, with its file; the avatar with its file.
    const notes = attachments.find((a) => a.path_id === fixture.uploadPath)!;
    assert.deepEqual(notes.messages, [fixture.uploadMessage]);
    assert.equal(readFileSync(path.join(exported.root, 'uploads', fixture.uploadPath), 'utf8'), 'some notes');
    assert.deepEqual(records.avatars.map((r) => r.user_profile_id), [fixture.member.userId]);
    assert.equal((await sharp(path.join(exported.root, 'avatars', records.avatars[0].path)).metadata()).format, 'png');

    // Profile fields, groups, mutes, statuses, linkifiers.
    assert.deepEqual(realm.zerver_customprofilefield.map((f: Row) => f.name), ['Team', 'Mentor']);
    const values = realm.zerver_customprofilefieldvalue.filter((v: Row) => v.user_profile === fixture.member.userId);
    assert.equal(values.find((v: Row) => v.field === fixture.fieldIds.text).value, 'Platform');
    assert.deepEqual(JSON.parse(values.find((v: Row) => v.field === fixture.fieldIds.users).value), [fixture.ownerId]);
    const reviewers = realm.zerver_namedusergroup.find((g: Row) => g.name === 'reviewers');
    assert.equal(reviewers.description, 'People who review');
    const reviewerIds = realm.zerver_usergroupmembership.filter((m: Row) => m.user_group === reviewers.id).map((m: Row) => m.user_profile);
    assert.deepEqual(reviewerIds.sort(), [fixture.moderator.userId, fixture.member.userId].sort());
    assert.deepEqual(
      realm.zerver_muteduser.map((m: Row) => [m.user_profile, m.muted_user]),
      [[fixture.member.userId, fixture.guest.userId]],
    );
    assert.deepEqual(
      realm.zerver_usertopic.map((t: Row) => [t.user_profile, t.stream, t.topic_name, t.visibility_policy]),
      [[fixture.member.userId, fixture.publicStream, 'files', 1]],
    );
    const status = realm.zerver_userstatus.find((s: Row) => s.user_profile === fixture.member.userId);
    assert.equal(status.status_text, 'On holiday');
    assert.equal(status.reaction_type, 'realm_emoji');
    assert.equal(status.emoji_code, String(fixture.emojiId));
    assert.deepEqual(realm.zerver_realmfilter.map((f: Row) => f.url_template), ['https://tracker.example.com/{id}']);
    assert.deepEqual(realm.zerver_realmauthenticationmethod.map((m: Row) => m.name), ['Email']);

    // Scheduled messages, saved snippets, outgoing webhooks and new users' defaults are in
    // Zulip's own tables, where its importer restores them.
    assert.deepEqual(
      realm.zerver_scheduledmessage.map((m: Row) => [m.sender, m.recipient, m.stream, m.subject, m.content, m.delivery_type, m.delivered, m.read_by_sender]),
      [
        [fixture.member.userId, generalRecipient, fixture.publicStream, 'later', 'see you tomorrow', 1, false, false],
        [fixture.member.userId, ownerPersonal, null, '', 'a private word, later', 1, false, false],
        [fixture.member.userId, groupRecipient.id, null, '', 'the three of us, later', 1, false, false],
        [fixture.member.userId, generalRecipient, fixture.publicStream, 'later', realm.zerver_scheduledmessage[3].content, 1, false, false],
      ],
    );
    // The file only the last one links leaves with it.
    const laterFile = attachments.find((a) => a.file_name === 'later.txt')!;
    assert.deepEqual([laterFile.messages, laterFile.scheduled_messages], [[], [realm.zerver_scheduledmessage[3].id]]);
    assert.deepEqual(realm.zerver_scheduledmessage.map((m: Row) => m.has_attachment), [false, false, false, true]);
    assert.equal(readFileSync(path.join(exported.root, 'uploads', laterFile.path_id), 'utf8'), 'for later');
    const snippet = realm.zerver_savedsnippet[0];
    assert.deepEqual([realm.zerver_savedsnippet.length, snippet.user_profile, snippet.title, snippet.content], [1, fixture.member.userId, 'Greeting', 'Hello there!']);
    assert.ok(Math.abs(snippet.date_created - Date.now() / 1000) < 600, 'date_created in seconds');
    assert.deepEqual(
      realm.zerver_service.map((service: Row) => [service.user_profile, service.name, service.base_url, service.interface, service.token]),
      [[fixture.outgoingBotId, 'hookout', 'https://bots.example.com/hook', 1, '']],
      'a service without its token: a credential stays behind',
    );
    const defaults = realm.zerver_realmuserdefault;
    assert.equal(defaults.length, 1);
    assert.deepEqual([defaults[0].web_home_view, defaults[0].enter_sends, defaults[0].emojiset], ['recent_topics', true, 'google']);
    assert.ok(!('timezone' in defaults[0]) && !('resolved_topic_notice_auto_read_policy' in defaults[0]), 'only fields of Zulip 10.2');
    // What Zulip 10.2 has no place for stays in stoa.json: the reminder, the newer default.
    const stoa = JSON.parse(readFileSync(path.join(exported.root, STOA_EXTRAS_FILE), 'utf8'));
    assert.deepEqual(
      stoa.tables.scheduled_messages.map((m: Row) => [m.sender_id, m.reminder_target_message_id, m.reminder_note]),
      [[fixture.member.userId, fixture.starredMessage, 'answer this']],
    );
    assert.deepEqual(stoa.realm_user_settings_defaults, { resolved_topic_notice_auto_read_policy: 'never' });
    assert.ok(!('saved_snippets' in stoa.tables) && !('bot_services' in stoa.tables));
  });

  test('admins export through the API without private data of people who did not consent', async () => {
    const owner = server.owner;
    const events = await listen(owner, { event_types: ['realm_export'] });
    const created = ok(await owner.post('/export/realm', { export_type: 'full_with_consent' }), 'export');
    assert.equal(typeof created.id, 'number');

    let exports: Row[] = [];
    for (let i = 0; i < 200; i++) {
      exports = ok(await owner.get('/export/realm'), 'list').exports;
      if (!exports.find((e) => e.id === created.id)!.pending) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const done = exports.find((e) => e.id === created.id)!;
    assert.equal(done.pending, false);
    assert.equal(done.failed_timestamp, null);
    assert.equal(done.deleted_timestamp, null);
    assert.equal(done.export_type, 'full_with_consent');
    assert.equal(done.acting_user_id, server.ownerId);
    assert.equal(typeof done.export_time, 'number');
    assert.match(done.export_url, /\/user_uploads\/exports\/[^/]+\/zulip-export-[0-9a-f]+\.tar\.gz$/);

    const seen = await events();
    assert.ok(seen.some((e) => e.type === 'realm_export' && e.exports.some((x: Row) => x.id === created.id && x.pending)));
    assert.ok(seen.some((e) => e.type === 'realm_export' && e.exports.some((x: Row) => x.id === created.id && x.export_url)));

    // The tarball: for administrators, not for members or anyone else.
    const urlPath = new URL(done.export_url).pathname;
    assert.equal((await fixture.member.download(urlPath)).status, 400);
    assert.equal((await owner.download(urlPath, { anonymous: true })).status, 401);
    const download = await owner.download(urlPath);
    assert.equal(download.status, 200);
    const file = path.join(tempDir(), 'consent.tar.gz');
    writeFileSync(file, download.bytes);
    const exported = await unpack(file);
    checkImportable(exported);
    const { realm, messages, userMessages } = exported;

    // The owner and the member consented; the others become mirror dummies without settings.
    const dummies = realm.zerver_userprofile_mirrordummy.map((u: Row) => u.id);
    for (const id of [fixture.admin.userId, fixture.moderator.userId, fixture.guest.userId]) assert.ok(dummies.includes(id));
    for (const id of [fixture.ownerId, fixture.member.userId, fixture.botId]) assert.ok(realm.zerver_userprofile.some((u: Row) => u.id === id));
    // Their settings are the organization's defaults for new users, as Zulip writes them.
    assert.ok(realm.zerver_userprofile_mirrordummy.every((u: Row) => u.is_active === false));
    for (const u of realm.zerver_userprofile_mirrordummy) {
      assert.deepEqual([u.web_home_view, u.enter_sends, u.twenty_four_hour_time], ['recent_topics', true, false], `user ${u.id}`);
    }
    assert.equal(realm.zerver_userprofile.find((u: Row) => u.id === fixture.ownerId).twenty_four_hour_time, true, 'a consenting person keeps theirs');
    // Messages the consenting users could read are in; usermessages only for them.
    const ids = new Set(messages.map((m) => m.id));
    for (const id of [fixture.starredMessage, fixture.privateMessage, fixture.dmMessage, fixture.groupDmMessage]) assert.ok(ids.has(id), `message ${id}`);
    assert.ok(userMessages.every((um) => [fixture.ownerId, fixture.member.userId, fixture.botId].includes(um.user_profile)));
    // Private data of people who did not consent stays behind.
    assert.ok(realm.zerver_subscription.every((s: Row) => [fixture.ownerId, fixture.member.userId].includes(s.user_profile) || s.color === '#c2c2c2'));
    // The member's scheduled messages and snippet, the owner's outgoing webhook: they consented.
    assert.equal(realm.zerver_scheduledmessage.length, 4);
    assert.equal(realm.zerver_savedsnippet.length, 1);
    assert.deepEqual(realm.zerver_service.map((service: Row) => service.user_profile), [fixture.outgoingBotId]);

  });

  test('a public export has public channels only and nobody\'s private data', async () => {
    const exported = await exportThroughApi(server, 'public');
    const ids = new Set(exported.messages.map((m) => m.id));
    assert.ok(ids.has(fixture.starredMessage));
    for (const id of [fixture.privateMessage, fixture.dmMessage, fixture.groupDmMessage]) assert.ok(!ids.has(id), `message ${id} is private`);
    assert.deepEqual(exported.realm.zerver_huddle, []);
    assert.deepEqual(exported.realm.zerver_muteduser, []);
    assert.deepEqual(exported.realm.zerver_usertopic, []);
    assert.deepEqual(exported.realm.zerver_userstatus, []);
    // Everyone keeps a working account but the guest, whose hidden address stays behind.
    const dummies = exported.realm.zerver_userprofile_mirrordummy;
    assert.deepEqual(dummies.map((u: Row) => u.id), [fixture.guest.userId]);
    assert.match(dummies[0].delivery_email, /^exported-user-\d+@export\.invalid$/);
    assert.equal(dummies[0].is_active, false);
  });

  test('only administrators may export or see exports and consents', async () => {
    for (const client of [fixture.moderator, fixture.member, fixture.guest]) {
      for (const [method, urlPath] of [
        ['get', '/export/realm'],
        ['post', '/export/realm'],
        ['get', '/export/realm/consents'],
      ] as const) {
        const response = await client[method](urlPath);
        assert.equal(response.status, 400, `${method} ${urlPath}`);
        assert.equal(response.body.msg, 'Must be an organization administrator');
      }
    }
    for (const exportType of [1, 'full', '']) {
      const refused = await fixture.admin.post('/export/realm', { export_type: exportType });
      assert.deepEqual([refused.status, refused.body.msg], [400, 'Invalid export_type']);
    }
  });

  test('consents list every active person, and changes reach administrators as events', async () => {
    const adminEvents = await listen(fixture.admin, { event_types: ['realm_export_consent'] });
    const consents = ok(await fixture.admin.get('/export/realm/consents'), 'consents').export_consents as Row[];
    const byUser = new Map(consents.map((c) => [c.user_id, c.consented]));
    assert.equal(byUser.get(fixture.ownerId), true);
    assert.equal(byUser.get(fixture.member.userId), true);
    assert.equal(byUser.get(fixture.guest.userId), false);
    assert.ok(!byUser.has(fixture.botId), 'bots are not listed');
    ok(await fixture.guest.patch('/settings', { allow_private_data_export: true }), 'consent');
    assert.deepEqual(await adminEvents(), [{ type: 'realm_export_consent', user_id: fixture.guest.userId, consented: true }]);
  });

  test('an export that a stopped server left unfinished is reported failed after a restart', async () => {
    // The row as a server killed mid-export leaves it: requested, neither done nor failed.
    const id = server.stoa.exports.insert(server.ownerId, 1, Date.now() / 1000);
    await server.restart();
    const row = ok(await server.owner.get('/export/realm'), 'list').exports.find((e: Row) => e.id === id);
    assert.equal(row.pending, false);
    assert.equal(typeof row.failed_timestamp, 'number');
    assert.equal(row.export_url, null);
    // Finished exports are still there, with their tarballs.
    const finished = ok(await server.owner.get('/export/realm'), 'list').exports.filter((e: Row) => e.export_url);
    assert.ok(finished.length >= 2);
    assert.equal((await server.owner.download(new URL(finished[0].export_url).pathname)).status, 200);
  });

  test('an organization may ask for five exports a week', async () => {
    // Three were asked for above (one never finished); two more are allowed, then the limit holds.
    for (let i = 0; i < 2; i++) assert.equal((await server.owner.post('/export/realm', {})).status, 200);
    const refused = await server.owner.post('/export/realm', {});
    assert.equal(refused.status, 400);
    assert.equal(refused.body.msg, 'Exceeded rate limit.');
  });
});

describe('a full export without consent (level 449)', () => {
  test('is for owners of an organization whose owners may access all content, set on the command line', async () => {
    const server = await TestServer.start();
    try {
      const fixture = await buildOrganization(server);
      // People who did not consent, talking privately.
      const unconsented = ok(await fixture.admin.post('/messages', { type: 'direct', to: JSON.stringify([fixture.guest.userId]), content: 'between us' }), 'send').id;
      const refusals: Array<[Client, number, string, string]> = [
        [fixture.admin, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'],
        [server.owner, 400, 'BAD_REQUEST', 'Full exports without member consent are not allowed in this organization.'],
      ];
      for (const [client, status, code, msg] of refusals) {
        const refused = await client.post('/export/realm', { export_type: 'full_without_consent' });
        assert.deepEqual([refused.status, refused.body.code, refused.body.msg], [status, code, msg]);
      }
      assert.equal(ok(await server.owner.post('/register', { fetch_event_types: ['realm'] }), 'register').realm_owner_full_content_access, false);

      await server.running.close();
      const log = console.log;
      console.log = () => {};
      try {
        assert.equal(runOwnerFullContentAccessCommand(['--data', server.data], {}), 2, 'one of --enable and --disable');
        assert.equal(runOwnerFullContentAccessCommand(['--enable', '--data', server.data], {}), 0);
      } finally {
        console.log = log;
      }
      await server.restart();
      assert.equal(ok(await server.owner.post('/register', { fetch_event_types: ['realm'] }), 'register').realm_owner_full_content_access, true);
      const stillRefused = await server.anonymous.as(fixture.admin.credentials).post('/export/realm', { export_type: 'full_without_consent' });
      assert.equal(stillRefused.body.msg, 'Must be an organization owner');

      const exported = await exportThroughApi(server, 'full_without_consent');
      // Everyone's private data leaves with it: their messages, flags and settings, no stand-ins.
      const ids = new Set(exported.messages.map((m) => m.id));
      for (const id of [unconsented, fixture.privateMessage, fixture.dmMessage, fixture.groupDmMessage]) assert.ok(ids.has(id), `message ${id}`);
      assert.deepEqual(exported.realm.zerver_userprofile_mirrordummy, []);
      assert.ok(exported.userMessages.some((um) => um.user_profile === fixture.guest.userId && um.message === unconsented));
    } finally {
      await server.close();
    }
  });
});

describe('deleting a data export', () => {
  test('removes the tarball and keeps the row, marked deleted, as on Zulip, also after a restart', async () => {
    const server = await TestServer.start();
    try {
      const owner = server.owner;
      const member = await server.createUser();
      const created = ok(await owner.post('/export/realm', { export_type: 'public' }), 'export');
      let done: Row | undefined;
      for (let i = 0; i < 200 && !done; i++) {
        done = ok(await owner.get('/export/realm'), 'list').exports.find((e: Row) => e.id === created.id && !e.pending);
        if (!done) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok(done?.export_url, 'the export finished');
      const urlPath = new URL(done.export_url).pathname;
      const events = await listen(owner, { event_types: ['realm_export'] });
      const refusal = async (response: Promise<{ status: number; body: any }>) => {
        const { status, body } = await response;
        assert.equal(status, 400, JSON.stringify(body));
        return body.msg;
      };
      assert.equal(await refusal(member.delete(`/export/realm/${created.id}`)), 'Must be an organization administrator');
      assert.equal(await refusal(owner.delete('/export/realm/999999')), 'Invalid data export ID');
      ok(await owner.delete(`/export/realm/${created.id}`), 'delete');
      const deleted = ok(await owner.get('/export/realm'), 'list').exports.find((e: Row) => e.id === created.id);
      assert.equal(typeof deleted.deleted_timestamp, 'number');
      assert.equal(deleted.export_url, null);
      assert.ok((await events()).some((e) => e.type === 'realm_export' && e.exports.some((x: Row) => x.id === created.id && x.deleted_timestamp)));
      for (let i = 0; i < 50 && (await owner.download(urlPath)).status !== 404; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal((await owner.download(urlPath)).status, 404);
      assert.equal(await refusal(owner.delete(`/export/realm/${created.id}`)), 'Export already deleted');
      await server.restart();
      const after = ok(await server.owner.get('/export/realm'), 'list').exports.find((e: Row) => e.id === created.id);
      assert.equal(typeof after.deleted_timestamp, 'number');
    } finally {
      await server.close();
    }
  });
});

describe('stoa export on the command line', () => {
  test('refuses bad arguments with one line and exit code 2', async () => {
    for (const args of [['export', '--type', 'everything'], ['export', '--nope'], ['export', '--data', ':memory:']]) {
      const child = spawnStoa(args);
      assert.equal(await child.exited, 2, child.output());
      assert.match(child.output().trim(), /^stoa: [^\n]+$/);
    }
  });

  test('reports a folder without a database', async () => {
    const empty = tempDir();
    mkdirSync(empty, { recursive: true });
    const child = spawnStoa(['export', '--data', empty, '--output', path.join(empty, 'x.tar.gz')]);
    assert.equal(await child.exited, 1);
    assert.match(child.output(), /no database at/);
    rmSync(empty, { recursive: true, force: true });
  });

  test('refuses a database of another schema version instead of misreading it', async () => {
    const server = await TestServer.start();
    await server.running.close();
    const db = new Database(path.join(server.data, 'stoa.db'));
    db.pragma('user_version = 1');
    db.close();
    const child = spawnStoa(['export', '--data', server.data, '--output', path.join(server.data, 'x.tar.gz')]);
    assert.equal(await child.exited, 1);
    assert.match(child.output(), /older Stoa .*start this Stoa on it once/);
    assert.ok(!existsSync(path.join(server.data, 'x.tar.gz')));
    rmSync(server.data, { recursive: true, force: true });
  });

  test('exports a stopped server\'s data folder', async () => {
    const server = await TestServer.start();
    const member = await server.createUser('Solo');
    ok(await member.post('/messages', { type: 'direct', to: [member.credentials!.email], content: 'note to self' }), 'send');
    await server.running.close();
    const output = path.join(server.data, 'out.tar.gz');
    const child = spawnStoa(['export', '--output', output], { STOA_DATA: server.data });
    assert.equal(await child.exited, 0, child.output());
    const exported = await unpack(output);
    checkImportable(exported);
    const note = exported.messages.find((m) => m.content === 'note to self')!;
    const personal = exported.realm.zerver_recipient.find((r: Row) => r.id === note.recipient);
    assert.deepEqual([personal.type, personal.type_id], [1, member.userId]);
    rmSync(server.data, { recursive: true, force: true });
  });
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { importExport } from '../lib/import/write';
import { Browser } from './support/browser';
import type { ApiResponse, Client } from './support/client';
import { createChannel } from './support/channels';
import { listen12 } from './support/events';
import { ok } from './support/fixtures';
import { sendMessage } from './support/messages';
import { assertValidResponse12 } from './support/openapi';
import { tempDir, TestServer } from './support/server';
import { writeZulipExport, ZULIP_IDS, zulipExportFixture } from './support/zulip-export';

/**
 * Zulip 12's changes to users, bots and their settings (feature levels 433, 444, 447, 455,
 * 456, 458, 459, 461 and 475), each pinned by what a client sees and checked against Zulip 12's
 * description (zulip-12.yaml).
 */

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

/** Checks a response against Zulip 12's description of the request that produced it. */
function valid12(method: string, apiPath: string, response: ApiResponse): ApiResponse {
  assertValidResponse12(method, `/api/v1${apiPath}`, response.status, response.body);
  return response;
}

function assertError(response: ApiResponse, status: number, msg: string): void {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.body.result, 'error');
  assert.equal(response.body.msg, msg);
}

async function register(client: Client, params: Record<string, unknown> = {}): Promise<Record<string, any>> {
  return ok(valid12('POST', '/register', await client.post('/register', params)), 'register');
}

describe('is_imported_stub on user objects (feature level 433)', () => {
  test('every user object says whether it is an imported stub: false for accounts made here', async () => {
    const member = await server.createUser('Stella Nostub');
    const paths = ['/users', `/users/${member.userId}`, `/users/${member.credentials.email}`, '/users/me'];
    for (const apiPath of paths) {
      const body = ok(valid12('GET', apiPath, await (apiPath === '/users/me' ? member : server.owner).get(apiPath)), apiPath);
      const person = body.members ? body.members.find((m: any) => m.user_id === member.userId) : (body.user ?? body);
      assert.equal(person.is_imported_stub, false, apiPath);
    }
    const state = await register(member, { fetch_event_types: ['realm_user'] });
    assert.ok(state.realm_users.every((u: any) => u.is_imported_stub === false));
    assert.ok(state.cross_realm_bots.length > 0);
    assert.ok(state.cross_realm_bots.every((u: any) => u.is_imported_stub === false));
  });

  test('a new account is announced with is_imported_stub false', async () => {
    const next = await listen12(server.owner);
    const created = ok(await server.owner.post('/users', { email: 'announced@example.com', password: 'secret-password', full_name: 'Ann Ounced' }), 'create');
    const add = (await next()).find((e) => e.type === 'realm_user' && e.op === 'add');
    assert.equal(add?.person.user_id, created.user_id);
    assert.equal(add?.person.is_imported_stub, false);
  });
});

describe('imported stubs and first logins (feature levels 433 and 475)', () => {
  let imported: TestServer;
  let carolPassword: string;
  before(async () => {
    const work = tempDir();
    const fixture = await zulipExportFixture();
    const carol = fixture.realm.zerver_userprofile.find((u: any) => u.id === ZULIP_IDS.carol);
    carol.is_imported_stub = true;
    const folder = writeZulipExport(fixture, path.join(work, 'export'));
    const into = path.join(work, 'data');
    const passwords = path.join(work, 'passwords.csv');
    await importExport(folder, into, { passwordsFile: passwords });
    const lines = readFileSync(passwords, 'utf8').trim().split('\n').slice(1);
    carolPassword = lines.map((line) => line.split(',')).find(([email]) => email === 'carol@acme.example')![1];
    imported = await TestServer.start({ data: into });
  });
  after(() => imported.close());

  function carolRow() {
    return imported.stoa.db.prepare("SELECT id, is_imported_stub, date_joined_ms FROM users WHERE delivery_email = 'carol@acme.example'").get() as {
      id: number;
      is_imported_stub: number;
      date_joined_ms: number;
    };
  }

  test('a stub stays one, with its imported joining date, until its first login; then everyone hears of both changes', async () => {
    const { id, date_joined_ms: importedJoined } = carolRow();
    const before = ok(valid12('GET', `/users/${id}`, await imported.owner.get(`/users/${id}`)), 'get').user;
    assert.equal(before.is_imported_stub, true);
    assert.equal(Date.parse(before.date_joined), importedJoined);
    const state = await register(imported.owner, { fetch_event_types: ['realm_user'] });
    assert.equal(state.realm_users.find((u: any) => u.user_id === id).is_imported_stub, true);
    const others = state.realm_users.filter((u: any) => u.user_id !== id);
    assert.ok(others.length > 0 && others.every((u: any) => u.is_imported_stub === false));

    const next = await listen12(imported.owner);
    const login = await imported.anonymous.post('/fetch_api_key', { username: 'carol@acme.example', password: carolPassword });
    ok(valid12('POST', '/fetch_api_key', login), 'login');
    const events = (await next()).filter((e) => e.type === 'realm_user');
    assert.deepEqual(events[0], { type: 'realm_user', op: 'update', person: { user_id: id, is_imported_stub: false } });
    assert.equal(events[1].op, 'update');
    assert.equal(events[1].person.user_id, id);
    assert.deepEqual(Object.keys(events[1].person).sort(), ['date_joined', 'user_id']);
    const joined = Date.parse(events[1].person.date_joined);
    assert.ok(joined > importedJoined, 'the first login is later than the import');
    assert.equal(events.length, 2);

    const after = ok(await imported.owner.get(`/users/${id}`), 'get').user;
    assert.equal(after.is_imported_stub, false);
    assert.equal(Date.parse(after.date_joined), joined);

    // A second login changes nothing and tells nobody.
    ok(await imported.anonymous.post('/fetch_api_key', { username: 'carol@acme.example', password: carolPassword }), 'again');
    assert.deepEqual((await next()).filter((e) => e.type === 'realm_user'), []);

    await imported.restart();
    assert.deepEqual(carolRow(), { id, is_imported_stub: 0, date_joined_ms: joined });
  });
});

describe('date_joined at first login of accounts made through the API (feature level 475)', () => {
  test('an account made with POST /users joins when it first logs in, by API key or in a browser', async () => {
    const made = ok(await server.owner.post('/users', { email: 'later@example.com', password: 'secret-password', full_name: 'Lee Later' }), 'create');
    const createdAt = Date.parse(ok(await server.owner.get(`/users/${made.user_id}`), 'get').user.date_joined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const next = await listen12(server.owner);
    const browser = await new Browser(server.url).request('POST', '/accounts/login', { username: 'later@example.com', password: 'secret-password' }, { json: true });
    assert.equal(browser.status, 200, JSON.stringify(browser.body));
    const events = (await next()).filter((e) => e.type === 'realm_user');
    assert.equal(events.length, 1, JSON.stringify(events));
    assert.deepEqual(Object.keys(events[0].person).sort(), ['date_joined', 'user_id']);
    const joined = Date.parse(events[0].person.date_joined);
    assert.ok(joined > createdAt);
    const user = ok(valid12('GET', `/users/${made.user_id}`, await server.owner.get(`/users/${made.user_id}`)), 'get').user;
    assert.equal(Date.parse(user.date_joined), joined);
    assert.equal(user.is_imported_stub, false);

    ok(await server.anonymous.post('/fetch_api_key', { username: 'later@example.com', password: 'secret-password' }), 'api login');
    assert.deepEqual((await next()).filter((e) => e.type === 'realm_user'), []);
    await server.restart();
    const row = server.stoa.db.prepare('SELECT date_joined_ms, joins_at_first_login FROM users WHERE id = ?').get(made.user_id);
    assert.deepEqual(row, { date_joined_ms: joined, joins_at_first_login: 0 });
  });

  test('a failed login changes nothing', async () => {
    const made = ok(await server.owner.post('/users', { email: 'wrong@example.com', password: 'secret-password', full_name: 'Will Wrong' }), 'create');
    const before = ok(await server.owner.get(`/users/${made.user_id}`), 'get').user.date_joined;
    const next = await listen12(server.owner);
    assertError(await server.anonymous.post('/fetch_api_key', { username: 'wrong@example.com', password: 'not it' }), 401, 'Your username or password is incorrect');
    assert.deepEqual((await next()).filter((e) => e.type === 'realm_user'), []);
    assert.equal(ok(await server.owner.get(`/users/${made.user_id}`), 'get').user.date_joined, before);
  });
});

describe('bots in user-specific lookups (feature level 458)', () => {
  test("a bot's channels, subscription status and group membership can be asked for", async () => {
    const bot = ok(await server.owner.post('/bots', { full_name: 'Lookup Bot', short_name: 'lookup' }), 'bot');
    const channel = await createChannel(server.owner, { principals: JSON.stringify([server.ownerId, bot.user_id]) });
    const channels = ok(valid12('GET', `/users/${bot.user_id}/channels`, await server.owner.get(`/users/${bot.user_id}/channels`)), 'channels');
    assert.ok(channels.subscribed_channel_ids.includes(channel.id));
    const status = ok(
      valid12('GET', `/users/${bot.user_id}/subscriptions/${channel.id}`, await server.owner.get(`/users/${bot.user_id}/subscriptions/${channel.id}`)),
      'status',
    );
    assert.equal(status.is_subscribed, true);
    const members = server.groupId('role:members');
    const membership = ok(
      valid12('GET', `/user_groups/${members}/members/${bot.user_id}`, await server.owner.get(`/user_groups/${members}/members/${bot.user_id}`)),
      'membership',
    );
    assert.equal(membership.is_user_group_member, true);
    const owners = server.groupId('role:owners');
    assert.equal(ok(await server.owner.get(`/user_groups/${owners}/members/${bot.user_id}`), 'owners').is_user_group_member, false);
  });
});

describe('use_for_user_matching on custom profile fields (feature level 455)', () => {
  test('set on creation and by update, listed only when true, in the list, register and events', async () => {
    const next = await listen12(server.owner);
    const created = ok(
      valid12('POST', '/realm/profile_fields', await server.owner.post('/realm/profile_fields', { name: 'Handle', field_type: 1, use_for_user_matching: true })),
      'create',
    );
    const plain = ok(await server.owner.post('/realm/profile_fields', { name: 'Motto', field_type: 1 }), 'plain');
    const listed = ok(valid12('GET', '/realm/profile_fields', await server.owner.get('/realm/profile_fields')), 'list').custom_fields;
    assert.equal(listed.find((f: any) => f.id === created.id).use_for_user_matching, true);
    assert.ok(!('use_for_user_matching' in listed.find((f: any) => f.id === plain.id)));
    const events = (await next()).filter((e) => e.type === 'custom_profile_fields');
    assert.equal(events.length, 2);
    assert.equal(events[0].fields.find((f: any) => f.id === created.id).use_for_user_matching, true);

    ok(await server.owner.patch(`/realm/profile_fields/${plain.id}`, { use_for_user_matching: true }), 'turn on');
    ok(await server.owner.patch(`/realm/profile_fields/${created.id}`, { use_for_user_matching: false }), 'turn off');
    const changed = (await next()).filter((e) => e.type === 'custom_profile_fields');
    assert.equal(changed.length, 2);
    const last = changed[1].fields;
    assert.equal(last.find((f: any) => f.id === plain.id).use_for_user_matching, true);
    assert.ok(!('use_for_user_matching' in last.find((f: any) => f.id === created.id)));

    const state = await register(server.owner, { fetch_event_types: ['custom_profile_fields'] });
    assert.deepEqual(state.custom_profile_fields, last);
    await server.restart();
    const rows = server.stoa.db.prepare('SELECT id, use_for_user_matching FROM custom_profile_fields WHERE id IN (?, ?) ORDER BY id').all(created.id, plain.id);
    assert.deepEqual(rows, [
      { id: created.id, use_for_user_matching: 0 },
      { id: plain.id, use_for_user_matching: 1 },
    ]);
  });

  test('only short text and external accounts may be used for matching; nothing changes otherwise', async () => {
    const github = ok(
      await server.owner.post('/realm/profile_fields', { field_type: 7, field_data: JSON.stringify({ subtype: 'github' }), use_for_user_matching: true }),
      'external account',
    );
    assert.equal(ok(await server.owner.get('/realm/profile_fields'), 'list').custom_fields.find((f: any) => f.id === github.id).use_for_user_matching, true);
    const refused = await server.owner.post('/realm/profile_fields', { name: 'About', field_type: 2, use_for_user_matching: true });
    assertError(refused, 400, 'Field type not supported for user matching.');
    assert.ok(!ok(await server.owner.get('/realm/profile_fields'), 'list').custom_fields.some((f: any) => f.name === 'About'));
    const date = ok(await server.owner.post('/realm/profile_fields', { name: 'Birthday', field_type: 4 }), 'date');
    assertError(await server.owner.patch(`/realm/profile_fields/${date.id}`, { use_for_user_matching: true }), 400, 'Field type not supported for user matching.');
    const notBool = await server.owner.post('/realm/profile_fields', { name: 'Nick', field_type: 1, use_for_user_matching: 'yes' });
    assert.equal(notBool.status, 400);
    assert.equal(notBool.body.result, 'error');
    const member = await server.createUser('Fay Fieldless');
    assertError(await member.patch(`/realm/profile_fields/${date.id}`, { use_for_user_matching: false }), 400, 'Must be an organization administrator');
  });
});

describe("changing a bot's email by its short_name (feature levels 447 and 461)", () => {
  test('the bot gets the new address, everyone hears of it in realm_user events, and no realm_bot event carries it', async () => {
    const created = ok(await server.owner.post('/bots', { full_name: 'Renamed Bot', short_name: 'before' }), 'bot');
    const botId = created.user_id as number;
    const oldEmail = ok(await server.owner.get(`/users/${botId}`), 'get').user.email as string;
    const domain = oldEmail.split('@')[1];
    const member = await server.createUser('Mia Watcher');
    const ownerEvents = await listen12(server.owner);
    const memberEvents = await listen12(member);

    const response = await server.owner.patch(`/bots/${botId}`, { short_name: ' after ' });
    ok(response, 'patch');
    const newEmail = `after-bot@${domain}`;
    const user = ok(valid12('GET', `/users/${botId}`, await server.owner.get(`/users/${botId}`)), 'get').user;
    assert.equal(user.email, newEmail);
    assert.equal(user.delivery_email, newEmail);

    for (const next of [ownerEvents, memberEvents]) {
      const events = await next();
      assert.ok(!events.some((e) => e.type === 'realm_bot'), JSON.stringify(events));
      const people = events.filter((e) => e.type === 'realm_user').map((e) => e.person);
      assert.ok(people.some((p) => p.user_id === botId && p.new_email === newEmail), JSON.stringify(people));
      assert.ok(people.some((p) => p.user_id === botId && p.delivery_email === newEmail), JSON.stringify(people));
    }

    // The bot logs in with its new address; the old one names nobody.
    const apiKey = ok(await server.owner.get(`/bots/${botId}/api_key`), 'key').api_key;
    const asBot = server.anonymous.as({ email: newEmail, apiKey });
    assert.equal(ok(await asBot.get('/users/me'), 'me').email, newEmail);
    assert.equal((await server.anonymous.as({ email: oldEmail, apiKey }).get('/users/me')).status, 401);

    await server.restart();
    const row = server.stoa.db.prepare('SELECT email, delivery_email FROM users WHERE id = ?').get(botId);
    assert.deepEqual(row, { email: newEmail, delivery_email: newEmail });
  });

  test('the same short name changes nothing; a taken or malformed one, or a bot one may not administer, is refused', async () => {
    const first = ok(await server.owner.post('/bots', { full_name: 'First Short Bot', short_name: 'firstshort' }), 'first').user_id;
    ok(await server.owner.post('/bots', { full_name: 'Second Short Bot', short_name: 'secondshort' }), 'second');
    const stranger = await server.createUser('Sam Stranger');
    const next = await listen12(server.owner);
    ok(await server.owner.patch(`/bots/${first}`, { short_name: 'firstshort' }), 'same');
    assert.deepEqual((await next()).filter((e) => e.type === 'realm_user'), []);
    assertError(await server.owner.patch(`/bots/${first}`, { short_name: 'secondshort' }), 400, 'Username already in use');
    assertError(await server.owner.patch(`/bots/${first}`, { short_name: '   ' }), 400, 'Bad name or username');
    assertError(await server.owner.patch(`/bots/${first}`, { short_name: 'no spaces' }), 400, 'Bad name or username');
    // A refused request changes nothing, not even what it named besides.
    assertError(await server.owner.patch(`/bots/${first}`, { full_name: 'Changed Too', short_name: 'secondshort' }), 400, 'Username already in use');
    const user = ok(await server.owner.get(`/users/${first}`), 'get').user;
    assert.equal(user.full_name, 'First Short Bot');
    assert.match(user.email, /^firstshort-bot@/);
    assertError(await stranger.patch(`/bots/${first}`, { short_name: 'stolen' }), 400, 'Insufficient permission');
    assert.deepEqual((await next()).filter((e) => e.type === 'realm_user'), []);
  });
});

describe('DELETE /users/{user_id} with actions (feature level 459)', () => {
  test("deletes what was asked of the user's and their bots' messages and their profile, then deactivates them", async () => {
    const leaving = await server.createUser('Lou Leaving');
    const bot = ok(await leaving.post('/bots', { full_name: 'Leaving Bot', short_name: 'leavingbot' }), 'bot');
    const botClient = server.anonymous.as({ email: ok(await server.owner.get(`/users/${bot.user_id}`), 'get').user.email, apiKey: bot.api_key });
    const everyone = JSON.stringify([server.ownerId, leaving.userId, bot.user_id]);
    const open = await createChannel(server.owner, { principals: everyone });
    const closed = await createChannel(server.owner, { principals: everyone, invite_only: true });
    const publicIds = [
      await sendMessage(leaving, { type: 'stream', to: open.name, topic: 'one', content: 'public one' }),
      await sendMessage(leaving, { type: 'stream', to: open.name, topic: 'two', content: 'public two' }),
    ];
    const botPublic = await sendMessage(botClient, { type: 'stream', to: open.name, topic: 'one', content: 'from the bot' });
    const privateId = await sendMessage(leaving, { type: 'stream', to: closed.name, topic: 'kept', content: 'private' });
    const directId = await sendMessage(leaving, { type: 'direct', to: JSON.stringify([server.ownerId]), content: 'direct' });
    const ownerMessage = await sendMessage(server.owner, { type: 'stream', to: open.name, topic: 'one', content: 'stays' });

    const next = await listen12(server.owner, { client_capabilities: JSON.stringify({ bulk_message_deletion: true }) });
    const actions = { delete_profile: true, delete_public_channel_messages: true, delete_direct_messages: true };
    ok(valid12('DELETE', `/users/${leaving.userId}`, await server.owner.delete(`/users/${leaving.userId}`, { actions: JSON.stringify(actions) })), 'deactivate');

    const events = await next();
    const deleted = events.filter((e) => e.type === 'delete_message').flatMap((e) => e.message_ids);
    assert.deepEqual(deleted.sort((a, b) => a - b), [...publicIds, botPublic, directId].sort((a, b) => a - b));
    const direct = events.find((e) => e.type === 'delete_message' && e.message_type === 'private');
    assert.deepEqual(direct?.message_ids, [directId]);
    const people = events.filter((e) => e.type === 'realm_user').map((e) => e.person);
    for (const id of [leaving.userId, bot.user_id]) {
      assert.ok(people.some((p) => p.user_id === id && p.full_name === 'Deleted user'), JSON.stringify(people));
      assert.ok(people.some((p) => p.user_id === id && p.is_active === false), JSON.stringify(people));
    }
    // The bot's profile and messages go before its owner's, and the deactivation comes last.
    const order = events.map((e) => (e.type === 'realm_user' && e.person.full_name ? `name:${e.person.user_id}` : e.type === 'realm_user' && 'is_active' in e.person ? `off:${e.person.user_id}` : null)).filter(Boolean);
    assert.deepEqual(order, [`name:${bot.user_id}`, `name:${leaving.userId}`, `off:${leaving.userId}`, `off:${bot.user_id}`]);

    const left = ok(await server.owner.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 1000, narrow: '[]' }), 'messages').messages.map((m: any) => m.id);
    for (const id of [...publicIds, botPublic, directId]) assert.ok(!left.includes(id), `message ${id} is gone`);
    assert.ok(left.includes(privateId) && left.includes(ownerMessage));
    await server.restart();
    const rows = server.stoa.db.prepare('SELECT id FROM messages WHERE sender_id IN (?, ?) ORDER BY id').all(leaving.userId, bot.user_id);
    assert.deepEqual(rows, [{ id: privateId }]);
    const users = server.stoa.db.prepare('SELECT full_name, is_active FROM users WHERE id IN (?, ?) ORDER BY id').all(leaving.userId, bot.user_id);
    assert.deepEqual(users, [
      { full_name: 'Deleted user', is_active: 0 },
      { full_name: 'Deleted user', is_active: 0 },
    ]);
  });

  test('without actions only the deactivation happens; malformed actions are refused and change nothing', async () => {
    const quiet = await server.createUser('Quinn Quiet');
    const channel = await createChannel(server.owner, { principals: JSON.stringify([server.ownerId, quiet.userId]) });
    const kept = await sendMessage(quiet, { type: 'stream', to: channel.name, topic: 'kept', content: 'still here' });
    for (const bad of ['{"delete_everything": true}', '{"delete_profile": "yes"}', 'not json', '[]']) {
      const refused = await server.owner.delete(`/users/${quiet.userId}`, { actions: bad });
      assert.equal(refused.status, 400, `${bad}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.result, 'error');
    }
    assert.equal(ok(await server.owner.get(`/users/${quiet.userId}`), 'get').user.is_active, true);
    const member = await server.createUser('Max Member');
    assertError(await member.delete(`/users/${quiet.userId}`, { actions: JSON.stringify({ delete_direct_messages: true }) }), 400, 'Insufficient permission');
    ok(await server.owner.delete(`/users/${quiet.userId}`), 'deactivate');
    ok(await server.owner.get(`/messages/${kept}`), 'kept');
    assert.equal(ok(await server.owner.get(`/users/${quiet.userId}`), 'get').user.full_name, 'Quinn Quiet');
  });
});

describe('PATCH /settings for other users (feature level 444)', () => {
  test('an administrator changes the settings of the people and group members named; each hears only of their own', async () => {
    const named = await server.createUser('Nia Named');
    const inGroup = await server.createUser('Gil Grouped');
    const bystander = await server.createUser('Bo Bystander');
    const group = ok(
      await server.owner.post('/user_groups/create', { name: 'bulk settings', description: 'for 444', members: JSON.stringify([inGroup.userId]) }),
      'group',
    ).group_id as number;
    const listeners = await Promise.all([named, inGroup, bystander].map((client) => listen12(client)));

    const response = await server.owner.patch('/settings', {
      target_users: JSON.stringify({ user_ids: [named.userId], group_ids: [group], skip_if_already_edited: false }),
      twenty_four_hour_time: true,
      emojiset: 'text',
    });
    ok(valid12('PATCH', '/settings', response), 'bulk');
    for (const next of listeners.slice(0, 2)) {
      const events = (await next()).filter((e) => e.type === 'user_settings');
      assert.deepEqual(
        events.map((e) => [e.op, e.property, e.value]),
        [
          ['update', 'twenty_four_hour_time', true],
          ['update', 'emojiset', 'text'],
        ],
      );
    }
    assert.deepEqual((await listeners[2]()).filter((e) => e.type === 'user_settings'), []);
    for (const client of [named, inGroup]) {
      const state = await register(client, { fetch_event_types: ['user_settings'] });
      assert.equal(state.user_settings.twenty_four_hour_time, true);
      assert.equal(state.user_settings.emojiset, 'text');
    }
    assert.equal((await register(bystander, { fetch_event_types: ['user_settings'] })).user_settings.twenty_four_hour_time, false);
    const own = await register(server.owner, { fetch_event_types: ['user_settings'] });
    assert.equal(own.user_settings.emojiset, 'google', "the administrator's own settings stay as they were");

    await server.restart();
    const stored = server.stoa.db
      .prepare("SELECT user_id, name, value FROM user_settings WHERE name IN ('twenty_four_hour_time', 'emojiset') AND user_id IN (?, ?, ?) ORDER BY user_id, name")
      .all(named.userId, inGroup.userId, bystander.userId);
    assert.deepEqual(stored, [
      { user_id: named.userId, name: 'emojiset', value: '"text"' },
      { user_id: named.userId, name: 'twenty_four_hour_time', value: 'true' },
      { user_id: inGroup.userId, name: 'emojiset', value: '"text"' },
      { user_id: inGroup.userId, name: 'twenty_four_hour_time', value: 'true' },
    ]);
  });

  test('skip_if_already_edited leaves alone a setting someone changed themselves, and only that one', async () => {
    const chooser = await server.createUser('Cy Chooser');
    const other = await server.createUser('Oz Other');
    ok(await chooser.patch('/settings', { enter_sends: false }), 'own choice');
    ok(await chooser.patch('/settings', { enter_sends: true }), 'own choice back');
    const next = await listen12(chooser);
    ok(
      await server.owner.patch('/settings', {
        target_users: JSON.stringify({ user_ids: [chooser.userId, other.userId], skip_if_already_edited: true }),
        enter_sends: false,
        left_side_userlist: true,
      }),
      'bulk',
    );
    assert.deepEqual(
      (await next()).filter((e) => e.type === 'user_settings').map((e) => [e.property, e.value]),
      [['left_side_userlist', true]],
    );
    const settings = async (client: Client) => (await register(client, { fetch_event_types: ['user_settings'] })).user_settings;
    assert.equal((await settings(chooser)).enter_sends, true);
    assert.equal((await settings(other)).enter_sends, false);
    // A change an administrator made does not count as the person's own.
    ok(await server.owner.patch('/settings', { target_users: JSON.stringify({ user_ids: [other.userId], skip_if_already_edited: true }), enter_sends: true }), 'again');
    assert.equal((await settings(other)).enter_sends, true);
    // Without skipping, everyone named gets the value.
    ok(
      await server.owner.patch('/settings', { target_users: JSON.stringify({ user_ids: [chooser.userId], skip_if_already_edited: false }), enter_sends: false }),
      'forced',
    );
    assert.equal((await settings(chooser)).enter_sends, false);
  });

  test("refused as Zulip refuses: non-administrators, unknown people and groups, no one named, security-sensitive settings; a refused request changes nothing", async () => {
    const member = await server.createUser('Mo Member');
    const target = await server.createUser('Ty Target');
    const targets = (t: object) => JSON.stringify({ skip_if_already_edited: false, ...t });
    assertError(await member.patch('/settings', { target_users: targets({ user_ids: [target.userId] }), emojiset: 'text' }), 400, 'Must be an organization administrator');
    assertError(await server.owner.patch('/settings', { target_users: targets({ user_ids: [target.userId, 999999] }), emojiset: 'text' }), 400, 'Invalid user ID: 999999');
    assertError(await server.owner.patch('/settings', { target_users: targets({ group_ids: [999999] }), emojiset: 'text' }), 400, 'Invalid user group');
    for (const nobody of [{}, { user_ids: [], group_ids: [] }]) {
      assertError(await server.owner.patch('/settings', { target_users: targets(nobody), emojiset: 'text' }), 400, 'Either user_ids or group_ids must be provided.');
    }
    const unsaid = await server.owner.patch('/settings', { target_users: JSON.stringify({ user_ids: [target.userId] }), emojiset: 'text' });
    assertError(unsaid, 400, 'target_users["skip_if_already_edited"] is missing');
    const refusedForOthers = [
      { timezone: 'Europe/Paris' },
      { email: 'new@example.com' },
      { new_password: 'a-new-password-1', old_password: 'x' },
      { presence_enabled: 'false' },
      { send_read_receipts: 'false' },
      { allow_private_data_export: 'true' },
      { email_address_visibility: '5' },
      { enable_digest_emails: 'false' },
      { emojiset: 'text', send_private_typing_notifications: 'false' },
    ];
    for (const params of refusedForOthers) {
      assertError(await server.owner.patch('/settings', { target_users: targets({ user_ids: [target.userId] }), ...params }), 400, 'Cannot change this setting for other users.');
    }
    assertError(await server.owner.patch('/settings', { target_users: targets({ user_ids: [target.userId] }), emojiset: 'no such set' }), 400, 'Invalid emojiset');
    const malformed = await server.owner.patch('/settings', { target_users: targets({ users: [target.userId] }), emojiset: 'text' });
    assert.equal(malformed.status, 400, JSON.stringify(malformed.body));
    assert.equal(malformed.body.result, 'error');
    const state = await register(target, { fetch_event_types: ['user_settings', 'realm_user'] });
    assert.equal(state.user_settings.emojiset, 'google');
    assert.equal(state.user_settings.presence_enabled, true);
    assert.equal(state.full_name, 'Ty Target');
  });

  test('reaches deactivated people named, passes over bots and the name, as Zulip does', async () => {
    const target = await server.createUser('Al Active');
    const away = await server.createUser('De Activated');
    ok(await server.owner.delete(`/users/${away.userId}`), 'deactivate');
    const bot = ok(await server.owner.post('/bots', { full_name: 'Settings Bot', short_name: 'settingsbot' }), 'bot').user_id as number;
    ok(
      await server.owner.patch('/settings', {
        target_users: JSON.stringify({ user_ids: [target.userId, away.userId, bot], skip_if_already_edited: false }),
        emojiset: 'text',
        full_name: 'Not Renamed',
      }),
      'bulk',
    );
    const stored = (userId: number) =>
      server.stoa.db.prepare("SELECT value FROM user_settings WHERE user_id = ? AND name = 'emojiset'").pluck().get(userId);
    assert.equal(stored(target.userId), '"text"');
    assert.equal(stored(away.userId), '"text"', 'the change holds for someone who comes back');
    assert.equal(stored(bot), undefined);
    assert.equal(ok(await server.owner.get(`/users/${target.userId}`), 'get').user.full_name, 'Al Active');
  });
});

describe('the organization default_avatar_source (feature level 456)', () => {
  test("with 'J' new accounts get a generated avatar served here; 'G' brings back provider-hosted ones; register and events follow", async () => {
    const own = await server.createUser('Gia Gravatar');
    const next = await listen12(server.owner);
    ok(valid12('PATCH', '/realm', await server.owner.patch('/realm', { default_avatar_source: 'J' })), 'to J');
    const events = (await next()).filter((e) => e.type === 'realm');
    assert.deepEqual(events, [{ type: 'realm', op: 'update', property: 'default_avatar_source', value: 'J' }]);
    assert.equal((await register(server.owner, { fetch_event_types: ['realm'] })).realm_default_avatar_source, 'J');

    const created = ok(await server.owner.post('/users', { email: 'pattern@example.com', password: 'secret-password', full_name: 'Pat Tern' }), 'create');
    const added = (await next()).find((e) => e.type === 'realm_user' && e.op === 'add');
    const person = ok(valid12('GET', `/users/${created.user_id}`, await server.owner.get(`/users/${created.user_id}`, { client_gravatar: true })), 'get').user;
    // A generated avatar is the server's, so even a client that computes gravatars is given its URL.
    assert.match(person.avatar_url, /^\/user_avatars\/\d+\/[0-9a-f]{40}\.png\?version=1$/);
    assert.equal(person.avatar_version, 1);
    assert.equal(added?.person.avatar_url, person.avatar_url);
    const picture = await fetch(new URL(person.avatar_url, server.url));
    assert.equal(picture.status, 200);
    assert.equal(picture.headers.get('content-type'), 'image/png');
    const bytes = Buffer.from(await picture.arrayBuffer());
    assert.deepEqual([...bytes.subarray(1, 4)], [...Buffer.from('PNG')]);
    const patterned = server.anonymous.as({ email: 'pattern@example.com', apiKey: ok(await server.anonymous.post('/fetch_api_key', { username: 'pattern@example.com', password: 'secret-password' }), 'login').api_key });
    const me = await register(patterned, { fetch_event_types: ['realm_user'] });
    assert.equal(me.avatar_source, 'J');
    assert.equal(me.avatar_url, person.avatar_url);

    // Someone who had a provider-hosted avatar keeps it until they reset theirs to the default.
    assert.match(ok(await server.owner.get(`/users/${own.userId}`, { client_gravatar: false }), 'get').user.avatar_url, /gravatar/);
    const reset = ok(await own.delete('/users/me/avatar'), 'reset');
    assert.match(reset.avatar_url, /^\/user_avatars\//);
    assert.equal((await fetch(new URL(reset.avatar_url, server.url))).status, 200);

    await server.restart();
    assert.equal(server.stoa.db.prepare("SELECT value FROM realm_settings WHERE key = 'realm_default_avatar_source'").pluck().get(), '"J"');
    assert.equal((await fetch(new URL(person.avatar_url, server.url))).status, 200);
    ok(await server.owner.patch('/realm', { default_avatar_source: 'G' }), 'to G');
    const later = ok(await server.owner.post('/users', { email: 'plain@example.com', password: 'secret-password', full_name: 'Plain Later' }), 'create');
    assert.match(ok(await server.owner.get(`/users/${later.user_id}`, { client_gravatar: false }), 'get').user.avatar_url, /gravatar/);
  });

  test("'U' and unknown sources are refused, and only administrators may choose", async () => {
    for (const value of ['U', 'X']) assertError(await server.owner.patch('/realm', { default_avatar_source: value }), 400, 'Invalid default_avatar_source');
    const member = await server.createUser('Mem Ber');
    assertError(await member.patch('/realm', { default_avatar_source: 'J' }), 400, 'Must be an organization administrator');
    assert.equal((await register(server.owner, { fetch_event_types: ['realm'] })).realm_default_avatar_source, 'G');
  });
});

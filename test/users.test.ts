import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { write } from '../lib/events/send';
import { OWNER_EMAIL, TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

const USER_FIELDS = [
  'avatar_url',
  'avatar_version',
  'bot_owner_id',
  'bot_type',
  'date_joined',
  'delivery_email',
  'email',
  'full_name',
  'is_active',
  'is_admin',
  'is_bot',
  'is_guest',
  'is_imported_stub',
  'is_owner',
  'role',
  'timezone',
  'user_id',
];

describe('GET /users/me', () => {
  test('returns the caller with every own-user field', async () => {
    const response = await server.owner.get('/users/me');
    assert.equal(response.status, 200);
    const me = response.body;
    const ownFields = USER_FIELDS.filter((f) => f !== 'bot_type' && f !== 'bot_owner_id');
    assert.deepEqual(Object.keys(me).sort(), [...ownFields, 'max_message_id', 'msg', 'profile_data', 'result'].sort());
    assert.equal(me.email, OWNER_EMAIL);
    assert.equal(me.delivery_email, OWNER_EMAIL);
    assert.equal(me.role, 100);
    assert.equal(me.is_owner, true);
    assert.equal(me.is_admin, true);
    assert.equal(me.is_guest, false);
    assert.equal(me.is_bot, false);
    assert.equal(me.is_active, true);
    assert.equal(typeof me.avatar_url, 'string');
    assert.deepEqual(me.profile_data, {});
    assert.equal(me.max_message_id, -1);
    assert.ok(!Number.isNaN(Date.parse(me.date_joined)));
  });
});

describe('GET /users', () => {
  test('lists every account of the organization, without the notification bot', async () => {
    const alice = await server.createUser('Alice');
    const response = await server.owner.get('/users');
    assert.equal(response.status, 200);
    const emails = response.body.members.map((m: { email: string }) => m.email);
    assert.ok(emails.includes(OWNER_EMAIL));
    assert.ok(emails.includes(alice.credentials.email));
    assert.ok(!emails.some((e: string) => e.startsWith('notification-bot@')));
    for (const member of response.body.members) {
      assert.deepEqual(Object.keys(member).sort(), USER_FIELDS);
    }
  });

  test('includes profile_data for people only when custom profile fields are asked for', async () => {
    const response = await server.owner.get('/users', { include_custom_profile_fields: true });
    for (const member of response.body.members) assert.deepEqual(member.profile_data, {});
  });

  test('gives avatar_url null under client_gravatar, and a URL without it', async () => {
    const gravatar = await server.owner.get('/users', { client_gravatar: true });
    assert.ok(gravatar.body.members.every((m: { avatar_url: unknown }) => m.avatar_url === null));
    const urls = await server.owner.get('/users', { client_gravatar: false });
    assert.ok(urls.body.members.every((m: { avatar_url: unknown }) => typeof m.avatar_url === 'string'));
  });
});

describe('GET /users/{user_id} and /users/{email}', () => {
  test('return the same user', async () => {
    const bob = await server.createUser('Bob');
    const byId = await server.owner.get(`/users/${bob.userId}`);
    assert.equal(byId.status, 200);
    assert.equal(byId.body.user.full_name, 'Bob');
    const byEmail = await server.owner.get(`/users/${encodeURIComponent(bob.credentials.email)}`);
    assert.equal(byEmail.status, 200);
    assert.deepEqual(byEmail.body.user, byId.body.user);
  });

  test('answer No such user for unknown users and for the notification bot', async () => {
    const bot = server.stoa.db.prepare('SELECT id, email FROM users WHERE is_system_bot = 1').get() as {
      id: number;
      email: string;
    };
    for (const path of ['/users/999999', '/users/ghost@example.com', `/users/${bot.id}`, `/users/${bot.email}`]) {
      const response = await server.owner.get(path);
      assert.equal(response.status, 400, path);
      assert.deepEqual(response.body, { result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    }
  });
});

describe('delivery_email', () => {
  test('is visible or null according to the target user’s email_address_visibility', async () => {
    const target = await server.createUser('Hidden');
    const member = await server.createUser('Member');
    const setVisibility = (value: number) => target.patch('/settings', { email_address_visibility: value });
    const seenBy = async (client: typeof member) =>
      (await client.get(`/users/${target.userId}`)).body.user.delivery_email as string | null;

    await setVisibility(3); // administrators only
    assert.equal(await seenBy(member), null);
    assert.equal(await seenBy(server.owner as typeof member), target.credentials.email);
    assert.equal(await seenBy(target), target.credentials.email, 'users always see their own');
    await setVisibility(1); // everyone
    assert.equal(await seenBy(member), target.credentials.email);
  });

  test('of a hidden user makes avatar_url a URL even under client_gravatar', async () => {
    const target = await server.createUser('Private');
    const member = await server.createUser('Viewer');
    await target.patch('/settings', { email_address_visibility: 4 }); // nobody
    const response = await member.get(`/users/${target.userId}`, { client_gravatar: true });
    assert.equal(response.body.user.delivery_email, null);
    assert.equal(typeof response.body.user.avatar_url, 'string');
  });
});

describe('POST /users', () => {
  test('creates a member who can then log in with the password', async () => {
    const response = await server.owner.post('/users', {
      email: 'new.person@example.com',
      password: 'a-good-password',
      full_name: 'New Person',
    });
    assert.equal(response.status, 200);
    assert.equal(typeof response.body.user_id, 'number');
    const login = await server.anonymous.post('/fetch_api_key', {
      username: 'new.person@example.com',
      password: 'a-good-password',
    });
    assert.equal(login.status, 200);
    assert.equal(login.body.user_id, response.body.user_id);
    const user = (await server.owner.get(`/users/${response.body.user_id}`)).body.user;
    assert.equal(user.role, 400);
    assert.equal(user.full_name, 'New Person');
  });

  test('refuses an email already in use, whatever its case', async () => {
    const response = await server.owner.post('/users', {
      email: OWNER_EMAIL.toUpperCase(),
      password: 'a-good-password',
      full_name: 'Copy',
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { result: 'error', msg: 'Email is already in use.', code: 'BAD_REQUEST' });
  });

  test('refuses bad names, emails and passwords without creating anyone', async () => {
    const before = (await server.owner.get('/users')).body.members.length;
    const cases: Array<[Record<string, string>, string]> = [
      [{ email: 'not-an-email', password: 'a-good-password', full_name: 'X' }, 'Bad name or username'],
      [{ email: 'blank@example.com', password: 'a-good-password', full_name: '   ' }, 'Name too short!'],
      [{ email: 'long@example.com', password: 'a-good-password', full_name: 'x'.repeat(101) }, 'Name too long!'],
      [{ email: 'weak@example.com', password: '123', full_name: 'Weak' }, 'The password is too weak.'],
    ];
    for (const [params, msg] of cases) {
      const response = await server.owner.post('/users', params);
      assert.equal(response.status, 400, msg);
      assert.equal(response.body.msg, msg);
    }
    assert.equal((await server.owner.get('/users')).body.members.length, before);
  });

  test('is for administrators only', async () => {
    const member = await server.createUser();
    const response = await member.post('/users', { email: 'm@example.com', password: 'secret-pw', full_name: 'M' });
    assert.equal(response.status, 400);
    assert.equal(response.body.msg, 'Must be an organization administrator');
  });

  test('needs the can_create_users permission even for an administrator', async () => {
    const admin = await server.createUser('Admin');
    await server.owner.patch(`/users/${admin.userId}`, { role: 200 });
    const response = await admin.post('/users', { email: 'a2@example.com', password: 'secret-pw', full_name: 'A' });
    assert.equal(response.status, 400);
    assert.equal(response.body.msg, 'User not authorized to create users');
    server.grantCanCreateUsers(admin.userId);
    const allowed = await admin.post('/users', { email: 'a2@example.com', password: 'secret-pw', full_name: 'A' });
    assert.equal(allowed.status, 200);
  });
});

describe('the organization', () => {
  test('has the eight system groups with roles nested inside each other', () => {
    const groups = server.stoa.db
      .prepare('SELECT id, name FROM user_groups WHERE is_system_group = 1')
      .all() as Array<{ id: number; name: string }>;
    const byName = new Map(groups.map((g) => [g.name, g.id]));
    assert.deepEqual(
      [...byName.keys()].sort(),
      ['role:administrators', 'role:everyone', 'role:fullmembers', 'role:internet', 'role:members', 'role:moderators', 'role:nobody', 'role:owners'],
    );
    const contains = (outer: string, inner: string) =>
      server.stoa.groups.subgroupIds(byName.get(outer)!).includes(byName.get(inner)!);
    assert.ok(contains('role:internet', 'role:everyone'));
    assert.ok(contains('role:everyone', 'role:members'));
    assert.ok(contains('role:members', 'role:fullmembers'));
    assert.ok(contains('role:fullmembers', 'role:moderators'));
    assert.ok(contains('role:moderators', 'role:administrators'));
    assert.ok(contains('role:administrators', 'role:owners'));
    assert.deepEqual(server.stoa.groups.directMemberIds(byName.get('role:nobody')!), []);
    const owner = server.stoa.users.firstOwner()!;
    assert.ok(server.stoa.groups.directMemberIds(byName.get('role:owners')!).includes(owner.id));
  });
});

describe('kept user rows', () => {
  // lib/users/queries.ts keeps rows between requests; these are the ways one could go stale.
  test('a change undone by a failed transaction is not remembered', async () => {
    const user = await server.createUser('Kept Name');
    assert.throws(() =>
      write(server.stoa, () => {
        server.stoa.users.setFullName(user.userId, 'Undone Name');
        assert.equal(server.stoa.users.byId(user.userId)!.full_name, 'Undone Name', 'the transaction sees its own write');
        throw new Error('undo');
      }),
    );
    assert.equal(server.stoa.users.byId(user.userId)!.full_name, 'Kept Name');
    const me = await user.get('/users/me');
    assert.equal(me.body.full_name, 'Kept Name');
  });

  test('a new API key takes effect at once, and the old one stops working', async () => {
    const owner = await server.createUser();
    const bot = (await owner.post('/bots', { full_name: 'Key Keeper', short_name: 'key-keeper' })).body;
    const email = (await owner.get(`/users/${bot.user_id}`)).body.user.email;
    const asBot = owner.as({ email, apiKey: bot.api_key });
    assert.equal((await asBot.get('/users/me')).status, 200);
    const regenerated = await owner.post(`/bots/${bot.user_id}/api_key/regenerate`);
    assert.equal(regenerated.status, 200);
    const stale = await asBot.get('/users/me');
    assert.equal(stale.status, 401);
    assert.equal(stale.body.code, 'INVALID_API_KEY');
    assert.equal((await owner.as({ email, apiKey: regenerated.body.api_key }).get('/users/me')).status, 200);
  });
});

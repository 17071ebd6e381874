import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ok } from './support/fixtures';
import { listen } from './support/events';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

describe('PATCH /users/{user_id}', () => {
  test('changes the role, moving the user between role groups, and tells everyone', async () => {
    const user = await server.createUser();
    const watcher = await listen(server.owner, { event_types: ['realm_user', 'user_group'] });
    const response = await server.owner.patch(`/users/${user.userId}`, { role: 300 });
    assert.equal(response.status, 200);
    const events = await watcher();
    assert.deepEqual(events, [
      { type: 'user_group', op: 'remove_members', group_id: server.groupId('role:members'), user_ids: [user.userId] },
      { type: 'user_group', op: 'remove_members', group_id: server.groupId('role:fullmembers'), user_ids: [user.userId] },
      { type: 'user_group', op: 'add_members', group_id: server.groupId('role:moderators'), user_ids: [user.userId] },
      { type: 'realm_user', op: 'update', person: { user_id: user.userId, role: 300 } },
    ]);
    const me = await user.get('/users/me');
    assert.equal(me.body.role, 300);
  });

  test('new_email: the owner who set up the server changes an address; everyone hears what they may see', async () => {
    const target = await server.createUser();
    const hidden = await server.createUser();
    await hidden.patch('/settings', { email_address_visibility: 3 });
    const member = await server.createUser();
    const memberEvents = await listen(member, { event_types: ['realm_user'] });
    const ownerEvents = await listen(server.owner, { event_types: ['realm_user'] });
    const response = await server.owner.patch(`/users/${target.userId}`, { new_email: 'moved@example.org' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const seen = (await memberEvents()).map((e) => e.person);
    assert.deepEqual(seen[0], { user_id: target.userId, delivery_email: 'moved@example.org' });
    assert.deepEqual(seen[1], { user_id: target.userId, new_email: 'moved@example.org' });
    assert.ok(seen.slice(2).every((p) => p.user_id === target.userId && 'avatar_url' in p), 'the provider-hosted avatar follows the address');
    assert.equal((await server.owner.get(`/users/${target.userId}`)).body.user.delivery_email, 'moved@example.org');
    assert.equal((await server.owner.get('/users/moved@example.org')).body.user.user_id, target.userId);
    assert.ok((await ownerEvents()).length >= 2);

    // An address only administrators may see reaches them alone; the API email stays a stand-in.
    const hiddenEvents = await listen(member, { event_types: ['realm_user'] });
    const adminEvents = await listen(server.owner, { event_types: ['realm_user'] });
    assert.equal((await server.owner.patch(`/users/${hidden.userId}`, { new_email: 'secret@example.org' })).status, 200);
    assert.ok(!(await hiddenEvents()).some((e) => 'delivery_email' in e.person || 'new_email' in e.person));
    assert.ok((await adminEvents()).some((e) => e.person.delivery_email === 'secret@example.org'));
    assert.equal((await member.get(`/users/${hidden.userId}`)).body.user.email, `user${hidden.userId}@stoa.local`);

    await server.restart();
    assert.equal((await server.owner.get(`/users/${target.userId}`)).body.user.delivery_email, 'moved@example.org');
  });

  test('new_email: refused without the special permission, for a bad or taken address; the same address changes nothing', async () => {
    const target = await server.createUser();
    const other = await server.createUser();
    const admin = await server.createUser();
    await server.owner.patch(`/users/${admin.userId}`, { role: 200 });
    const denied = await admin.patch(`/users/${target.userId}`, { new_email: 'x@example.org' });
    assert.deepEqual([denied.status, denied.body.msg], [400, 'User not authorized to change user emails']);
    const bad = await server.owner.patch(`/users/${target.userId}`, { new_email: 'not an address' });
    assert.deepEqual([bad.status, bad.body.msg], [400, 'New email value error: Invalid address.']);
    const otherEmail = (await other.get('/users/me')).body.delivery_email;
    const taken = await server.owner.patch(`/users/${target.userId}`, { new_email: otherEmail.toUpperCase() });
    assert.deepEqual([taken.status, taken.body.msg], [400, 'New email value error: Email is already in use.']);
    // Refused as a whole: the name in the same request is not changed either.
    const mixed = await admin.patch(`/users/${target.userId}`, { full_name: 'Not Applied', new_email: 'y@example.org' });
    assert.equal(mixed.status, 400);
    assert.notEqual((await target.get('/users/me')).body.full_name, 'Not Applied');
    const own = (await target.get('/users/me')).body.delivery_email;
    const events = await listen(server.owner, { event_types: ['realm_user'] });
    assert.equal((await admin.patch(`/users/${target.userId}`, { new_email: own })).status, 200, 'unchanged needs no permission');
    assert.deepEqual(await events(), []);
  });

  test('renames a user', async () => {
    const user = await server.createUser();
    await server.owner.patch(`/users/${user.userId}`, { full_name: 'Renamed' });
    assert.equal((await user.get('/users/me')).body.full_name, 'Renamed');
  });

  test('a guest stops seeing emails visible to members only', async () => {
    const target = await server.createUser();
    await target.patch('/settings', { email_address_visibility: 2 });
    const viewer = await server.createUser();
    const events = await listen(viewer, { event_types: ['realm_user'] });
    await server.owner.patch(`/users/${viewer.userId}`, { role: 600 });
    const people = (await events()).map((e) => e.person);
    assert.ok(people.some((p) => p.user_id === target.userId && p.delivery_email === null));
    assert.equal((await viewer.get(`/users/${target.userId}`)).body.user.delivery_email, null);
  });

  test('is for administrators, and owners alone make or unmake owners', async () => {
    const member = await server.createUser();
    const target = await server.createUser();
    const denied = await member.patch(`/users/${target.userId}`, { role: 200 });
    assert.deepEqual([denied.status, denied.body], [400, { result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' }]);

    const admin = await server.createUser();
    await server.owner.patch(`/users/${admin.userId}`, { role: 200 });
    const promote = await admin.patch(`/users/${target.userId}`, { role: 100 });
    assert.equal(promote.body.msg, 'Must be an organization owner');
    const demoteOwner = await admin.patch(`/users/${server.ownerId}`, { role: 400 });
    assert.equal(demoteOwner.body.msg, 'Must be an organization owner');
    const invalid = await server.owner.patch(`/users/${target.userId}`, { role: 500 });
    assert.equal(invalid.body.msg, 'Invalid role');
  });

  test('keeps the last owner an owner', async () => {
    const response = await server.owner.patch(`/users/${server.ownerId}`, { role: 200 });
    assert.equal(response.status, 400);
    assert.equal(response.body.msg, 'The owner permission cannot be removed from the only organization owner.');
  });
});

describe('PATCH /users/{email}', () => {
  test('does what PATCH /users/{user_id} does, for the user with that email', async () => {
    const user = await server.createUser();
    const watcher = await listen(server.owner, { event_types: ['realm_user'] });
    const email = user.credentials.email;
    const response = await server.owner.patch(`/users/${encodeURIComponent(email)}`, { full_name: 'Renamed By Email', role: 300 });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(await watcher(), [
      { type: 'realm_user', op: 'update', person: { user_id: user.userId, full_name: 'Renamed By Email' } },
      { type: 'realm_user', op: 'update', person: { user_id: user.userId, role: 300 } },
    ]);
    const me = (await user.get('/users/me')).body;
    assert.equal(me.full_name, 'Renamed By Email');
    assert.equal(me.role, 300);
  });

  test('is for administrators, and an unknown email is no such user', async () => {
    const user = await server.createUser();
    const other = await server.createUser();
    const refused = await user.patch(`/users/${other.credentials.email}`, { full_name: 'Nope' });
    assert.deepEqual(refused.body, { result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' });
    const unknown = await server.owner.patch('/users/nobody@example.com', { full_name: 'Nope' });
    assert.deepEqual(unknown.body, { result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    const lastOwner = await server.owner.patch(`/users/${server.owner.credentials!.email}`, { role: 200 });
    assert.equal(lastOwner.body.msg, 'The owner permission cannot be removed from the only organization owner.');
  });
});

describe('DELETE /users/me/avatar', () => {
  test('goes back to the provider-hosted avatar with a new version, telling everyone', async () => {
    const user = await server.createUser();
    const before = (await user.get('/users/me')).body;
    const watcher = await listen(server.owner, { event_types: ['realm_user'] });
    const response = await user.delete('/users/me/avatar');
    assert.equal(response.status, 200);
    const after = (await user.get('/users/me')).body;
    assert.equal(after.avatar_version, before.avatar_version + 1);
    assert.equal(response.body.avatar_url, after.avatar_url);
    const [event] = await watcher();
    assert.deepEqual(event.person, {
      user_id: user.userId,
      avatar_url: after.avatar_url,
      avatar_source: 'G',
      avatar_url_medium: `${after.avatar_url}&s=500`,
      avatar_version: after.avatar_version,
    });
  });
});

describe('deactivating and reactivating', () => {
  test('a deactivated user is logged out, listed as non-active, and dropped from groups', async () => {
    const user = await server.createUser();
    const userQueue = (await user.post('/register', { fetch_event_types: [] })).body.queue_id;
    const watcher = await listen(server.owner, { event_types: ['realm_user'] });

    const response = await server.owner.delete(`/users/${user.userId}`);
    assert.equal(response.status, 200);
    assert.deepEqual(await watcher(), [{ type: 'realm_user', op: 'update', person: { user_id: user.userId, is_active: false } }]);
    assert.equal((await user.get('/users/me')).body.code, 'USER_DEACTIVATED');
    assert.equal(server.stoa.queues.count > 0, true);
    assert.throws(() => server.stoa.queues.get(user.userId, userQueue), 'its queues are gone');

    const state = await server.owner.post('/register', { fetch_event_types: ['realm_user', 'realm_user_groups'] });
    assert.ok(state.body.realm_non_active_users.some((u: { user_id: number }) => u.user_id === user.userId));
    assert.ok(!state.body.realm_users.some((u: { user_id: number }) => u.user_id === user.userId));
    for (const group of state.body.realm_user_groups) assert.ok(!group.members.includes(user.userId), group.name);

    const again = await server.owner.delete(`/users/${user.userId}`);
    assert.equal(again.body.msg, 'User is deactivated');
  });

  test('a reactivated user logs in again and is back in their groups', async () => {
    const user = await server.createUser();
    await server.owner.delete(`/users/${user.userId}`);
    const watcher = await listen(server.owner, { event_types: ['realm_user', 'user_group'] });
    const response = await server.owner.post(`/users/${user.userId}/reactivate`);
    assert.equal(response.status, 200);
    const events = await watcher();
    assert.deepEqual(events[0], { type: 'realm_user', op: 'update', person: { user_id: user.userId, is_active: true } });
    assert.ok(events.some((e) => e.op === 'add_members' && e.group_id === server.groupId('role:members')));
    assert.equal((await user.get('/users/me')).status, 200);
    const twice = await server.owner.post(`/users/${user.userId}/reactivate`);
    assert.equal(twice.body.msg, 'User is already active');
  });

  test('the last owner cannot be deactivated, by others or by themselves', async () => {
    const admin = await server.createUser();
    await server.owner.patch(`/users/${admin.userId}`, { role: 200 });
    const byAdmin = await admin.delete(`/users/${server.ownerId}`);
    assert.equal(byAdmin.body.msg, 'Must be an organization owner');
    const bySelf = await server.owner.delete('/users/me');
    assert.equal(bySelf.status, 400);
    assert.deepEqual(bySelf.body, {
      result: 'error',
      msg: 'Cannot deactivate the only organization owner.',
      code: 'CANNOT_DEACTIVATE_LAST_USER',
      entity: 'organization owner',
      is_last_owner: true,
    });
  });

  test('a member can deactivate their own account', async () => {
    const user = await server.createUser();
    assert.equal((await user.delete('/users/me')).status, 200);
    assert.equal((await user.get('/users/me')).status, 401);
  });

  test('is for administrators', async () => {
    const member = await server.createUser();
    const target = await server.createUser();
    assert.equal((await member.delete(`/users/${target.userId}`)).body.msg, 'Insufficient permission');
    assert.equal((await member.post(`/users/${target.userId}/reactivate`)).body.msg, 'Insufficient permission');
  });

  test("refuses other people's changes with Zulip's words and codes: members, guests and bot owners alike", async () => {
    const member = await server.createUser();
    const guest = await server.createUser();
    const target = await server.createUser();
    ok(await server.owner.patch(`/users/${guest.userId}`, { role: 600 }), 'make guest');
    const bot = ok(await member.post('/bots', { full_name: 'Parity Bot', short_name: 'parity' }), 'bot').user_id as number;
    const insufficient = { result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' };
    for (const client of [member, guest]) {
      for (const response of [
        await client.patch(`/users/${target.userId}`, { full_name: 'Renamed' }),
        await client.patch(`/users/${target.userId}`, { role: 200 }),
        await client.patch(`/users/${target.credentials.email}`, { full_name: 'Renamed' }),
        await client.delete(`/users/${target.userId}`),
        await client.post(`/users/${target.userId}/reactivate`),
      ]) {
        assert.deepEqual([response.status, response.body], [400, insufficient]);
      }
    }
    // A bot's owner may rename it through PATCH /users, not give it a role, nor deactivate it
    // there (DELETE /users is for people; bots go through DELETE /bots).
    ok(await member.patch(`/users/${bot}`, { full_name: 'Parity Bot Two' }), 'rename bot');
    const promoted = await member.patch(`/users/${bot}`, { role: 200 });
    assert.deepEqual(promoted.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    assert.deepEqual((await server.owner.delete(`/users/${bot}`)).body, { result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    const renamed = await member.patch(`/users/${target.userId}`, { new_email: 'elsewhere@example.com' });
    assert.equal(renamed.body.msg, 'Insufficient permission');
    // The only owner deactivating themselves by ID, as Zulip words it there.
    const self = await server.owner.delete(`/users/${server.ownerId}`);
    assert.deepEqual(self.body, { result: 'error', msg: 'Cannot deactivate the only organization owner', code: 'BAD_REQUEST' });
    assert.equal((await target.get('/users/me')).body.full_name, (await server.owner.get(`/users/${target.userId}`)).body.user.full_name);
    assert.equal((await server.owner.get(`/users/${target.userId}`)).body.user.role, 400, 'nothing changed');
  });
});

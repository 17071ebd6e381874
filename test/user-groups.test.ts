import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from './support/client';
import { listen } from './support/events';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

let groupCount = 0;
function uniqueGroupName(prefix = 'team'): string {
  groupCount += 1;
  return `${prefix} ${groupCount}`;
}

/** Creates a group through the API and answers its ID. */
async function createGroup(client: Client, params: Record<string, unknown> = {}): Promise<number> {
  const response = await client.post('/user_groups/create', { name: uniqueGroupName(), description: '', members: [], ...params });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.group_id as number;
}

async function groupById(client: Client, id: number): Promise<Record<string, any>> {
  const groups = (await client.get('/user_groups', { include_deactivated_groups: true })).body.user_groups;
  return groups.find((g: { id: number }) => g.id === id);
}

async function expectError(response: { status: number; body: any }, msg: string, code = 'BAD_REQUEST'): Promise<void> {
  assert.equal(response.status, 400, JSON.stringify(response.body));
  assert.equal(response.body.msg, msg);
  assert.equal(response.body.code, code);
}

describe('POST /user_groups/create', () => {
  test('creates a group with its creator managing it, telling everyone', async () => {
    const creator = await server.createUser();
    const member = await server.createUser();
    const events = await listen(member, { event_types: ['user_group'] });
    const name = uniqueGroupName('backend');
    const response = await creator.post('/user_groups/create', { name, description: 'Backend team', members: [member.userId] });
    assert.equal(response.status, 200);
    const id = response.body.group_id;
    const group = await groupById(creator, id);
    const creatorOnly = { direct_members: [creator.userId], direct_subgroups: [] };
    assert.deepEqual(group, {
      id,
      name,
      description: 'Backend team',
      date_created: group.date_created,
      creator_id: creator.userId,
      members: [member.userId],
      direct_subgroup_ids: [],
      is_system_group: false,
      deactivated: false,
      can_add_members_group: creatorOnly,
      can_join_group: server.groupId('role:nobody'),
      can_leave_group: server.groupId('role:everyone'),
      can_manage_group: creatorOnly,
      can_mention_group: server.groupId('role:everyone'),
      can_remove_members_group: server.groupId('role:nobody'),
    });
    assert.equal(typeof group.date_created, 'number');
    assert.deepEqual(await events(), [{ type: 'user_group', op: 'add', group }]);
  });

  test('takes subgroups and every group setting, a subgroup arriving as its own event', async () => {
    const member = await server.createUser();
    const sub = await createGroup(server.owner, { members: [member.userId] });
    const events = await listen(member, { event_types: ['user_group'] });
    const moderators = server.groupId('role:moderators');
    const id = await createGroup(server.owner, {
      subgroups: [sub],
      can_add_members_group: moderators,
      can_join_group: server.groupId('role:members'),
      can_leave_group: { direct_members: [member.userId], direct_subgroups: [moderators] },
      can_manage_group: { direct_members: [], direct_subgroups: [moderators] },
      can_mention_group: { direct_members: [], direct_subgroups: [] },
      can_remove_members_group: moderators,
    });
    const group = await groupById(server.owner, id);
    assert.deepEqual(group.direct_subgroup_ids, [sub]);
    assert.equal(group.can_add_members_group, moderators);
    assert.equal(group.can_join_group, server.groupId('role:members'));
    assert.deepEqual(group.can_leave_group, { direct_members: [member.userId], direct_subgroups: [moderators] });
    // A set that is exactly one group is that group; an empty set is nobody.
    assert.equal(group.can_manage_group, moderators);
    assert.equal(group.can_mention_group, server.groupId('role:nobody'));
    const [added, subgroups] = await events();
    assert.deepEqual(added.group.direct_subgroup_ids, []);
    assert.deepEqual(subgroups, { type: 'user_group', op: 'add_subgroups', group_id: id, direct_subgroup_ids: [sub] });
  });

  test('refuses bad members, names, settings and subgroups, creating nothing', async () => {
    const gone = await server.createUser();
    await server.owner.delete(`/users/${gone.userId}`);
    const taken = uniqueGroupName('Taken');
    await createGroup(server.owner, { name: taken });
    const deactivated = await createGroup(server.owner);
    await server.owner.post(`/user_groups/${deactivated}/deactivate`);
    const before = (await server.owner.get('/user_groups', { include_deactivated_groups: true })).body.user_groups.length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ members: [999999] }, 'Invalid user ID: 999999'],
      [{ members: [gone.userId] }, `Invalid user ID: ${gone.userId}`],
      [{ name: '  ' }, "User group name can't be empty!"],
      [{ name: 'x'.repeat(101) }, 'User group name cannot exceed 100 characters.'],
      [{ name: 'role:team' }, "User group name cannot start with 'role:'."],
      [{ name: '@team' }, "User group name cannot start with '@'."],
      [{ name: taken.toUpperCase() }, `User group '${taken.toUpperCase()}' already exists.`],
      [{ can_manage_group: server.groupId('role:everyone') }, "'can_manage_group' setting cannot be set to 'role:everyone' group."],
      [{ can_manage_group: server.groupId('role:internet') }, "'can_manage_group' setting cannot be set to 'role:internet' group."],
      [{ can_mention_group: server.groupId('role:owners') }, "'can_mention_group' setting cannot be set to 'role:owners' group."],
      [{ can_mention_group: server.groupId('role:internet') }, "'can_mention_group' setting cannot be set to 'role:internet' group."],
      [{ can_join_group: 999999 }, 'Invalid user group'],
      [{ can_join_group: deactivated }, 'User group is deactivated.'],
      [{ can_leave_group: { direct_members: [999999], direct_subgroups: [] } }, 'Invalid user ID: 999999'],
      [{ subgroups: [999999] }, 'Invalid user group ID: 999999'],
      [{ subgroups: [deactivated] }, 'User group is deactivated.'],
    ];
    for (const [params, msg] of cases) {
      await expectError(await server.owner.post('/user_groups/create', { name: uniqueGroupName(), description: '', members: [], ...params }), msg);
    }
    const missing = await server.owner.post('/user_groups/create', { name: uniqueGroupName(), description: '' });
    await expectError(missing, "Missing 'members' argument", 'REQUEST_VARIABLE_MISSING');
    assert.equal((await server.owner.get('/user_groups', { include_deactivated_groups: true })).body.user_groups.length, before);
  });
});

describe('GET /user_groups', () => {
  test('lists the system groups and active groups, deactivated ones only when asked', async () => {
    const id = await createGroup(server.owner);
    await server.owner.post(`/user_groups/${id}/deactivate`);
    const active = (await server.owner.get('/user_groups')).body.user_groups;
    assert.ok(active.some((g: { name: string }) => g.name === 'role:members'));
    assert.ok(!active.some((g: { id: number }) => g.id === id));
    const all = (await server.owner.get('/user_groups', { include_deactivated_groups: true })).body.user_groups;
    assert.equal(all.find((g: { id: number }) => g.id === id).deactivated, true);
    // Anonymous groups that hold settings are never listed.
    assert.ok(all.every((g: { name: string | null }) => typeof g.name === 'string'));
  });
});

describe('PATCH /user_groups/{user_group_id}', () => {
  test('renames, redescribes and reconfigures a group, one update event per change', async () => {
    const watcher = await server.createUser();
    const id = await createGroup(server.owner);
    const events = await listen(watcher, { event_types: ['user_group'] });
    const name = uniqueGroupName('renamed');
    const moderators = server.groupId('role:moderators');
    const creatorOnly = { direct_members: [server.ownerId], direct_subgroups: [] };
    const response = await server.owner.patch(`/user_groups/${id}`, {
      name,
      description: 'New words',
      can_manage_group: { new: moderators, old: creatorOnly },
      can_join_group: { new: { direct_members: [watcher.userId], direct_subgroups: [] } },
      can_leave_group: { new: server.groupId('role:everyone') },
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    // can_leave_group already was role:everyone, so it is not announced.
    assert.deepEqual(await events(), [
      { type: 'user_group', op: 'update', group_id: id, data: { name } },
      { type: 'user_group', op: 'update', group_id: id, data: { description: 'New words' } },
      { type: 'user_group', op: 'update', group_id: id, data: { can_join_group: { direct_members: [watcher.userId], direct_subgroups: [] } } },
      { type: 'user_group', op: 'update', group_id: id, data: { can_manage_group: moderators } },
    ]);
    const group = await groupById(server.owner, id);
    assert.equal(group.name, name);
    assert.equal(group.description, 'New words');
    assert.equal(group.can_manage_group, moderators);
  });

  test('refuses empty requests, unknown and system groups, stale old values and taken names, changing nothing', async () => {
    const id = await createGroup(server.owner, { description: 'kept' });
    const other = uniqueGroupName('other');
    await createGroup(server.owner, { name: other });
    await expectError(await server.owner.patch(`/user_groups/${id}`, {}), 'No new data supplied');
    await expectError(await server.owner.patch('/user_groups/999999', { name: 'x' }), 'Invalid user group');
    await expectError(await server.owner.patch(`/user_groups/${server.groupId('role:members')}`, { description: 'x' }), 'Insufficient permission');
    const stale = await server.owner.patch(`/user_groups/${id}`, {
      description: 'changed',
      can_manage_group: { new: server.groupId('role:members'), old: server.groupId('role:moderators') },
    });
    await expectError(stale, "'old' value does not match the expected value.", 'EXPECTATION_MISMATCH');
    await expectError(await server.owner.patch(`/user_groups/${id}`, { name: other }), `User group '${other}' already exists.`);
    await expectError(
      await server.owner.patch(`/user_groups/${id}`, { can_manage_group: { new: server.groupId('role:everyone') } }),
      "'can_manage_group' setting cannot be set to 'role:everyone' group.",
    );
    assert.equal((await groupById(server.owner, id)).description, 'kept');
  });
});

describe('POST /user_groups/{user_group_id}/members', () => {
  test('adds and removes members and subgroups, telling everyone', async () => {
    const [a, b] = [await server.createUser(), await server.createUser()];
    const sub = await createGroup(server.owner);
    const id = await createGroup(server.owner, { members: [a.userId] });
    const events = await listen(a, { event_types: ['user_group'] });
    const response = await server.owner.post(`/user_groups/${id}/members`, { add: [b.userId], delete: [a.userId], add_subgroups: [sub] });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(await events(), [
      { type: 'user_group', op: 'add_members', group_id: id, user_ids: [b.userId] },
      { type: 'user_group', op: 'remove_members', group_id: id, user_ids: [a.userId] },
      { type: 'user_group', op: 'add_subgroups', group_id: id, direct_subgroup_ids: [sub] },
    ]);
    assert.deepEqual((await groupById(server.owner, id)).members, [b.userId]);
    assert.equal((await server.owner.post(`/user_groups/${id}/members`, { delete_subgroups: [sub] })).status, 200);
    assert.deepEqual(await events(), [{ type: 'user_group', op: 'remove_subgroups', group_id: id, direct_subgroup_ids: [sub] }]);
  });

  test('refuses empty requests, inactive users, present members and absent ones, changing nothing', async () => {
    const [a, gone] = [await server.createUser(), await server.createUser()];
    await server.owner.delete(`/users/${gone.userId}`);
    const id = await createGroup(server.owner, { members: [a.userId] });
    const url = `/user_groups/${id}/members`;
    await expectError(
      await server.owner.post(url, {}),
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    );
    await expectError(await server.owner.post(url, { add: [gone.userId] }), `Invalid user ID: ${gone.userId}`);
    await expectError(await server.owner.post(url, { add: [999999] }), 'Invalid user ID: 999999');
    await expectError(await server.owner.post(url, { add: [a.userId] }), `User ${a.userId} is already a member of this group`);
    await expectError(await server.owner.post(url, { delete: [server.ownerId] }), `There is no member '${server.ownerId}' in this user group`);
    // The second change fails, so the first is not made either.
    await expectError(await server.owner.post(url, { add: [server.ownerId], delete: [gone.userId] }), `Invalid user ID: ${gone.userId}`);
    await expectError(await server.owner.post('/user_groups/999999/members', { add: [a.userId] }), 'Invalid user group');
    await expectError(await server.owner.post(`/user_groups/${server.groupId('role:members')}/members`, { add: [a.userId] }), 'Insufficient permission');
    assert.deepEqual((await groupById(server.owner, id)).members, [a.userId]);
  });

  test('lets users join and leave as can_join_group and can_leave_group allow', async () => {
    const user = await server.createUser();
    const id = await createGroup(server.owner, { can_join_group: server.groupId('role:members'), can_leave_group: server.groupId('role:nobody') });
    assert.equal((await user.post(`/user_groups/${id}/members`, { add: [user.userId] })).status, 200);
    await expectError(await user.post(`/user_groups/${id}/members`, { delete: [user.userId] }), 'Insufficient permission');
    // Joining does not let one add others.
    await expectError(await user.post(`/user_groups/${id}/members`, { add: [server.ownerId] }), 'Insufficient permission');
    assert.deepEqual((await groupById(server.owner, id)).members, [user.userId]);
  });
});

describe('POST /user_groups/{user_group_id}/subgroups', () => {
  test('adds and removes subgroups, refusing cycles and repeats', async () => {
    const [top, middle, bottom] = [await createGroup(server.owner), await createGroup(server.owner), await createGroup(server.owner)];
    assert.equal((await server.owner.post(`/user_groups/${top}/subgroups`, { add: [middle] })).status, 200);
    assert.equal((await server.owner.post(`/user_groups/${middle}/subgroups`, { add: [bottom] })).status, 200);
    const url = (id: number) => `/user_groups/${id}/subgroups`;
    await expectError(await server.owner.post(url(bottom), { add: [top] }), `User group ${bottom} is already a subgroup of one of the passed subgroups.`);
    await expectError(await server.owner.post(url(top), { add: [top] }), `User group ${top} is already a subgroup of one of the passed subgroups.`);
    await expectError(await server.owner.post(url(top), { add: [middle] }), `User group ${middle} is already a subgroup of this group.`);
    await expectError(await server.owner.post(url(top), { delete: [bottom] }), `User group ${bottom} is not a subgroup of this group.`);
    await expectError(await server.owner.post(url(top), { add: [999999] }), 'Invalid user group ID: 999999');
    await expectError(await server.owner.post(url(top), {}), 'Nothing to do. Specify at least one of "add" or "delete".');
    assert.equal((await server.owner.post(url(top), { delete: [middle] })).status, 200);
    assert.deepEqual((await groupById(server.owner, top)).direct_subgroup_ids, []);
  });
});

describe('reading membership', () => {
  test('answers members and subgroups, directly or through subgroups', async () => {
    const [a, b, gone] = [await server.createUser(), await server.createUser(), await server.createUser()];
    const bottom = await createGroup(server.owner, { members: [b.userId, gone.userId] });
    const middle = await createGroup(server.owner, { subgroups: [bottom] });
    const top = await createGroup(server.owner, { members: [a.userId], subgroups: [middle] });
    await server.owner.delete(`/users/${gone.userId}`);
    const get = (path: string, params = {}) => a.get(`/user_groups/${top}${path}`, params);
    assert.deepEqual((await get('/members')).body.members, [a.userId, b.userId]);
    assert.deepEqual((await get('/members', { direct_member_only: true })).body.members, [a.userId]);
    assert.deepEqual((await get('/subgroups')).body.subgroups, [middle, bottom].sort((x, y) => x - y));
    assert.deepEqual((await get('/subgroups', { direct_subgroup_only: true })).body.subgroups, [middle]);
    assert.equal((await get(`/members/${b.userId}`)).body.is_user_group_member, true);
    assert.equal((await get(`/members/${b.userId}`, { direct_member_only: true })).body.is_user_group_member, false);
    // Deactivated users are members of nothing.
    assert.equal((await a.get(`/user_groups/${bottom}/members/${gone.userId}`)).body.is_user_group_member, false);
    await expectError(await get('/members/999999'), 'No such user');
    await expectError(await a.get('/user_groups/999999/members'), 'Invalid user group');
  });
});

describe('POST /user_groups/{user_group_id}/deactivate', () => {
  test('deactivates a group: capable clients get an update, older ones a remove', async () => {
    const id = await createGroup(server.owner);
    const modern = await listen(server.owner, { event_types: ['user_group'], client_capabilities: { include_deactivated_groups: true } });
    const old = await listen(server.owner, { event_types: ['user_group'] });
    assert.equal((await server.owner.post(`/user_groups/${id}/deactivate`)).status, 200);
    assert.deepEqual(await modern(), [{ type: 'user_group', op: 'update', group_id: id, data: { deactivated: true } }]);
    assert.deepEqual(await old(), [{ type: 'user_group', op: 'remove', group_id: id }]);
    await expectError(await server.owner.post(`/user_groups/${id}/deactivate`), 'User group is deactivated.');

    // Renaming and membership changes of a deactivated group reach capable clients only.
    const name = uniqueGroupName('dormant');
    assert.equal((await server.owner.patch(`/user_groups/${id}`, { name })).status, 200);
    assert.equal((await server.owner.post(`/user_groups/${id}/members`, { add: [server.ownerId] })).status, 200);
    assert.deepEqual(await modern(), [
      { type: 'user_group', op: 'update', group_id: id, data: { name } },
      { type: 'user_group', op: 'add_members', group_id: id, user_ids: [server.ownerId] },
    ]);
    assert.deepEqual(await old(), []);
    await expectError(await server.owner.get(`/user_groups/${id}/members`), 'User group is deactivated.');

    // Reactivating: capable clients get an update, older ones the whole group again.
    assert.equal((await server.owner.patch(`/user_groups/${id}`, { deactivated: false })).status, 200);
    assert.deepEqual(await modern(), [{ type: 'user_group', op: 'update', group_id: id, data: { deactivated: false } }]);
    assert.deepEqual(await old(), [{ type: 'user_group', op: 'add', group: await groupById(server.owner, id) }]);
    assert.deepEqual((await server.owner.get(`/user_groups/${id}/members`)).body.members, [server.ownerId]);
  });

  test('refuses a group in use, saying where', async () => {
    const used = await createGroup(server.owner);
    const supergroup = await createGroup(server.owner, { subgroups: [used] });
    const user = await createGroup(server.owner, { can_mention_group: { direct_members: [server.ownerId], direct_subgroups: [used] } });
    const created = await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'group-held channel' }],
      can_remove_subscribers_group: used,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const channelId = (await server.owner.get('/get_stream_id', { stream: 'group-held channel' })).body.stream_id;
    const response = await server.owner.post(`/user_groups/${used}/deactivate`);
    await expectError(response, 'Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE');
    assert.deepEqual(response.body.objections, [
      { type: 'subgroup', supergroup_ids: [supergroup] },
      { type: 'channel', channel_id: channelId, settings: ['can_remove_subscribers_group'] },
      { type: 'user_group', group_id: user, settings: ['can_mention_group'] },
    ]);
    assert.equal((await groupById(server.owner, used)).deactivated, false);
  });
});

describe('permissions', () => {
  /**
   * Each role against each action on a group made by "the creator" (a member). The defaults
   * are Zulip's: members and above may create groups, owners manage every group, the creator
   * manages theirs, nobody joins by themselves and any member may leave.
   */
  type Role = 'owner' | 'administrator' | 'moderator' | 'creator' | 'member' | 'guest';
  const ROLES: Role[] = ['owner', 'administrator', 'moderator', 'creator', 'member', 'guest'];
  const ROLE_VALUES: Record<Role, number> = { owner: 100, administrator: 200, moderator: 300, creator: 400, member: 400, guest: 600 };
  const managers = new Set<Role>(['owner', 'creator']);
  const expected: Record<string, (role: Role) => string | null> = {
    // require_user_group_create_permission refuses guests as require_member_or_admin does.
    create: (role) => (role === 'guest' ? 'Not allowed for guest users' : null),
    rename: (role) => (role === 'guest' ? 'Not allowed for guest users' : managers.has(role) ? null : 'Insufficient permission'),
    'add another': (role) => (role === 'guest' ? 'Not allowed for guest users' : managers.has(role) ? null : 'Insufficient permission'),
    join: (role) => (role === 'guest' ? 'Not allowed for guest users' : managers.has(role) ? null : 'Insufficient permission'),
    leave: (role) => (role === 'guest' ? 'Not allowed for guest users' : null),
    deactivate: (role) => (managers.has(role) ? null : 'Insufficient permission'),
  };

  test('follow the group and organization settings for every role', async () => {
    const clients = new Map<Role, Client & { userId: number }>();
    for (const role of ROLES) {
      const client = role === 'owner' ? Object.assign(server.owner, { userId: server.ownerId }) : await server.createUser(`The ${role}`);
      if (ROLE_VALUES[role] !== 400 && role !== 'owner') await server.owner.patch(`/users/${client.userId}`, { role: ROLE_VALUES[role] });
      clients.set(role, client);
    }
    const creator = clients.get('creator')!;
    const bystander = await server.createUser();
    for (const role of ROLES) {
      const client = clients.get(role)!;
      const fresh = async (members: number[] = []) => createGroup(creator, { members });
      const outcomes: Record<string, { status: number; body: any }> = {
        create: await client.post('/user_groups/create', { name: uniqueGroupName(role), description: '', members: [] }),
        rename: await client.patch(`/user_groups/${await fresh()}`, { name: uniqueGroupName(role) }),
        'add another': await client.post(`/user_groups/${await fresh()}/members`, { add: [bystander.userId] }),
        join: await client.post(`/user_groups/${await fresh()}/members`, { add: [client.userId] }),
        leave: await client.post(`/user_groups/${await fresh([client.userId])}/members`, { delete: [client.userId] }),
        deactivate: await client.post(`/user_groups/${await fresh()}/deactivate`),
      };
      for (const [action, response] of Object.entries(outcomes)) {
        const refusal = expected[action](role);
        if (refusal === null) assert.equal(response.status, 200, `${role} ${action}: ${JSON.stringify(response.body)}`);
        else assert.deepEqual([response.status, response.body.msg], [400, refusal], `${role} ${action}`);
      }
    }
  });

  test('can_add_members_group and can_remove_members_group grant just what they say', async () => {
    const [adder, target] = [await server.createUser(), await server.createUser()];
    const id = await createGroup(server.owner, {
      can_add_members_group: { direct_members: [adder.userId], direct_subgroups: [] },
      can_remove_members_group: { direct_members: [adder.userId], direct_subgroups: [] },
    });
    assert.equal((await adder.post(`/user_groups/${id}/members`, { add: [target.userId] })).status, 200);
    assert.equal((await adder.post(`/user_groups/${id}/members`, { delete: [target.userId] })).status, 200);
    await expectError(await adder.patch(`/user_groups/${id}`, { description: 'no' }), 'Insufficient permission');
    await expectError(await adder.post(`/user_groups/${id}/deactivate`), 'Insufficient permission');
  });

  test('guests may neither list groups nor read their members', async () => {
    const guest = await server.createUser();
    await server.owner.patch(`/users/${guest.userId}`, { role: 600 });
    await expectError(await guest.get('/user_groups'), 'Not allowed for guest users');
    await expectError(await guest.get(`/user_groups/${server.groupId('role:members')}/members`), 'Not allowed for guest users');
  });
});

describe('groups and channels', () => {
  test('joining a group that may subscribe to a private channel shows the channel; leaving hides it', async () => {
    const user = await server.createUser();
    const id = await createGroup(server.owner);
    const created = await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'held by a group' }],
      invite_only: true,
      can_subscribe_group: id,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const channelId = (await server.owner.get('/get_stream_id', { stream: 'held by a group' })).body.stream_id;
    const events = await listen(user, { event_types: ['stream', 'subscription'] });
    assert.equal((await server.owner.post(`/user_groups/${id}/members`, { add: [user.userId] })).status, 200);
    const shown = await events();
    assert.deepEqual(shown.map((e) => [e.type, e.op]), [['stream', 'create'], ['subscription', 'peer_add']]);
    assert.equal(shown[0].streams[0].stream_id, channelId);
    assert.equal((await user.get(`/streams/${channelId}`)).status, 200);
    assert.equal((await server.owner.post(`/user_groups/${id}/members`, { delete: [user.userId] })).status, 200);
    assert.deepEqual(await events(), [{ type: 'stream', op: 'delete', stream_ids: [channelId], streams: [{ stream_id: channelId }] }]);
  });
});

describe('deactivated users', () => {
  test('come back into the ad-hoc settings of groups that name them', async () => {
    const [holder, watcher] = [await server.createUser(), await server.createUser()];
    const setting = { direct_members: [holder.userId], direct_subgroups: [] };
    const id = await createGroup(server.owner, { can_leave_group: setting });
    await server.owner.delete(`/users/${holder.userId}`);
    assert.deepEqual((await groupById(server.owner, id)).can_leave_group, { direct_members: [], direct_subgroups: [] });
    const events = await listen(watcher, { event_types: ['user_group'] });
    await server.owner.post(`/users/${holder.userId}/reactivate`);
    assert.ok((await events()).some((e) => e.op === 'update' && e.group_id === id && e.data.can_leave_group?.direct_members[0] === holder.userId));
  });
});

describe('after a restart', () => {
  test('groups keep their members, subgroups, settings and state', async () => {
    const restartable = await TestServer.start();
    try {
      const user = await restartable.createUser();
      const sub = await createGroup(restartable.owner, { members: [user.userId] });
      const id = await createGroup(restartable.owner, { name: 'kept', description: 'still here', subgroups: [sub], can_join_group: sub });
      await restartable.owner.post(`/user_groups/${sub}/members`, { add: [restartable.ownerId] });
      const dormant = await createGroup(restartable.owner);
      await restartable.owner.post(`/user_groups/${dormant}/deactivate`);
      const before = (await restartable.owner.get('/user_groups', { include_deactivated_groups: true })).body.user_groups;
      await restartable.restart();
      const afterRestart = (await restartable.owner.get('/user_groups', { include_deactivated_groups: true })).body.user_groups;
      assert.deepEqual(afterRestart, before);
      const kept = afterRestart.find((g: { id: number }) => g.id === id);
      assert.deepEqual([kept.name, kept.description, kept.direct_subgroup_ids, kept.can_join_group], ['kept', 'still here', [sub], sub]);
      assert.equal(afterRestart.find((g: { id: number }) => g.id === dormant).deactivated, true);
    } finally {
      await restartable.close();
    }
  });
});

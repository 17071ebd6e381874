import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TestServer } from './support/server';

// The organization's groups in /register are the same for every client that handles the same
// groups, and are kept as JSON between registrations until a group, a membership or a user row
// is written. After each kind of change the kept answer must equal what a fresh server (the
// same data, started again, nothing kept) answers, and what GET /user_groups reads.

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function registeredGroups(withDeactivated: boolean): Promise<unknown> {
  const response = await server.owner.post('/register', {
    fetch_event_types: ['realm_user_groups'],
    client_capabilities: { include_deactivated_groups: withDeactivated },
  });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.realm_user_groups;
}

async function listedGroups(withDeactivated: boolean): Promise<unknown> {
  const response = await server.owner.get('/user_groups', { include_deactivated_groups: withDeactivated });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.user_groups;
}

/** The kept groups, for both kinds of client, equal the listed ones and a restarted server's. */
async function assertKeptGroupsFresh(): Promise<void> {
  const kept = [await registeredGroups(false), await registeredGroups(true)];
  assert.deepEqual(kept, [await listedGroups(false), await listedGroups(true)]);
  await server.restart();
  assert.deepEqual([await registeredGroups(false), await registeredGroups(true)], kept, 'a fresh server answers the same');
}

async function createGroup(members: number[]): Promise<number> {
  const response = await server.owner.post('/user_groups/create', { name: `team ${Math.random()}`, description: '', members });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.group_id as number;
}

describe('the kept groups of /register', () => {
  test('follow a group created, its members, subgroups, description and deactivation', async () => {
    const first = await server.createUser('First');
    const second = await server.createUser('Second');
    // Kept before any change, so that each change below has a kept answer to invalidate.
    await registeredGroups(false);
    await registeredGroups(true);
    const group = await createGroup([first.userId]);
    await assertKeptGroupsFresh();

    assert.equal((await server.owner.post(`/user_groups/${group}/members`, { add: [second.userId] })).status, 200);
    await assertKeptGroupsFresh();

    const sub = await createGroup([]);
    assert.equal((await server.owner.post(`/user_groups/${group}/subgroups`, { add: [sub] })).status, 200);
    await assertKeptGroupsFresh();

    assert.equal((await server.owner.patch(`/user_groups/${group}`, { description: 'changed' })).status, 200);
    await assertKeptGroupsFresh();

    assert.equal((await server.owner.post(`/user_groups/${group}/deactivate`)).status, 200);
    const withoutDeactivated = (await registeredGroups(false)) as Array<{ id: number }>;
    assert.ok(!withoutDeactivated.some((g) => g.id === group), 'a deactivated group is left out for clients that cannot handle it');
    await assertKeptGroupsFresh();
  });

  test('leave out a member once their account is deactivated, and show them again when reactivated', async () => {
    const member = await server.createUser('Member');
    const group = await createGroup([member.userId]);
    await registeredGroups(false);
    const members = async () => ((await registeredGroups(false)) as Array<{ id: number; members: number[] }>).find((g) => g.id === group)!.members;
    assert.deepEqual(await members(), [member.userId]);
    assert.equal((await server.owner.delete(`/users/${member.userId}`)).status, 200);
    assert.deepEqual(await members(), []);
    await assertKeptGroupsFresh();
    assert.equal((await server.owner.post(`/users/${member.userId}/reactivate`)).status, 200);
    assert.deepEqual(await members(), [member.userId]);
    await assertKeptGroupsFresh();
  });
});

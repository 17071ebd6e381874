import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import { TestServer } from './support/server';

// Parts of /register that are the same for many clients are kept as JSON between
// registrations until a table they are made of is written: the organization's groups, and each
// channel's fields and subscriber lists in `subscriptions`, `unsubscribed` and
// `never_subscribed`. After each kind of change the kept answer must equal what a fresh server
// (the same data, started again, nothing kept) answers.

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

/** What each of the people sees of the channels, in every listing a client may ask for. */
async function channelStates(people: Array<typeof server.owner>): Promise<unknown[]> {
  const states: unknown[] = [];
  for (const person of people) {
    for (const include_subscribers of [false, true, 'partial']) {
      const response = await person.post('/register', { fetch_event_types: ['subscription', 'stream'], include_subscribers });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      const { subscriptions, unsubscribed, never_subscribed, streams } = response.body;
      states.push({ subscriptions, unsubscribed, never_subscribed, streams });
    }
  }
  return states;
}

describe('the kept channels of /register', () => {
  test('follow subscribing, leaving, personal settings, renaming, deactivating a subscriber and a private channel', async () => {
    const first = await server.createUser('Channel first');
    const second = await server.createUser('Channel second');
    // A restart moves the server to a new port: clients are made afresh from their credentials.
    const as = (person: typeof first) => server.owner.as(person.credentials);
    const people = () => [server.owner, as(first), as(second)];
    const assertKeptChannelsFresh = async () => {
      const kept = await channelStates(people());
      await server.restart();
      assert.deepEqual(await channelStates(people()), kept, 'a fresh server answers the same');
    };
    await channelStates(people());
    const channel = await createChannel(server.owner);
    await assertKeptChannelsFresh();

    assert.equal((await as(first).post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }] })).status, 200);
    await assertKeptChannelsFresh();

    const color = await as(first).post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: channel.id, property: 'color', value: '#123456' }],
    });
    assert.equal(color.status, 200, JSON.stringify(color.body));
    await assertKeptChannelsFresh();

    assert.equal((await as(first).delete('/users/me/subscriptions', { subscriptions: [channel.name] })).status, 200);
    await assertKeptChannelsFresh();

    assert.equal((await server.owner.patch(`/streams/${channel.id}`, { new_name: `${channel.name} renamed` })).status, 200);
    await assertKeptChannelsFresh();

    assert.equal((await as(second).post('/users/me/subscriptions', { subscriptions: [{ name: `${channel.name} renamed` }] })).status, 200);
    await channelStates(people());
    assert.equal((await server.owner.delete(`/users/${second.userId}`)).status, 200);
    const kept = await channelStates([server.owner, as(first)]);
    await server.restart();
    assert.deepEqual(await channelStates([server.owner, as(first)]), kept);

    await createChannel(server.owner, { invite_only: true });
    const afterPrivate = await channelStates([server.owner, as(first)]);
    await server.restart();
    assert.deepEqual(await channelStates([server.owner, as(first)]), afterPrivate);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertValidResponse, openapiAvailable } from './support/openapi';
import { TestServer } from './support/server';
import { createChannel } from './support/channels';

// The `realm` part of /register is the same for everyone and is kept between registrations
// until one of the tables it is made of is written, as are the channels' rows. Each kind of
// write must show in the next registration, whoever makes it.

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function realmState(): Promise<Record<string, any>> {
  const response = await server.owner.post('/register', { fetch_event_types: ['realm'] });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  if (openapiAvailable) assertValidResponse('post', '/register', 200, response.body);
  return response.body;
}

describe('the kept realm state of /register', () => {
  test('is the same answer twice without a write', async () => {
    const { queue_id: firstQueue, ...first } = await realmState();
    const { queue_id: secondQueue, ...second } = await realmState();
    assert.notEqual(firstQueue, secondQueue);
    assert.deepEqual(second, first);
  });

  test('follows a change of the organization’s row (its name)', async () => {
    assert.equal((await realmState()).realm_name, 'Stoa');
    assert.equal((await server.owner.patch('/realm', { name: 'Agora' })).status, 200);
    assert.equal((await realmState()).realm_name, 'Agora');
  });

  test('follows a change of a setting, and the values computed from it', async () => {
    assert.equal((await realmState()).realm_avatar_changes_disabled, false);
    assert.equal((await server.owner.patch('/realm', { avatar_changes_disabled: true })).status, 200);
    assert.equal((await realmState()).realm_avatar_changes_disabled, true);
    const moderators = server.groupId('role:moderators');
    assert.equal((await server.owner.patch('/realm', { can_create_public_channel_group: { new: moderators } })).status, 200);
    const state = await realmState();
    assert.equal(state.realm_can_create_public_channel_group, moderators);
    assert.equal(state.realm_create_public_stream_policy, 4, 'the legacy policy follows the group');
  });

  test('follows the members of an ad-hoc group a setting names, deactivations included', async () => {
    const first = await server.createUser('First');
    const second = await server.createUser('Second');
    const value = { direct_members: [first.userId, second.userId], direct_subgroups: [] };
    assert.equal((await server.owner.patch('/realm', { can_resolve_topics_group: { new: value } })).status, 200);
    assert.deepEqual((await realmState()).realm_can_resolve_topics_group, value);
    // Deactivating writes only the user's row: the group's stored members are unchanged.
    assert.equal((await server.owner.delete(`/users/${second.userId}`)).status, 200);
    assert.deepEqual((await realmState()).realm_can_resolve_topics_group, { direct_members: [first.userId], direct_subgroups: [] });
  });

  test('follows a channel created, renamed and archived (streams and subscriptions)', async () => {
    const channel = await createChannel(server.owner);
    const listed = async () => {
      const response = await server.owner.post('/register', { fetch_event_types: ['stream', 'subscription'] });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      if (openapiAvailable) assertValidResponse('post', '/register', 200, response.body);
      const stream = response.body.streams.find((s: { stream_id: number }) => s.stream_id === channel.id);
      const subscription = response.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === channel.id);
      return { stream, subscription };
    };
    assert.equal((await listed()).stream.name, channel.name);
    assert.equal((await server.owner.patch(`/streams/${channel.id}`, { new_name: `${channel.name} renamed`, description: 'Renamed.' })).status, 200);
    const renamed = await listed();
    assert.equal(renamed.stream.name, `${channel.name} renamed`);
    assert.equal(renamed.subscription.name, `${channel.name} renamed`);
    assert.equal(renamed.subscription.description, 'Renamed.');
    assert.equal((await server.owner.delete(`/streams/${channel.id}`)).status, 200);
    const archived = await listed();
    assert.equal(archived.stream, undefined, 'an archived channel reaches only clients that handle them');
    assert.equal(archived.subscription, undefined);
  });

  test('lists the cross-realm bots alike for each role, whoever registered first', async () => {
    const member = await server.createUser('Bot watcher');
    const bots = async (client: typeof server.owner) => {
      const response = await client.post('/register', { fetch_event_types: ['realm_user'] });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      if (openapiAvailable) assertValidResponse('post', '/register', 200, response.body);
      return response.body.cross_realm_bots as Array<{ email: string; delivery_email: string | null; is_system_bot: boolean }>;
    };
    const ownersView = await bots(server.owner);
    const membersView = await bots(member);
    assert.ok(ownersView.length > 0 && ownersView.every((bot) => bot.is_system_bot));
    assert.deepEqual(membersView.map((bot) => bot.email), ownersView.map((bot) => bot.email));
    // The server's bots show their addresses to everyone.
    assert.deepEqual(membersView, ownersView);
    assert.ok(ownersView.every((bot) => bot.delivery_email === bot.email));
    assert.deepEqual(await bots(server.owner), ownersView);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import { listen } from './support/events';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function defaultChannels(client = server.owner): Promise<number[]> {
  const registered = await client.post('/register', { fetch_event_types: ['default_streams'] });
  assert.equal(registered.status, 200, JSON.stringify(registered.body));
  return registered.body.realm_default_streams as number[];
}

async function subscribedIds(client: typeof server.owner): Promise<number[]> {
  const response = await client.get('/users/me/subscriptions');
  return (response.body.subscriptions as Array<{ stream_id: number }>).map((s) => s.stream_id);
}

describe('POST and DELETE /default_streams', () => {
  test('an administrator adds and removes a default channel; members hear of it, guests do not, and new users join it', async () => {
    const { id } = await createChannel(server.owner);
    const member = await server.createUser();
    const guest = await server.createUser();
    await server.owner.patch(`/users/${guest.userId}`, { role: 600 });
    const memberEvents = await listen(member, { event_types: ['default_streams'] });
    const guestEvents = await listen(guest, { event_types: ['default_streams'] });

    const added = await server.owner.post('/default_streams', { stream_id: id });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(await memberEvents(), [{ type: 'default_streams', default_streams: [id] }]);
    assert.deepEqual(await guestEvents(), []);
    assert.deepEqual(await defaultChannels(member), [id]);
    assert.deepEqual(await defaultChannels(guest), []);
    const listed = await server.owner.get('/streams', { include_default: true });
    assert.equal((listed.body.streams as Array<{ stream_id: number; is_default: boolean }>).find((c) => c.stream_id === id)?.is_default, true);

    // Adding it again changes nothing and tells nobody.
    assert.equal((await server.owner.post('/default_streams', { stream_id: id })).status, 200);
    assert.deepEqual(await memberEvents(), []);

    const newcomer = await server.createUser();
    assert.ok((await subscribedIds(newcomer)).includes(id), 'a user created after the change joins the default channel');
    assert.ok(!(await subscribedIds(member)).includes(id), 'existing users are not subscribed');

    await server.restart();
    assert.deepEqual(await defaultChannels(), [id]);

    const owner = server.owner;
    const ownerEvents = await listen(owner, { event_types: ['default_streams'] });
    const removed = await owner.delete('/default_streams', { stream_id: id });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(await ownerEvents(), [{ type: 'default_streams', default_streams: [] }]);
    assert.deepEqual(await defaultChannels(), []);
    const later = await server.createUser();
    assert.ok(!(await subscribedIds(later)).includes(id));
  });

  test('only administrators may change the default channels', async () => {
    const { id } = await createChannel(server.owner);
    const member = await server.createUser();
    for (const response of [await member.post('/default_streams', { stream_id: id }), await member.delete('/default_streams', { stream_id: id })]) {
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    }
    assert.deepEqual(await defaultChannels(), []);
  });

  test('a private channel cannot be made default, nor can a channel that does not exist or is out of sight', async () => {
    const { id: privateId } = await createChannel(server.owner, { invite_only: true });
    const refused = await server.owner.post('/default_streams', { stream_id: privateId });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { result: 'error', msg: 'Private channels cannot be made default.', code: 'BAD_REQUEST' });

    const admin = await server.createUser();
    await server.owner.patch(`/users/${admin.userId}`, { role: 200 });
    const { id: hidden } = await createChannel(server.owner, { invite_only: true });
    for (const streamId of [999999, hidden]) {
      const response = await admin.post('/default_streams', { stream_id: streamId });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' });
    }
    const unknown = await server.owner.delete('/default_streams', { stream_id: 999999 });
    assert.deepEqual(unknown.body, { result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' });
    const missing = await server.owner.post('/default_streams', {});
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
    assert.deepEqual(await defaultChannels(), []);
  });

  test('an archived channel leaves the default channels', async () => {
    const { id } = await createChannel(server.owner);
    assert.equal((await server.owner.post('/default_streams', { stream_id: id })).status, 200);
    assert.equal((await server.owner.delete(`/streams/${id}`)).status, 200);
    assert.deepEqual(await defaultChannels(), []);
    const refused = await server.owner.post('/default_streams', { stream_id: id });
    assert.deepEqual(refused.body, { result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' });
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel, uniqueName } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function subscribedNames(client: Client): Promise<string[]> {
  const response = await client.get('/users/me/subscriptions');
  return (response.body.subscriptions as Array<{ name: string }>).map((s) => s.name).sort();
}

describe('PATCH /users/me/subscriptions', () => {
  test('joins the channels of add (creating new ones) and leaves those of delete, in one request', async () => {
    const user = await server.createUser();
    const { name: existing } = await createChannel(server.owner);
    const { name: leaving } = await createChannel(server.owner, { principals: [server.ownerId, user.userId] });
    const { name: alreadyIn } = await createChannel(server.owner, { principals: [server.ownerId, user.userId] });
    const created = uniqueName();
    const events = await listen(user, { event_types: ['subscription'] });

    const response = await user.patch('/users/me/subscriptions', {
      add: [{ name: existing }, { name: created, description: 'made here' }, { name: alreadyIn }],
      delete: [leaving],
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    // New channels come first, as on POST.
    assert.deepEqual(response.body, {
      result: 'success',
      msg: '',
      subscribed: { [String(user.userId)]: [created, existing] },
      already_subscribed: { [String(user.userId)]: [alreadyIn] },
      // Nobody else was subscribed, so nothing stood in the way of the notices (feature level 397).
      new_subscription_messages_sent: true,
      removed: [leaving],
      not_removed: [],
    });
    assert.deepEqual(await subscribedNames(user), [alreadyIn, created, existing].sort());
    const ops = (await events()).map((e) => e.op);
    assert.ok(ops.includes('add') && ops.includes('remove'), ops.join(','));
    const description = (await user.get(`/streams/${(await user.get('/get_stream_id', { stream: created })).body.stream_id}`)).body.stream.description;
    assert.equal(description, 'made here');
  });

  test('either list alone is enough; neither is an error', async () => {
    const user = await server.createUser();
    const { name } = await createChannel(server.owner);
    const joined = await user.patch('/users/me/subscriptions', { add: [{ name }] });
    assert.deepEqual(joined.body, {
      result: 'success',
      msg: '',
      subscribed: { [String(user.userId)]: [name] },
      already_subscribed: {},
      new_subscription_messages_sent: true,
      removed: [],
      not_removed: [],
    });
    const left = await user.patch('/users/me/subscriptions', { delete: [name, name] });
    assert.deepEqual(left.body.removed, [name]);
    assert.deepEqual(left.body.not_removed, [name]);
    const nothing = await user.patch('/users/me/subscriptions', {});
    assert.deepEqual(nothing.body, { result: 'error', msg: 'Nothing to do. Specify at least one of "add" or "delete".', code: 'BAD_REQUEST' });
  });

  test('a guest may leave channels with it', async () => {
    const guest = await server.createUser();
    const { name } = await createChannel(server.owner, { principals: [server.ownerId, guest.userId] });
    await server.owner.patch(`/users/${guest.userId}`, { role: 600 });
    const left = await guest.patch('/users/me/subscriptions', { delete: [name] });
    assert.equal(left.status, 200, JSON.stringify(left.body));
    assert.deepEqual(left.body.removed, [name]);
    assert.deepEqual(await subscribedNames(guest), []);
  });

  test('a refused half changes nothing', async () => {
    const user = await server.createUser();
    const { name } = await createChannel(server.owner);
    const { name: hidden } = await createChannel(server.owner, { invite_only: true });
    const refused = await user.patch('/users/me/subscriptions', { add: [{ name }], delete: ['no such channel'] });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.msg, 'Channel(s) (no such channel) do not exist');
    const unauthorized = await user.patch('/users/me/subscriptions', { add: [{ name }, { name: hidden }] });
    assert.equal(unauthorized.body.msg, `Unable to access channel (${hidden}).`);
    assert.deepEqual(await subscribedNames(user), []);
  });
});

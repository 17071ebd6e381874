import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import { listen } from './support/events';
import { sendMessage } from './support/messages';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function flagsOf(client: Awaited<ReturnType<TestServer['createUser']>>, id: number): Promise<string[]> {
  return (await client.get(`/messages/${id}`)).body.message.flags;
}

describe('POST /users/me/muted_users/{muted_user_id}', () => {
  test('mutes a user: the list and its event, and their earlier unread messages become read', async () => {
    const muter = await server.createUser();
    const noisy = await server.createUser();
    const earlier = await sendMessage(noisy, { type: 'direct', to: JSON.stringify([muter.userId]), content: 'before' });
    assert.deepEqual(await flagsOf(muter, earlier), []);
    const events = await listen(muter, { event_types: ['muted_users', 'update_message_flags'] });
    const muted = await muter.post(`/users/me/muted_users/${noisy.userId}`);
    assert.equal(muted.status, 200, JSON.stringify(muted.body));

    const seen = await events();
    assert.deepEqual(seen.map((e) => e.type), ['update_message_flags', 'muted_users']);
    assert.deepEqual([seen[0].op, seen[0].flag, seen[0].messages], ['add', 'read', [earlier]]);
    assert.deepEqual(seen[1].muted_users.map((m: { id: number }) => m.id), [noisy.userId]);
    assert.equal(typeof seen[1].muted_users[0].timestamp, 'number');
    assert.deepEqual(await flagsOf(muter, earlier), ['read']);

    const state = (await muter.post('/register', { fetch_event_types: ['muted_users'] })).body;
    assert.deepEqual(state.muted_users, seen[1].muted_users);
  });

  test('a muted sender’s new messages arrive read, also when they mention the muter', async () => {
    const muter = await server.createUser('Muter Person');
    const noisy = await server.createUser();
    const channel = await createChannel(server.owner, { principals: [muter.userId, noisy.userId] });
    await muter.post(`/users/me/muted_users/${noisy.userId}`);
    const events = await listen(muter, { event_types: ['message'] });
    const mention = await sendMessage(noisy, { type: 'stream', to: channel.id, topic: 't', content: '@**Muter Person** hi' });
    const direct = await sendMessage(noisy, { type: 'direct', to: JSON.stringify([muter.userId]), content: 'psst' });
    const [first, second] = await events();
    assert.deepEqual(first.flags.sort(), ['mentioned', 'read']);
    assert.deepEqual(second.flags, ['read']);
    assert.deepEqual((await flagsOf(muter, mention)).sort(), ['mentioned', 'read']);
    const unread = (await muter.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })).body.unread_msgs;
    const unreadIds = [...unread.pms, ...unread.streams, ...unread.huddles].flatMap((c: { unread_message_ids: number[] }) => c.unread_message_ids);
    assert.ok(!unreadIds.includes(mention) && !unreadIds.includes(direct) && !unread.mentions.includes(mention), JSON.stringify(unread));
  });

  test('unmuting keeps what was read and lets new messages arrive unread; mutes survive a restart', async () => {
    let muter = await server.createUser();
    let noisy = await server.createUser();
    const quiet = await server.createUser();
    await muter.post(`/users/me/muted_users/${noisy.userId}`);
    await muter.post(`/users/me/muted_users/${quiet.userId}`);
    const whileMuted = await sendMessage(noisy, { type: 'direct', to: JSON.stringify([muter.userId]), content: 'one' });
    await server.restart();
    // The server listens on a new port after a restart.
    muter = Object.assign(server.anonymous.as(muter.credentials), { userId: muter.userId, credentials: muter.credentials });
    noisy = Object.assign(server.anonymous.as(noisy.credentials), { userId: noisy.userId, credentials: noisy.credentials });
    const state = (await muter.post('/register', { fetch_event_types: ['muted_users'] })).body;
    assert.deepEqual(state.muted_users.map((m: { id: number }) => m.id).sort(), [noisy.userId, quiet.userId].sort());

    const events = await listen(muter, { event_types: ['muted_users'] });
    assert.equal((await muter.delete(`/users/me/muted_users/${noisy.userId}`)).status, 200);
    const [event] = await events();
    assert.deepEqual(event.muted_users.map((m: { id: number }) => m.id), [quiet.userId]);
    const afterwards = await sendMessage(noisy, { type: 'direct', to: JSON.stringify([muter.userId]), content: 'two' });
    assert.deepEqual(await flagsOf(muter, whileMuted), ['read']);
    assert.deepEqual(await flagsOf(muter, afterwards), []);
  });

  test('refuses oneself, unknown users, a second mute and unmuting someone not muted, with Zulip’s errors', async () => {
    const muter = await server.createUser();
    const other = await server.createUser();
    const cases: Array<['post' | 'delete', number, string]> = [
      ['post', muter.userId, 'Cannot mute self'],
      ['post', 999999, 'No such user'],
      ['delete', 999999, 'No such user'],
      ['delete', other.userId, 'User is not muted'],
    ];
    for (const [method, id, msg] of cases) {
      const response = await muter[method](`/users/me/muted_users/${id}`);
      assert.deepEqual([response.status, response.body.code, response.body.msg], [400, 'BAD_REQUEST', msg], `${method} ${id}`);
    }
    await muter.post(`/users/me/muted_users/${other.userId}`);
    const again = await muter.post(`/users/me/muted_users/${other.userId}`);
    assert.deepEqual([again.status, again.body.msg], [400, 'User already muted']);
  });

  test('bots and deactivated users can be muted, as on Zulip', async () => {
    const muter = await server.createUser();
    const leaving = await server.createUser();
    assert.equal((await server.owner.delete(`/users/${leaving.userId}`)).status, 200);
    assert.equal((await muter.post(`/users/me/muted_users/${leaving.userId}`)).status, 200);
    const bot = await server.owner.post('/bots', { full_name: 'Chatty Bot', short_name: 'chatty' });
    assert.equal(bot.status, 200, JSON.stringify(bot.body));
    assert.equal((await muter.post(`/users/me/muted_users/${bot.body.user_id}`)).status, 200);
  });
});

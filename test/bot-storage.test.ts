import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from './support/client';
import { TestServer } from './support/server';

/** GET, PUT and DELETE /bot_storage: each bot's own key-value storage, as zulip_bots uses it. */

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

let bots = 0;
async function newBot(owner: Client): Promise<Client> {
  bots += 1;
  const created = await owner.post('/bots', { full_name: `Storage Bot ${bots}`, short_name: `storage${bots}` });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const { email } = (await owner.get(`/users/${created.body.user_id}`)).body.user;
  return server.anonymous.as({ email, apiKey: created.body.api_key });
}

function refusal(response: { status: number; body: any }): string {
  assert.equal(response.status, 400, JSON.stringify(response.body));
  return response.body.msg;
}

describe('bot storage', () => {
  test('stores, lists, updates and removes entries, per bot, and keeps them over a restart', async () => {
    const owner = await server.createUser();
    const [bot, otherBot] = [await newBot(owner), await newBot(owner)];
    const initial = { 'key 1': 'value 1', 'key 2': 'value 2', 'key 3': 'value 3' };
    assert.equal((await bot.request('PUT', '/bot_storage', { storage: initial })).status, 200);
    assert.deepEqual((await bot.get('/bot_storage', { keys: ['key 1', 'key 3'] })).body.storage, { 'key 1': 'value 1', 'key 3': 'value 3' });
    assert.deepEqual((await bot.get('/bot_storage')).body.storage, initial);
    assert.deepEqual((await otherBot.get('/bot_storage')).body.storage, {}, 'another bot sees only its own');

    assert.equal((await bot.request('PUT', '/bot_storage', { storage: { 'key 1': 'new value', 'key 4': 'value 4' } })).status, 200);
    const updated = { 'key 1': 'new value', 'key 2': 'value 2', 'key 3': 'value 3', 'key 4': 'value 4' };
    assert.deepEqual((await bot.get('/bot_storage')).body.storage, updated);

    assert.equal(refusal(await bot.get('/bot_storage', { keys: ['key 1', 'nonexistent key'] })), 'Key does not exist.');
    assert.equal(refusal(await bot.get('/bot_storage', { keys: 'key 1' })), 'keys is not valid JSON');
    assert.equal(refusal(await bot.request('PUT', '/bot_storage', { storage: { foo: [1, 2, 3] } })), 'storage["foo"] is not a string');
    assert.equal(refusal(await bot.request('PUT', '/bot_storage', {})), "Missing 'storage' argument");

    assert.equal((await bot.delete('/bot_storage', { keys: ['key 1', 'key 2'] })).status, 200);
    assert.equal(refusal(await bot.delete('/bot_storage', { keys: ['key 3', 'nonexistent key'] })), 'Key does not exist.');
    await server.restart();
    const again = server.anonymous.as(bot.credentials);
    assert.deepEqual((await again.get('/bot_storage')).body.storage, { 'key 3': 'value 3', 'key 4': 'value 4' }, 'a failed removal removes nothing');
    assert.equal((await again.delete('/bot_storage')).status, 200);
    assert.deepEqual((await again.get('/bot_storage')).body.storage, {});
  });

  test('holds at most ten million characters of keys and values per bot, counting what a write replaces', async () => {
    const owner = await server.createUser();
    const bot = await newBot(owner);
    // Ten entries of a million characters each fill it exactly (a request body holds two MiB).
    for (let i = 0; i < 10; i++) {
      const response = await bot.request('PUT', '/bot_storage', { storage: { [`k${i}`]: 'x'.repeat(1_000_000 - 2) } });
      assert.equal(response.status, 200, JSON.stringify(response.body));
    }
    assert.equal(
      refusal(await bot.request('PUT', '/bot_storage', { storage: { 'too much data': 'a few bits too long' } })),
      'Request exceeds storage limit by 32 characters. The limit is 10000000 characters.',
    );
    // A write counts what it replaces, and characters, not bytes: k0 shrinks to 300,000
    // two-byte characters, which leaves exactly room for 700,000 more.
    assert.equal((await bot.request('PUT', '/bot_storage', { storage: { k0: 'é'.repeat(300_000 - 2) } })).status, 200);
    assert.equal((await bot.request('PUT', '/bot_storage', { storage: { k10: 'x'.repeat(700_000 - 3) } })).status, 200);
    assert.match(refusal(await bot.request('PUT', '/bot_storage', { storage: { k11: '' } })), /^Request exceeds storage limit by 3 characters/);
    assert.equal(Object.keys((await bot.get('/bot_storage')).body.storage).length, 11);
  });

  test('is for bots only', async () => {
    const person = await server.createUser();
    assert.equal(refusal(await person.request('PUT', '/bot_storage', { storage: {} })), 'Must be a bot user');
    assert.equal(refusal(await person.get('/bot_storage')), 'Must be a bot user');
    assert.equal(refusal(await person.delete('/bot_storage')), 'Must be a bot user');
  });
});

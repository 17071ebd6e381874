import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function addressOf(client: Client, channelId: number, params: Record<string, unknown> = {}): Promise<string> {
  const response = await client.get(`/streams/${channelId}/email_address`, params);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.email as string;
}

describe('GET /streams/{stream_id}/email_address', () => {
  test('answers an address in Zulip’s form that stays the same, one per person and sender', async () => {
    const host = new URL(server.url).hostname;
    const member = await server.createUser();
    const { id } = await createChannel(server.owner, { principals: [server.ownerId, member.userId] }, 'Release Notes');
    const address = await addressOf(member, id);
    assert.match(address, new RegExp(`^release-notes\\.[0-9a-f]{32}\\.show-sender@${host.replace(/\./g, '\\.')}$`));
    assert.equal(await addressOf(member, id), address);
    const asThemselves = await addressOf(member, id, { sender_id: member.userId });
    assert.notEqual(asThemselves, address);
    assert.notEqual(await addressOf(server.owner, id), address);

    const bot = await member.post('/bots', { full_name: 'Mail Bot', short_name: 'mail' });
    assert.equal(bot.status, 200, JSON.stringify(bot.body));
    const asBot = await addressOf(member, id, { sender_id: bot.body.user_id });
    assert.ok(![address, asThemselves].includes(asBot));

    await server.restart();
    const again = server.anonymous.as(member.credentials);
    assert.equal(await addressOf(again, id), address);
  });

  test('a name in another script is left out; letters with accents are made plain', async () => {
    const { id: accented } = await createChannel(server.owner, {}, 'Über uns');
    assert.match(await addressOf(server.owner, accented), /^uber-uns\.[0-9a-f]{32}\.show-sender@/);
    const { id: other } = await createChannel(server.owner, {}, 'Новости');
    assert.match(await addressOf(server.owner, other), /^[0-9a-f]{32}\.show-sender@/);
  });

  test('refuses channels out of reach and senders the caller does not control', async () => {
    const member = await server.createUser();
    const { id: hidden } = await createChannel(server.owner, { invite_only: true });
    const { id } = await createChannel(server.owner);
    for (const channelId of [hidden, 999999]) {
      const response = await member.get(`/streams/${channelId}/email_address`);
      assert.deepEqual(response.body, { result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' });
    }
    const ownersBot = await server.owner.post('/bots', { full_name: 'Owner Bot', short_name: 'ownerbot' });
    const notTheirs = await member.get(`/streams/${id}/email_address`, { sender_id: ownersBot.body.user_id });
    assert.deepEqual(notTheirs.body, { result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' });
    const person = await member.get(`/streams/${id}/email_address`, { sender_id: server.ownerId });
    assert.deepEqual(person.body, { result: 'error', msg: 'No such bot', code: 'BAD_REQUEST' });
  });
});

describe('GET /calls/bigbluebutton/create', () => {
  test('is refused: Stoa has no BigBlueButton server', async () => {
    const response = await server.owner.get('/calls/bigbluebutton/create', { meeting_name: 'standup' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { result: 'error', msg: 'BigBlueButton is not configured.', code: 'BAD_REQUEST' });
    const missing = await server.owner.get('/calls/bigbluebutton/create');
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
  });
});

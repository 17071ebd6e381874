import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import { sendMessage } from './support/messages';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function markRead(client: Awaited<ReturnType<TestServer['createUser']>>, id: number): Promise<void> {
  const response = await client.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' });
  assert.equal(response.status, 200, JSON.stringify(response.body));
}

describe('GET /messages/{message_id}/read_receipts', () => {
  test('lists who read the message, but not the sender, the private, the deactivated or the muted', async () => {
    const sender = await server.createUser();
    const [reader, unreader, privateReader, leaver, muter, mutedReader] = await Promise.all(
      Array.from({ length: 6 }, () => server.createUser()),
    );
    const everyone = [sender, reader, unreader, privateReader, leaver, muter, mutedReader];
    const channel = await createChannel(server.owner, { principals: everyone.map((c) => c.userId) });
    await privateReader.patch('/settings', { send_read_receipts: false });
    await muter.post(`/users/me/muted_users/${sender.userId}`);
    await sender.post(`/users/me/muted_users/${mutedReader.userId}`);
    const id = await sendMessage(sender, { type: 'stream', to: channel.id, topic: 'receipts', content: 'read me' });
    await sender.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' });
    for (const client of [reader, privateReader, leaver, mutedReader]) await markRead(client, id);
    assert.equal((await server.owner.delete(`/users/${leaver.userId}`)).status, 200);

    const seenBySender = await sender.get(`/messages/${id}/read_receipts`);
    assert.equal(seenBySender.status, 200, JSON.stringify(seenBySender.body));
    assert.deepEqual(seenBySender.body.user_ids, [reader.userId], 'the muter read it on muting, but is left out too');
    const seenByReader = await reader.get(`/messages/${id}/read_receipts`);
    assert.deepEqual(seenByReader.body.user_ids.sort(), [reader.userId, muter.userId, mutedReader.userId].sort());
  });

  test('refuses messages the caller cannot read, and every message when the organization turns receipts off', async () => {
    const sender = await server.createUser();
    const outsider = await server.createUser();
    const channel = await createChannel(sender, { invite_only: true });
    const id = await sendMessage(sender, { type: 'stream', to: channel.id, topic: 'secret', content: 'hidden' });
    const hidden = await outsider.get(`/messages/${id}/read_receipts`);
    assert.deepEqual([hidden.status, hidden.body.msg], [400, 'Invalid message(s)']);
    const missing = await sender.get('/messages/999999/read_receipts');
    assert.deepEqual([missing.status, missing.body.msg], [400, 'Invalid message(s)']);

    assert.equal((await server.owner.patch('/realm', { enable_read_receipts: false })).status, 200);
    try {
      const off = await sender.get(`/messages/${id}/read_receipts`);
      assert.deepEqual([off.status, off.body.code, off.body.msg], [400, 'BAD_REQUEST', 'Read receipts are disabled in this organization.']);
    } finally {
      await server.owner.patch('/realm', { enable_read_receipts: true });
    }
  });
});

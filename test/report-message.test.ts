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

/** The newest message of a channel, as its subscriber sees it. */
async function newestIn(client: ReturnType<TestServer['anonymous']['as']>, channelId: number): Promise<Record<string, any>> {
  const narrow = [{ operator: 'channel', operand: channelId }];
  const response = await client.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow, apply_markdown: false });
  return response.body.messages.at(-1);
}

describe('reporting a message', () => {
  test('is refused until the organization has a moderation request channel', async () => {
    const user = await server.createUser();
    const id = await sendMessage(user, { type: 'direct', to: [user.userId], content: 'hello' });
    const response = await user.post(`/messages/${id}/report`, { report_type: 'spam' });
    assert.deepEqual([response.status, response.body.code, response.body.msg], [400, 'BAD_REQUEST', 'Message reporting is not enabled in this organization.']);
  });

  test('posts the report in the moderation request channel, quoting the message behind a spoiler', async () => {
    const moderators = await createChannel(server.owner, { invite_only: true });
    assert.equal((await server.owner.patch('/realm', { moderation_request_channel_id: moderators.id })).status, 200);
    const registered = await server.owner.post('/register', { fetch_event_types: ['realm'] });
    assert.deepEqual(registered.body.server_report_message_types.map((type: { key: string }) => type.key), ['spam', 'harassment', 'inappropriate', 'norms', 'other']);

    const [troll, reporter] = [await server.createUser('Tom Troll'), await server.createUser('Rob Reporter')];
    const channel = await createChannel(troll, { principals: [troll.userId, reporter.userId] });
    const id = await sendMessage(troll, { type: 'stream', to: channel.id, topic: 'chat', content: 'Buy cheap watches!' });
    const response = await reporter.post(`/messages/${id}/report`, { report_type: 'spam', description: 'Again.' });
    assert.equal(response.status, 200, JSON.stringify(response.body));

    const report = await newestIn(server.owner, moderators.id);
    assert.equal(report.sender_email, 'notification-bot@stoa.local');
    assert.equal(report.subject, 'Tom Troll moderation');
    const sent = new Date((await reporter.get(`/messages/${id}`)).body.message.timestamp * 1000).toISOString().replace(/\.\d+Z$/, '+00:00');
    assert.equal(
      report.content,
      `@_**Rob Reporter|${reporter.userId}** reported a message sent by @_**Tom Troll|${troll.userId}** at <time:${sent}>.\n` +
        '```quote\n**Spam**. Again.\n```\n\n' +
        `\`\`\` spoiler Original message at #**${channel.name}>chat@${id}**\nBuy cheap watches!\n\`\`\``,
    );

    const dm = await sendMessage(troll, { type: 'direct', to: [reporter.userId], content: 'psst' });
    assert.equal((await reporter.post(`/messages/${dm}/report`, { report_type: 'harassment' })).status, 200);
    const dmReport = await newestIn(server.owner, moderators.id);
    assert.match(dmReport.content, /^@_\*\*Rob Reporter\|\d+\*\* reported a message sent by @_\*\*Tom Troll\|\d+\*\* at <time:[^>]+>\.\n```quote\n\*\*Harassment\*\*\. \n```/);
    assert.match(dmReport.content, /``` spoiler \[Original message\]\(http[^)]+#narrow\/dm\/[\d,]+\/near\/\d+\)\npsst\n```$/);
  });

  test('refuses unknown reasons, "other" without an explanation and messages out of reach', async () => {
    const [user, other] = [await server.createUser(), await server.createUser()];
    const hidden = await createChannel(other, { invite_only: true });
    const secret = await sendMessage(other, { type: 'stream', to: hidden.id, topic: 't', content: 'secret' });
    const mine = await sendMessage(user, { type: 'direct', to: [other.userId], content: 'x' });
    const cases: Array<[number, Record<string, unknown>, string]> = [
      [mine, { report_type: 'rude' }, 'Invalid report_type'],
      [mine, { report_type: 'other' }, 'An explanation is required.'],
      [mine, { report_type: 'norms', description: 'd'.repeat(1001) }, 'description is too long (limit: 1000 characters)'],
      [secret, { report_type: 'spam' }, 'Invalid message(s)'],
      [mine, {}, "Missing 'report_type' argument"],
    ];
    for (const [id, params, msg] of cases) {
      const response = await user.post(`/messages/${id}/report`, params);
      assert.deepEqual([response.status, response.body.msg], [400, msg]);
    }
  });
});

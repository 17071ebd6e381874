import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { listen, listen12 } from './support/events';
import { sendMessage as send } from './support/messages';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function reactionsOn(client: Client, id: number): Promise<Array<Record<string, unknown>>> {
  const response = await client.get(`/messages/${id}`);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.message.reactions;
}

async function react(client: Client, id: number, params: Record<string, unknown>) {
  const response = await client.post(`/messages/${id}/reactions`, params);
  assert.equal(response.status, 200, JSON.stringify(response.body));
}

/** A public channel with the owner and a member in it, and one message from the owner. */
async function setting(topic = 'reactions') {
  const member = await server.createUser();
  const channel = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
  const id = await send(server.owner, { type: 'stream', to: channel.name, topic, content: 'react to me' });
  return { member, channel, id };
}

describe('POST /messages/{message_id}/reactions', () => {
  test('adds a reaction that the message shows and everyone with it hears of, with the reactor by ID only (level 484)', async () => {
    const { member, id } = await setting();
    const heard = [await listen12(server.owner, { event_types: ['reaction'] }), await listen12(member, { event_types: ['reaction'] })];
    await react(member, id, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' });
    const reaction = { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: member.userId };
    assert.deepEqual(await reactionsOn(server.owner, id), [reaction]);
    for (const read of heard) assert.deepEqual(await read(), [{ type: 'reaction', op: 'add', message_id: id, ...reaction }]);
  });

  test('finds the code and type from the name when the client gives only the name', async () => {
    const { member, id } = await setting();
    await react(member, id, { emoji_name: 'octopus' });
    await react(member, id, { emoji_name: 'zulip' });
    await react(member, id, { emoji_name: 'thumbs_up', reaction_type: 'unicode_emoji' });
    assert.deepEqual(
      (await reactionsOn(member, id)).map((r) => [r.emoji_name, r.emoji_code, r.reaction_type]),
      [
        ['octopus', '1f419', 'unicode_emoji'],
        ['zulip', 'zulip', 'service_extra_emoji'],
        ['thumbs_up', '1f44d', 'unicode_emoji'],
      ],
    );
  });

  test('knows emoji by Zulip’s names, and refuses a name that belongs to another emoji', async () => {
    // Zulip calls 1f642 `smile`; the Unicode emoji data's `smile` is 1f604, Zulip's `big_smile`.
    const { member, id } = await setting();
    await react(member, id, { emoji_name: 'smile' });
    await react(member, id, { emoji_name: 'big_smile', emoji_code: '1f604', reaction_type: 'unicode_emoji' });
    assert.deepEqual(
      (await reactionsOn(member, id)).map((r) => [r.emoji_name, r.emoji_code]),
      [
        ['smile', '1f642'],
        ['big_smile', '1f604'],
      ],
    );
    const mismatched = await member.post(`/messages/${id}/reactions`, { emoji_name: 'smile', emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
    assert.deepEqual([mismatched.status, mismatched.body.msg], [400, 'Invalid emoji name.']);
  });

  test('takes Zulip’s name for the Zulip emoji’s type and answers with the specification’s', async () => {
    const { member, id } = await setting();
    await react(member, id, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
    assert.deepEqual(await reactionsOn(member, id), [
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji', user_id: member.userId },
    ]);
  });

  test('either name of the Zulip emoji’s type adds and removes the same reaction', async () => {
    const { member, id } = await setting();
    for (const [adding, removing] of [
      ['service_extra_emoji', 'zulip_extra_emoji'],
      ['zulip_extra_emoji', 'service_extra_emoji'],
    ]) {
      await react(member, id, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: adding });
      const again = await member.post(`/messages/${id}/reactions`, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: removing });
      assert.equal(again.body.code, 'REACTION_ALREADY_EXISTS', 'both names are one type');
      const removed = await member.delete(`/messages/${id}/reactions`, { emoji_code: 'zulip', reaction_type: removing });
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      assert.deepEqual(await reactionsOn(member, id), []);
    }
  });

  test('a second user with the same emoji votes for the first reaction and keeps its name', async () => {
    const { member, id } = await setting();
    await react(server.owner, id, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
    await react(member, id, { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
    assert.deepEqual(
      (await reactionsOn(member, id)).map((r) => [r.emoji_name, r.user_id]),
      [
        ['thumbs_up', server.ownerId],
        ['thumbs_up', member.userId],
      ],
    );
  });

  test('refuses bad emoji with Zulip’s errors', async () => {
    const { member, id } = await setting();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, "Missing 'emoji_name' argument"],
      [{ emoji_name: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist"],
      [{ emoji_name: 'octopus', emoji_code: 'ffffff', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
      [{ emoji_name: 'octopus', emoji_code: 'not hex' }, 'Invalid emoji code.'],
      [{ emoji_name: 'Octopus!', emoji_code: '1f419', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
      [{ emoji_name: 'zulip', emoji_code: 'other', reaction_type: 'service_extra_emoji' }, 'Invalid emoji code.'],
      [{ emoji_name: 'octopus', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' }, 'Invalid emoji name.'],
      [{ emoji_name: 'party', emoji_code: '1', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
      [{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'sticker' }, 'Invalid emoji type.'],
    ];
    for (const [params, msg] of cases) {
      const response = await member.post(`/messages/${id}/reactions`, params);
      assert.equal(response.status, 400);
      assert.equal(response.body.msg, msg, JSON.stringify(params));
    }
    assert.deepEqual(await reactionsOn(member, id), []);
  });

  test('the same reaction twice is REACTION_ALREADY_EXISTS', async () => {
    const { member, id } = await setting();
    await react(member, id, { emoji_name: 'octopus' });
    const again = await member.post(`/messages/${id}/reactions`, { emoji_name: 'octopus', emoji_code: '1f419' });
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, { result: 'error', msg: 'Reaction already exists.', code: 'REACTION_ALREADY_EXISTS' });
  });

  test('only messages the user may read can be reacted to', async () => {
    const { id } = await setting();
    const outsider = await server.createUser();
    const secret = await createChannel(server.owner, { invite_only: true });
    const secretId = await send(server.owner, { type: 'stream', to: secret.name, topic: 't', content: 'hush' });
    const direct = await send(server.owner, { type: 'direct', to: JSON.stringify([server.ownerId]), content: 'note to self' });
    for (const target of [secretId, direct, id + 100000]) {
      const response = await outsider.post(`/messages/${target}/reactions`, { emoji_name: 'octopus' });
      assert.equal(response.status, 400);
      assert.equal(response.body.msg, 'Invalid message(s)');
    }
    assert.deepEqual(await reactionsOn(server.owner, secretId), []);
  });

  test('messages of an archived channel take no new reactions', async () => {
    const { channel, id } = await setting();
    await react(server.owner, id, { emoji_name: 'octopus' });
    assert.equal((await server.owner.delete(`/streams/${channel.id}`)).status, 200);
    const added = await server.owner.post(`/messages/${id}/reactions`, { emoji_name: 'tada' });
    assert.equal(added.body.msg, 'Invalid message(s)');
    const removed = await server.owner.delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    assert.equal(removed.body.msg, 'Invalid message(s)');
  });

  test('reacting from a channel’s history makes the message the reactor’s own, flagged historical', async () => {
    const { member, id } = await setting();
    const newcomer = await server.createUser();
    const byId = { anchor: id, num_before: 0, num_after: 0, narrow: JSON.stringify([{ operator: 'id', operand: id }]) };
    assert.deepEqual((await newcomer.get('/messages', byId)).body.messages, []);
    await react(newcomer, id, { emoji_name: 'octopus' });
    const [mine] = (await newcomer.get('/messages', byId)).body.messages;
    assert.deepEqual(mine.flags, ['read', 'historical']);
    // Now theirs, the message's later reactions reach them too.
    const heard = await listen(newcomer, { event_types: ['reaction'] });
    await react(member, id, { emoji_name: 'tada' });
    assert.deepEqual((await heard()).map((e) => [e.op, e.emoji_name, e.user_id]), [['add', 'tada', member.userId]]);
  });

  test('events reach those who have the message or may read the channel’s history, and no one else', async () => {
    const { member, id } = await setting();
    const outsider = await server.createUser();
    const late = await server.createUser();
    const secret = await createChannel(server.owner, {
      invite_only: true,
      history_public_to_subscribers: false,
      principals: [server.ownerId, member.userId],
    });
    const secretId = await send(server.owner, { type: 'stream', to: secret.name, topic: 't', content: 'protected' });
    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: secret.name }], principals: [late.userId] });
    const outsiderHeard = await listen(outsider, { event_types: ['reaction'] });
    const lateHeard = await listen(late, { event_types: ['reaction'] });
    const memberHeard = await listen(member, { event_types: ['reaction'] });
    await react(server.owner, id, { emoji_name: 'octopus' });
    await react(server.owner, secretId, { emoji_name: 'octopus' });
    assert.deepEqual(await outsiderHeard(), []);
    assert.deepEqual(await lateHeard(), []);
    assert.deepEqual((await memberHeard()).map((e) => e.message_id), [id, secretId]);
  });

  test('direct messages: reactions reach the conversation only', async () => {
    const friend = await server.createUser();
    const outsider = await server.createUser();
    const id = await send(server.owner, { type: 'direct', to: JSON.stringify([friend.userId]), content: 'hi' });
    const friendHeard = await listen(friend, { event_types: ['reaction'] });
    const outsiderHeard = await listen(outsider, { event_types: ['reaction'] });
    await react(friend, id, { emoji_name: 'wave' });
    assert.deepEqual((await friendHeard()).map((e) => [e.op, e.emoji_name]), [['add', 'wave']]);
    assert.deepEqual(await outsiderHeard(), []);
  });
});

describe('DELETE /messages/{message_id}/reactions', () => {
  test('removes the user’s own reaction and tells everyone', async () => {
    const { member, id } = await setting();
    await react(member, id, { emoji_name: 'octopus' });
    await react(server.owner, id, { emoji_name: 'octopus' });
    const heard = await listen(server.owner, { event_types: ['reaction'] });
    const removed = await member.delete(`/messages/${id}/reactions`, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual((await reactionsOn(member, id)).map((r) => r.user_id), [server.ownerId]);
    const [event] = await heard();
    assert.deepEqual([event.op, event.user_id, event.emoji_code, event.message_id], ['remove', member.userId, '1f419', id]);
  });

  test('finds the code from the name alone, but not the type', async () => {
    const { member, id } = await setting();
    await react(member, id, { emoji_name: 'octopus' });
    await react(member, id, { emoji_name: 'zulip' });
    assert.equal((await member.delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' })).status, 200);
    const untyped = await member.delete(`/messages/${id}/reactions`, { emoji_name: 'zulip' });
    assert.equal(untyped.body.code, 'REACTION_DOES_NOT_EXIST');
    const typed = await member.delete(`/messages/${id}/reactions`, { emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
    assert.equal(typed.status, 200, JSON.stringify(typed.body));
    assert.deepEqual(await reactionsOn(member, id), []);
  });

  test('refuses reactions that do not exist and requests that name no emoji', async () => {
    const { member, id } = await setting();
    await react(server.owner, id, { emoji_name: 'octopus' });
    const others = await member.delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    assert.equal(others.status, 400);
    assert.deepEqual(others.body, { result: 'error', msg: "Reaction doesn't exist.", code: 'REACTION_DOES_NOT_EXIST' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'At least one of the following arguments must be present: emoji_name, emoji_code'],
      [{ emoji_name: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist"],
    ];
    for (const [params, msg] of cases) assert.equal((await member.delete(`/messages/${id}/reactions`, params)).body.msg, msg);
    const outsider = await server.createUser();
    const secret = await createChannel(server.owner, { invite_only: true });
    const secretId = await send(server.owner, { type: 'stream', to: secret.name, topic: 't', content: 'hush' });
    await react(server.owner, secretId, { emoji_name: 'octopus' });
    assert.equal((await outsider.delete(`/messages/${secretId}/reactions`, { emoji_name: 'octopus' })).body.msg, 'Invalid message(s)');
  });
});

describe('reactions elsewhere', () => {
  test('has:reaction finds the messages with reactions', async () => {
    const { channel, id } = await setting();
    const plain = await send(server.owner, { type: 'stream', to: channel.name, topic: 'reactions', content: 'no reactions' });
    const narrow = JSON.stringify([
      { operator: 'channel', operand: channel.id },
      { operator: 'has', operand: 'reaction' },
    ]);
    const found = async () =>
      (await server.owner.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow })).body.messages.map(
        (m: { id: number }) => m.id,
      );
    assert.deepEqual(await found(), []);
    await react(server.owner, id, { emoji_name: 'octopus' });
    assert.deepEqual(await found(), [id]);
    assert.ok(!(await found()).includes(plain));
    await server.owner.delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    assert.deepEqual(await found(), []);
  });

  test('reacting in a topic makes the reactor a participant for topic wildcard mentions', async () => {
    const { member, channel, id } = await setting('participants');
    const quiet = await server.createUser();
    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [quiet.userId] });
    await react(member, id, { emoji_name: 'octopus' });
    const mention = await send(server.owner, { type: 'stream', to: channel.name, topic: 'participants', content: 'hey @**topic**' });
    const flagsOf = async (client: Client) => (await client.get(`/messages/${mention}`)).body.message.flags;
    assert.deepEqual(await flagsOf(member), ['topic_wildcard_mentioned', 'wildcard_mentioned']);
    assert.deepEqual(await flagsOf(quiet), []);
  });

  test('reactions survive a restart', async () => {
    const { member, id } = await setting();
    await react(member, id, { emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'unicode_emoji' });
    await react(server.owner, id, { emoji_name: 'zulip' });
    const before = await reactionsOn(server.owner, id);
    await server.restart();
    assert.deepEqual(await reactionsOn(server.owner, id), before);
    assert.equal(before.length, 2);
  });
});

describe('GET /messages/matches_narrow', () => {
  test('answers which of the messages match, with their content and escaped topic', async () => {
    const member = await server.createUser();
    const channel = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
    const inTopic = await send(server.owner, { type: 'stream', to: channel.name, topic: 'a <b> topic', content: 'first **one**' });
    const elsewhere = await send(server.owner, { type: 'stream', to: channel.name, topic: 'other', content: 'second' });
    const response = await member.get('/messages/matches_narrow', {
      msg_ids: [inTopic, elsewhere],
      narrow: [{ operator: 'topic', operand: 'a <b> topic' }],
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(response.body.messages, {
      [String(inTopic)]: { match_content: '<p>first <strong>one</strong></p>', match_subject: 'a &lt;b&gt; topic' },
    });
  });

  test('highlights the words of a search', async () => {
    const channel = await createChannel(server.owner);
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 'kraken sightings', content: 'the kraken is back' });
    const response = await server.owner.get('/messages/matches_narrow', {
      msg_ids: [id],
      narrow: [{ operator: 'search', operand: 'kraken' }],
    });
    assert.deepEqual(response.body.messages[String(id)], {
      match_content: '<p>the <span class="highlight">kraken</span> is back</p>',
      match_subject: '<span class="highlight">kraken</span> sightings',
    });
  });

  test('considers only messages in the user’s own history', async () => {
    const channel = await createChannel(server.owner);
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 't', content: 'shared history' });
    const newcomer = await server.createUser();
    const narrow = [{ operator: 'channel', operand: channel.id }];
    assert.deepEqual((await newcomer.get('/messages/matches_narrow', { msg_ids: [id], narrow })).body.messages, {});
    await react(newcomer, id, { emoji_name: 'octopus' });
    assert.deepEqual(Object.keys((await newcomer.get('/messages/matches_narrow', { msg_ids: [id], narrow })).body.messages), [String(id)]);
  });

  test('the empty topic is matched by its display name, and bad requests get Zulip’s errors', async () => {
    const channel = await createChannel(server.owner);
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: '', content: 'no topic' });
    const matched = await server.owner.get('/messages/matches_narrow', {
      msg_ids: [id],
      narrow: [{ operator: 'topic', operand: 'general chat' }],
    });
    assert.deepEqual(Object.keys(matched.body.messages), [String(id)]);
    const missing = await server.owner.get('/messages/matches_narrow', { narrow: [] });
    assert.equal(missing.body.msg, "Missing 'msg_ids' argument");
    const noNarrow = await server.owner.get('/messages/matches_narrow', { msg_ids: [id] });
    assert.equal(noNarrow.body.msg, "Missing 'narrow' argument");
    const bad = await server.owner.get('/messages/matches_narrow', { msg_ids: [id], narrow: [{ operator: 'nonsense', operand: 'x' }] });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'BAD_NARROW');
  });
});

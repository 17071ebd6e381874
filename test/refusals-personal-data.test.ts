import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from './support/client';
import { ok } from './support/fixtures';
import { INSUFFICIENT, NOT_FOR_GUESTS, refusal } from './support/refusals';
import { TestServer } from './support/server';

/**
 * The refusals of the endpoint groups the earlier audits left, each read from Zulip 10.2's
 * source: typing (access_stream_by_id_for_message, then access_stream_for_send_message),
 * reactions (access_message, check_emoji_request; Zulip does not ask whether one may post),
 * message flags, marking a channel read, subscribing and unsubscribing others
 * (filter_stream_authorization_for_adding_subscribers), user topics, muted users (bots may be
 * muted), presence and status of others, attachments, and the objects only their owner has:
 * scheduled messages, drafts and saved snippets (Zulip's 404s).
 */
const INVALID_MESSAGE = { status: 400, code: 'BAD_REQUEST', msg: 'Invalid message(s)' };
const INVALID_CHANNEL = { status: 400, code: 'BAD_REQUEST', msg: 'Invalid channel ID' };
const NO_SUCH_USER = { status: 400, code: 'BAD_REQUEST', msg: 'No such user' };
const CANNOT_POST = { status: 400, code: 'BAD_REQUEST', msg: 'You do not have permission to post in this channel.' };

type Person = Client & { userId: number };

describe('refusals of personal data, typing, reactions, flags and subscriptions', () => {
  let server: TestServer;
  let member: Person;
  let guest: Person;
  let vault: number;
  let announce: number;
  let secret: number;
  let announcement: number;
  let bot: number;
  const later = () => Math.floor(Date.now() / 1000) + 3600;
  before(async () => {
    server = await TestServer.start();
    member = await server.createUser('Mel Member');
    guest = await server.createUser('Gus Guest');
    ok(await server.owner.patch(`/users/${guest.userId}`, { role: 600 }), 'guest');
    ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], invite_only: true }), 'vault');
    ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'announce' }] }), 'announce');
    const streams = ok(await server.owner.get('/streams'), 'streams').streams as any[];
    vault = streams.find((s) => s.name === 'vault').stream_id;
    announce = streams.find((s) => s.name === 'announce').stream_id;
    secret = ok(await server.owner.post('/messages', { type: 'stream', to: vault, topic: 't', content: 'secret' }), 'secret').id;
    announcement = ok(await server.owner.post('/messages', { type: 'stream', to: announce, topic: 't', content: 'news' }), 'news').id;
    const admins = server.groupId('role:administrators');
    ok(await server.owner.patch(`/streams/${announce}`, { can_send_message_group: JSON.stringify({ new: admins }) }), 'admins post');
    bot = ok(await server.owner.post('/bots', { full_name: 'Helper', short_name: 'helper' }), 'bot').user_id;
  });
  after(() => server?.close());

  test('typing: a channel one may not reach, then one one may not post in; unknown people', async () => {
    const typing = (client: Client, to: number) => client.post('/typing', { type: 'stream', stream_id: to, topic: 't', op: 'start' });
    assert.deepEqual(await refusal(typing(member, vault)), INVALID_CHANNEL);
    assert.deepEqual(await refusal(typing(member, 999999)), INVALID_CHANNEL);
    assert.deepEqual(await refusal(typing(guest, announce)), INVALID_CHANNEL, 'a guest reaches only channels they are in');
    assert.deepEqual(await refusal(typing(member, announce)), CANNOT_POST);
    assert.deepEqual(await refusal(member.post('/typing', { type: 'direct', to: JSON.stringify([999999]), op: 'start' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Invalid user ID 999999',
    });
    assert.deepEqual(await refusal(member.post(`/messages/${secret}/typing`, { op: 'start' })), INVALID_MESSAGE);
  });

  test('reactions: a message one cannot read, an emoji that does not exist; posting rights are not asked', async () => {
    assert.deepEqual(await refusal(member.post(`/messages/${secret}/reactions`, { emoji_name: 'smile' })), INVALID_MESSAGE);
    assert.deepEqual(await refusal(guest.post(`/messages/${announcement}/reactions`, { emoji_name: 'smile' })), INVALID_MESSAGE);
    assert.deepEqual(await refusal(member.post(`/messages/${announcement}/reactions`, { emoji_name: 'no_such_emoji' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: "Emoji 'no_such_emoji' does not exist",
    });
    assert.deepEqual(await refusal(member.post(`/messages/${announcement}/reactions`, { emoji_name: 'octopus', emoji_code: 'fffff' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Invalid emoji code.',
    });
    ok(await member.post(`/messages/${announcement}/reactions`, { emoji_name: 'smile' }), 'a channel one may not post in');
    assert.deepEqual(await refusal(member.delete(`/messages/${announcement}/reactions`, { emoji_name: 'octopus' })), {
      status: 400,
      code: 'REACTION_DOES_NOT_EXIST',
      msg: "Reaction doesn't exist.",
    });
  });

  test('flags and marking read: messages and channels one cannot reach', async () => {
    const flags = (flag: string) => member.post('/messages/flags', { messages: JSON.stringify([secret]), op: 'add', flag });
    assert.deepEqual(await refusal(flags('starred')), INVALID_MESSAGE);
    // Zulip counts a message one has no copy of as read already: nothing to do, nothing refused.
    ok(await flags('read'), 'read');
    assert.deepEqual(await refusal(member.post('/messages/flags', { messages: JSON.stringify([announcement]), op: 'add', flag: 'mentioned' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: "Flag not editable: 'mentioned'",
    });
    assert.deepEqual(await refusal(member.post('/mark_stream_as_read', { stream_id: vault })), INVALID_CHANNEL);
    assert.deepEqual(await refusal(guest.post('/mark_stream_as_read', { stream_id: announce })), INVALID_CHANNEL);
    assert.deepEqual(await refusal(member.post('/mark_topic_as_read', { stream_id: vault, topic_name: 't' })), INVALID_CHANNEL);
    ok(await member.post('/mark_stream_as_read', { stream_id: announce }), 'a public channel one is not in');
  });

  test('user topics: channels one cannot reach', async () => {
    const follow = (client: Client, stream: number) => client.post('/user_topics', { stream_id: stream, topic: 't', visibility_policy: 1 });
    assert.deepEqual(await refusal(follow(member, vault)), INVALID_CHANNEL);
    assert.deepEqual(await refusal(follow(guest, announce)), INVALID_CHANNEL);
    assert.deepEqual(await refusal(follow(member, 999999)), INVALID_CHANNEL);
  });

  test('muted users: oneself, nobody, someone not muted; a bot may be muted', async () => {
    assert.deepEqual(await refusal(member.post(`/users/me/muted_users/${member.userId}`)), { status: 400, code: 'BAD_REQUEST', msg: 'Cannot mute self' });
    assert.deepEqual(await refusal(member.post('/users/me/muted_users/999999')), NO_SUCH_USER);
    assert.deepEqual(await refusal(member.delete(`/users/me/muted_users/${server.ownerId}`)), { status: 400, code: 'BAD_REQUEST', msg: 'User is not muted' });
    ok(await member.post(`/users/me/muted_users/${bot}`), 'a bot');
    assert.deepEqual(await refusal(member.post(`/users/me/muted_users/${bot}`)), { status: 400, code: 'BAD_REQUEST', msg: 'User already muted' });
  });

  test("others' presence and status", async () => {
    assert.deepEqual(await refusal(member.get(`/users/${bot}/presence`)), { status: 400, code: 'BAD_REQUEST', msg: 'Presence is not supported for bot users.' });
    assert.deepEqual(await refusal(member.get('/users/999999/presence')), NO_SUCH_USER);
    assert.deepEqual(await refusal(member.get('/users/999999/status')), NO_SUCH_USER);
    assert.deepEqual(await refusal(member.get(`/users/${bot}/status`)), NO_SUCH_USER, 'access_user_by_id without allow_bots');
    const quiet = await server.createUser('Quinn Quiet');
    assert.deepEqual(await refusal(member.get(`/users/${quiet.userId}/presence`)), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: `No presence data for ${quiet.userId}`,
    });
    ok(await server.owner.delete(`/users/${quiet.userId}`), 'deactivate');
    // Presence looks only among active people; status reaches the person and says why not.
    assert.deepEqual(await refusal(member.get(`/users/${quiet.userId}/presence`)), NO_SUCH_USER);
    assert.deepEqual(await refusal(member.get(`/users/${quiet.userId}/status`)), { status: 400, code: 'BAD_REQUEST', msg: 'User is deactivated' });
  });

  test("what is someone else's is not found: scheduled messages, drafts, saved snippets, attachments", async () => {
    const scheduled = ok(
      await server.owner.post('/scheduled_messages', { type: 'direct', to: JSON.stringify([member.userId]), content: 'later', scheduled_delivery_timestamp: later() }),
      'scheduled',
    ).scheduled_message_id;
    const noScheduled = { status: 404, code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' };
    assert.deepEqual(await refusal(member.delete(`/scheduled_messages/${scheduled}`)), noScheduled);
    assert.deepEqual(await refusal(member.patch(`/scheduled_messages/${scheduled}`, { content: 'mine now' })), noScheduled);
    const draft = ok(await server.owner.post('/drafts', { drafts: JSON.stringify([{ type: '', to: [], topic: '', content: 'd' }]) }), 'draft').ids[0];
    const noDraft = { status: 404, code: 'BAD_REQUEST', msg: 'Draft does not exist' };
    assert.deepEqual(await refusal(member.delete(`/drafts/${draft}`)), noDraft);
    assert.deepEqual(await refusal(member.patch(`/drafts/${draft}`, { draft: JSON.stringify({ type: '', to: [], topic: '', content: 'x' }) })), noDraft);
    const snippet = ok(await server.owner.post('/saved_snippets', { title: 'a', content: 'b' }), 'snippet').saved_snippet_id;
    const noSnippet = { status: 404, code: 'BAD_REQUEST', msg: 'Saved snippet does not exist.' };
    assert.deepEqual(await refusal(member.delete(`/saved_snippets/${snippet}`)), noSnippet);
    assert.deepEqual(await refusal(member.patch(`/saved_snippets/${snippet}`, { title: 'x' })), noSnippet);
    ok(await server.owner.upload('/user_uploads', [{ name: 'a.txt', bytes: 'x', type: 'text/plain' }]), 'upload');
    const attachment = (ok(await server.owner.get('/attachments'), 'attachments').attachments as any[])[0].id;
    assert.deepEqual(await refusal(member.delete(`/attachments/${attachment}`)), { status: 400, code: 'BAD_REQUEST', msg: 'Invalid attachment' });
  });

  test('scheduling and drafting for channels one cannot reach or post in', async () => {
    const schedule = (to: number) => member.post('/scheduled_messages', { type: 'stream', to, topic: 't', content: 'x', scheduled_delivery_timestamp: later() });
    assert.deepEqual(await refusal(schedule(vault)), { status: 400, code: 'BAD_REQUEST', msg: "Not authorized to send to channel 'vault'" });
    assert.deepEqual(await refusal(schedule(announce)), CANNOT_POST);
    assert.deepEqual(await refusal(member.post('/drafts', { drafts: JSON.stringify([{ type: 'stream', to: [vault], topic: 't', content: 'x' }]) })), INVALID_CHANNEL);
  });

  test("others' subscriptions: private channels, then the right to add or remove others", async () => {
    const subscribe = (client: Client, name: string, who: number) =>
      client.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name }]), principals: JSON.stringify([who]) });
    assert.deepEqual(await refusal(subscribe(guest, 'announce', member.userId)), NOT_FOR_GUESTS);
    assert.deepEqual(await refusal(subscribe(member, 'vault', guest.userId)), { status: 400, code: 'BAD_REQUEST', msg: 'Unable to access channel (vault).' });
    assert.deepEqual(await refusal(member.delete('/users/me/subscriptions', { subscriptions: JSON.stringify(['announce']), principals: JSON.stringify([server.ownerId]) })), INSUFFICIENT);
    ok(await server.owner.patch('/realm', { can_add_subscribers_group: JSON.stringify({ new: server.groupId('role:administrators') }) }), 'admins add');
    assert.deepEqual(await refusal(subscribe(member, 'announce', guest.userId)), INSUFFICIENT);
    // A channel the request creates is the creator's to fill, as on Zulip.
    ok(await subscribe(member, 'brand-new', guest.userId), 'created');
    assert.deepEqual(await refusal(subscribe(server.owner, 'announce', 999999)), NO_SUCH_USER);
  });
});

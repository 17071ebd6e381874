import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { createChannel, uniqueName } from './support/channels';
import type { Client } from './support/client';
import {
  API_ERROR,
  CHANNEL_TOPICS,
  EMOJI_DATA,
  enumOf,
  EVENTS,
  eventShape,
  FETCH_API_KEY,
  GET_EVENTS,
  GET_MESSAGE,
  GET_MESSAGES,
  INITIAL_SNAPSHOT,
  int,
  list,
  NOT_PRODUCED,
  obj,
  OLDEST_FEATURE_LEVEL,
  PRESENCE,
  REACTION_TYPE,
  READ_RECEIPTS,
  SEND_MESSAGE,
  SERVER_SETTINGS,
  str,
  UPDATE_FLAGS,
  UPDATE_FLAGS_FOR_NARROW,
  UPLOAD_FILE,
  violations,
  type Json,
  type Shape,
} from './support/flutter-models';
import { sendMessage } from './support/messages';
import { ManualClock, OWNER_EMAIL, TestServer } from './support/server';

/**
 * Zulip's official mobile app (the Flutter app) against Stoa: every request it makes on login,
 * on start and while in use, made as the app makes it (its User-Agent, its parameters, its
 * encoding), and every answer decoded by the app's requirements (test/support/flutter-models.ts).
 * A violation fails with the path of the offending value.
 */

const APP_USER_AGENT = 'ZulipFlutter/30.0.274+274 (Android 14)';
const HEARTBEAT_MS = 300;

/** A value the app sends as it is; the app JSON-encodes every other value, strings included. */
class Raw {
  constructor(readonly value: string) {}
}
const raw = (value: string) => new Raw(value);

/** The app's own encoding of a parameter (lib/api/core.dart): JSON unless marked raw. */
function appEncode(value: unknown): string {
  return value instanceof Raw ? value.value : JSON.stringify(value);
}

interface AppResponse {
  status: number;
  body: Json;
}

/** Requests as the app makes them: form-encoded, JSON values, its User-Agent, Basic auth when logged in. */
class App {
  constructor(
    readonly baseUrl: string,
    readonly credentials?: { email: string; apiKey: string },
    readonly userAgent = APP_USER_AGENT,
  ) {}

  async request(method: string, route: string, params: Record<string, unknown> = {}): Promise<AppResponse> {
    const url = new URL(`/api/v1/${route}`, this.baseUrl);
    const headers: Record<string, string> = { 'user-agent': this.userAgent };
    if (this.credentials) {
      headers.authorization = `Basic ${Buffer.from(`${this.credentials.email}:${this.credentials.apiKey}`).toString('base64')}`;
    }
    const entries = Object.entries(params).map(([k, v]) => [k, appEncode(v)] as [string, string]);
    let body: string | undefined;
    if (method === 'GET') for (const [k, v] of entries) url.searchParams.set(k, v);
    else {
      body = new URLSearchParams(entries).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded; charset=utf-8';
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let json: Json;
    try {
      json = JSON.parse(text) as Json;
    } catch {
      throw new Error(`${method} ${route} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    return { status: response.status, body: json };
  }

  /** Requests and insists on what the app needs to decode a success: HTTP 200 and the answer's shape. */
  async expect(shape: Shape, method: string, route: string, params: Record<string, unknown> = {}): Promise<any> {
    const response = await this.request(method, route, params);
    assert.equal(response.status, 200, `${method} ${route}: ${JSON.stringify(response.body)}`);
    assertDecodes(response.body, shape, `${method} ${route}`);
    return response.body;
  }

  /** A request the app needs only to succeed (HTTP 200 and a JSON object). */
  async ok(method: string, route: string, params: Record<string, unknown> = {}): Promise<any> {
    return this.expect({ t: 'obj', req: {}, opt: {} }, method, route, params);
  }
}

function assertDecodes(value: unknown, shape: Shape, what: string): void {
  const found = violations(value, shape);
  assert.deepEqual(found, [], `${what} would not decode in the app:\n  ${found.slice(0, 20).join('\n  ')}`);
}

/** The parameters the app registers with (lib/api/route/events.dart, lib/model/store.dart). */
const APP_REGISTER_PARAMS = {
  idle_queue_timeout: 'mobile',
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    include_deactivated_groups: true,
    empty_topic_name: true,
    individual_emoji_changes: true,
  },
};

const PASSWORD = 'app-user-password';

let server: TestServer;
/** The person using the app, logged in through it. */
let app: App;
let appUserId: number;
/** Someone else in the organization, on another client. */
let other: Client & { userId: number };

before(async () => {
  server = await TestServer.start({ heartbeatMs: HEARTBEAT_MS });
  const email = 'ada@example.com';
  const created = await server.owner.post('/users', { email, password: PASSWORD, full_name: 'Ada' });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  appUserId = created.body.user_id;
  const login = await new App(server.url).expect(FETCH_API_KEY, 'POST', 'fetch_api_key', { username: raw(email), password: raw(PASSWORD) });
  app = new App(server.url, { email: login.email, apiKey: login.api_key });
  other = await server.createUser('Grace');
});
after(() => server.close());

/** The app's event queue: registered with the app's parameters, polled as the app polls it. */
async function appQueue(client = app, decodeAsTheApp = true) {
  const anything: Shape = { t: 'any' };
  const state = await client.expect(decodeAsTheApp ? INITIAL_SNAPSHOT : anything, 'POST', 'register', APP_REGISTER_PARAMS);
  let lastEventId: number = state.last_event_id;
  return {
    state,
    /** Everything that arrived since the last poll, each response decoded as the app does. */
    async poll(block = false): Promise<any[]> {
      const params: Record<string, unknown> = { queue_id: raw(state.queue_id), last_event_id: lastEventId };
      if (!block) params.dont_block = true;
      const body = await client.expect(decodeAsTheApp ? GET_EVENTS : anything, 'GET', 'events', params);
      const events = body.events as Array<{ id: number }>;
      if (events.length > 0) lastEventId = events.at(-1)!.id;
      return events;
    },
  };
}

/** A channel the app user and the other user are in, with the other user's message in it. */
async function sharedChannel() {
  const channel = await createChannel(server.owner, { principals: [server.ownerId, appUserId, other.userId] });
  const messageId = await sendMessage(other, { type: 'stream', to: channel.id, topic: 'hello', content: 'hi Ada' });
  return { ...channel, messageId };
}

describe('the checker', () => {
  test('names the path of every value the app would refuse, and lets through what it tolerates', () => {
    const shape: Shape = obj({ id: int, reactions: list(obj({ reaction_type: REACTION_TYPE })), role: enumOf([100, 200], 'fallback') }, { topic: str });
    assert.deepEqual(violations({ id: 1, reactions: [], role: 999, topic: null, extra: 'ignored' }, shape), []);
    assert.deepEqual(violations({ id: 1.5, reactions: [{ reaction_type: 'service_extra_emoji' }], role: '100', topic: 3 }, shape), [
      '$.id: expected int, got 1.5',
      '$.reactions[0].reaction_type: expected one of ["unicode_emoji","realm_emoji","zulip_extra_emoji"] (the app has no fallback), got "service_extra_emoji"',
      '$.role: expected one of [100,200], got "100"',
      '$.topic: expected str, got 3',
    ]);
    assert.deepEqual(violations({ reactions: null, role: 100 }, shape), ['$.id: required (int), got nothing', '$.reactions: required (list of object), got null']);
  });
});

describe('logging in, as the app does', () => {
  test('GET /server_settings has every key the login screen reads, and a feature level the app accepts', async () => {
    const settings = await new App(server.url).expect(SERVER_SETTINGS, 'GET', 'server_settings');
    assert.ok(settings.zulip_feature_level >= OLDEST_FEATURE_LEVEL, `feature level ${settings.zulip_feature_level}`);
    assert.equal(new URL(settings.realm_uri).origin, new URL(server.url).origin, 'the app sends every later request to realm_uri');
    assert.ok(settings.email_auth_enabled || settings.authentication_methods.ldap, 'the app shows a password form only then');
  });

  test('POST /fetch_api_key with the raw username and password answers the key; a wrong password an error the app shows', async () => {
    const anonymous = new App(server.url);
    const refused = await anonymous.request('POST', 'fetch_api_key', { username: raw(OWNER_EMAIL), password: raw('no such password') });
    assert.ok(refused.status >= 400 && refused.status < 500, String(refused.status));
    assertDecodes(refused.body, API_ERROR, 'the refusal');
  });

  test('POST /register with the app parameters answers an initial state the app decodes, with its user in it', async () => {
    const { state } = await appQueue();
    assert.ok(state.realm_users.some((u: { user_id: number }) => u.user_id === appUserId), 'the self user is in realm_users');
  });
});

describe('events, each produced over HTTP and decoded as the app decodes them', () => {
  test('every event the app knows, from every action a user takes', async () => {
    const queue = await appQueue();
    const seen = new Map<string, number>();
    const drain = async () => {
      for (const event of await queue.poll()) {
        const known = eventShape(event);
        if (known) seen.set(known.key, (seen.get(known.key) ?? 0) + 1);
      }
    };
    const owner = server.owner;

    // Messages: the app's sends (channel, direct, to itself), edits, moves, deletions.
    const channel = await sharedChannel();
    const target = await createChannel(server.owner, { principals: [server.ownerId, appUserId, other.userId] });
    const sent = await app.expect(SEND_MESSAGE, 'POST', 'messages', {
      type: raw('channel'),
      to: channel.id,
      topic: raw('from the app'),
      content: raw('hello from the app @**Grace**'),
      queue_id: raw(queue.state.queue_id),
      local_id: raw('1.5'),
      read_by_sender: true,
    });
    await app.expect(SEND_MESSAGE, 'POST', 'messages', { type: raw('direct'), to: [other.userId], content: raw('a direct message'), read_by_sender: true });
    await app.expect(SEND_MESSAGE, 'POST', 'messages', { type: raw('direct'), to: [appUserId], content: raw('a note to self'), read_by_sender: true });
    const group = await sendMessage(other, { type: 'direct', to: JSON.stringify([appUserId, server.ownerId]), content: 'the three of us' });
    await drain();
    await app.ok('PATCH', `messages/${sent.id}`, { content: raw('hello, edited') });
    await app.ok('PATCH', `messages/${sent.id}`, { topic: raw('renamed'), propagate_mode: raw('change_all') });
    await owner.patch(`/messages/${channel.messageId}`, { stream_id: target.id, propagate_mode: 'change_one' });
    const doomed = await sendMessage(other, { type: 'stream', to: channel.id, topic: 'doomed', content: 'delete me' });
    await owner.delete(`/messages/${doomed}`);
    await owner.delete(`/messages/${group}`);

    // Flags: reading one by one, starring, marking a conversation unread, reading a narrow.
    const unread = await sendMessage(other, { type: 'stream', to: target.id, topic: 'flags', content: 'unread for now' });
    await app.expect(UPDATE_FLAGS, 'POST', 'messages/flags', { messages: [unread], op: raw('add'), flag: raw('read') });
    await app.expect(UPDATE_FLAGS, 'POST', 'messages/flags', { messages: [unread], op: raw('add'), flag: raw('starred') });
    await app.expect(UPDATE_FLAGS, 'POST', 'messages/flags', { messages: [unread], op: raw('remove'), flag: raw('starred') });
    await app.expect(UPDATE_FLAGS, 'POST', 'messages/flags', { messages: [unread], op: raw('remove'), flag: raw('read') });
    const dmUnread = await sendMessage(other, { type: 'direct', to: JSON.stringify([appUserId]), content: 'unread direct' });
    await app.expect(UPDATE_FLAGS, 'POST', 'messages/flags', { messages: [dmUnread], op: raw('add'), flag: raw('read') });
    await app.expect(UPDATE_FLAGS, 'POST', 'messages/flags', { messages: [dmUnread], op: raw('remove'), flag: raw('read') });
    await app.expect(UPDATE_FLAGS_FOR_NARROW, 'POST', 'messages/flags/narrow', {
      anchor: raw('oldest'),
      include_anchor: true,
      num_before: 0,
      num_after: 1000,
      narrow: [{ operator: 'channel', operand: target.id }, { operator: 'is', operand: 'unread' }],
      op: raw('add'),
      flag: raw('read'),
    });
    await drain();

    // Reactions, with a Unicode emoji and with the Zulip emoji, as the app sends them.
    for (const op of ['POST', 'DELETE']) {
      await app.ok(op, `messages/${unread}/reactions`, { emoji_name: raw('octopus'), emoji_code: raw('1f419'), reaction_type: raw('unicode_emoji') });
      await app.ok(op, `messages/${unread}/reactions`, { emoji_name: raw('zulip'), emoji_code: raw('zulip'), reaction_type: raw('zulip_extra_emoji') });
    }
    await other.post(`/messages/${unread}/reactions`, { emoji_name: 'zulip' });

    // A custom emoji: added (a realm_emoji update), reacted with and worn as a status as the
    // app sends them, then deactivated while both still show it.
    const image = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 0, g: 120, b: 200 } } }).png().toBuffer();
    const uploaded = await owner.upload('/realm/emoji/app_emoji', [{ name: 'app_emoji.png', bytes: image, type: 'image/png' }]);
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
    const customId = Object.values((await owner.get('/realm/emoji')).body.emoji as Record<string, { id: string; name: string }>).find(
      (emoji) => emoji.name === 'app_emoji',
    )!.id;
    const custom = { emoji_name: raw('app_emoji'), emoji_code: raw(customId), reaction_type: raw('realm_emoji') };
    await app.ok('POST', `messages/${unread}/reactions`, custom);
    await app.ok('POST', 'users/me/status', { status_text: raw('custom'), ...custom });
    await owner.delete('/realm/emoji/app_emoji');

    // A poll, and a vote on it as the app sends one.
    const poll = await sendMessage(other, { type: 'stream', to: target.id, topic: 'flags', content: '/poll Lunch?\nPizza\nSalad' });
    await app.ok('POST', 'submessage', {
      message_id: poll,
      msg_type: raw('widget'),
      content: raw(JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 })),
    });

    // Typing, in a topic and in a direct conversation.
    for (const op of ['start', 'stop']) {
      await other.post('/typing', { op, type: 'stream', stream_id: target.id, topic: 'flags' });
      await other.post('/typing', { op, type: 'direct', to: JSON.stringify([appUserId]) });
    }

    // Presence and status, the Zulip emoji included.
    await other.post('/users/me/presence', { status: 'active', new_user_input: true, slim_presence: true });
    await app.expect(PRESENCE, 'POST', 'users/me/presence', { status: raw('active'), ping_only: false, new_user_input: true, slim_presence: true });
    await app.ok('POST', 'users/me/status', { status_text: raw('coding'), emoji_name: raw('zulip'), emoji_code: raw('zulip'), reaction_type: raw('zulip_extra_emoji') });
    await other.post('/users/me/status', { status_text: 'lunch', emoji_name: 'zulip' });
    await app.ok('POST', 'users/me/status', { status_text: raw(''), emoji_name: raw(''), emoji_code: raw(''), reaction_type: raw('') });
    await drain();

    // Channels and subscriptions.
    const made = uniqueName();
    await owner.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: made, description: 'new' }]), principals: JSON.stringify([appUserId]) });
    const madeId = (await owner.get('/get_stream_id', { stream: made })).body.stream_id as number;
    await owner.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: made }]), principals: JSON.stringify([other.userId]) });
    await owner.delete('/users/me/subscriptions', { subscriptions: JSON.stringify([made]), principals: JSON.stringify([other.userId]) });
    for (const [property, value] of [
      ['color', '#76ce90'],
      ['is_muted', true],
      ['pin_to_top', true],
      ['desktop_notifications', false],
      ['push_notifications', true],
      ['audible_notifications', false],
      ['email_notifications', false],
      ['wildcard_mentions_notify', true],
    ] as const) {
      await app.ok('POST', 'users/me/subscriptions/properties', { subscription_data: [{ stream_id: madeId, property, value }] });
    }
    await owner.patch(`/streams/${madeId}`, { description: 'newer' });
    await owner.patch(`/streams/${madeId}`, { new_name: `${made} renamed` });
    await owner.patch(`/streams/${madeId}`, { is_private: true });
    await owner.patch(`/streams/${madeId}`, { message_retention_days: JSON.stringify(30) });
    await owner.patch(`/streams/${madeId}`, { can_send_message_group: server.groupId('role:members') });
    await app.ok('DELETE', 'users/me/subscriptions', { subscriptions: [`${made} renamed`] });
    await owner.delete(`/streams/${madeId}`);
    await drain();

    // People and groups.
    const newcomer = await server.createUser('Newcomer');
    await owner.patch(`/users/${newcomer.userId}`, { full_name: 'Newcomer Renamed' });
    await owner.patch(`/users/${newcomer.userId}`, { role: 200 });
    const fieldId = (await owner.post('/realm/profile_fields', { name: 'Pronouns', field_type: 1, hint: 'they/them' })).body.id as number;
    await newcomer.patch('/users/me/profile_data', { data: JSON.stringify([{ id: fieldId, value: 'she/her' }]) });
    await owner.delete(`/users/${newcomer.userId}`);
    const created = await owner.post('/user_groups/create', { name: uniqueName('group'), description: 'a group', members: JSON.stringify([server.ownerId]) });
    const groupId = created.body.group_id as number;
    const subgroup = (await owner.post('/user_groups/create', { name: uniqueName('group'), description: 'sub', members: JSON.stringify([other.userId]) })).body.group_id as number;
    await owner.patch(`/user_groups/${groupId}`, { description: 'still a group' });
    await owner.post(`/user_groups/${groupId}/members`, { add: JSON.stringify([appUserId]) });
    await owner.post(`/user_groups/${groupId}/members`, { delete: JSON.stringify([appUserId]) });
    await owner.post(`/user_groups/${groupId}/subgroups`, { add: JSON.stringify([subgroup]) });
    await owner.post(`/user_groups/${groupId}/subgroups`, { delete: JSON.stringify([subgroup]) });
    await owner.post(`/user_groups/${groupId}/deactivate`);
    await drain();

    // The app user's own settings, topics, mutes, alert words and snippets.
    await app.ok('PATCH', 'settings', { twenty_four_hour_time: true });
    await app.ok('PATCH', 'settings', { emojiset: raw('text') });
    await app.ok('PATCH', 'settings', { display_emoji_reaction_users: false });
    await app.ok('PATCH', 'settings', { presence_enabled: true });
    await app.ok('POST', 'user_topics', { stream_id: target.id, topic: raw('flags'), visibility_policy: 1 });
    await app.ok('POST', 'user_topics', { stream_id: target.id, topic: raw('flags'), visibility_policy: 0 });
    await app.ok('POST', `users/me/muted_users/${other.userId}`);
    await app.ok('DELETE', `users/me/muted_users/${other.userId}`);
    await app.ok('POST', 'users/me/alert_words', { alert_words: ['octopus'] });
    const snippet = (await app.ok('POST', 'saved_snippets', { title: raw('hi'), content: raw('hello there') })).saved_snippet_id as number;
    await app.ok('PATCH', `saved_snippets/${snippet}`, { content: raw('hello again') });
    await app.ok('DELETE', `saved_snippets/${snippet}`);

    // Organization settings: the app decodes no realm event, but each must still carry a type and an id.
    await owner.patch('/realm', { name: 'Stoa for phones', description: 'renamed' });
    await owner.patch('/realm', { message_content_edit_limit_seconds: JSON.stringify(600) });
    await drain();

    // With nothing left, a blocking poll is answered with a heartbeat.
    const waited = await queue.poll(true);
    assert.deepEqual(waited.map((e) => e.type), ['heartbeat']);
    seen.set('heartbeat/', 1);

    // And a register now, with all of that in place (a status with the Zulip emoji among it), still decodes.
    await appQueue();

    const missing = Object.entries(EVENTS)
      .flatMap(([type, ops]) => Object.keys(ops).map((op) => `${type}/${op}`))
      .filter((key) => !seen.has(key) && !(key in NOT_PRODUCED));
    assert.deepEqual(missing, [], 'every event the app decodes was produced and checked');
  });
});

describe('message lists, as the app fetches them', () => {
  test('GET /messages for every narrow and anchor the app uses, self-DM with first_unread included', async () => {
    const channel = await sharedChannel();
    const me = await app.expect(SEND_MESSAGE, 'POST', 'messages', { type: raw('direct'), to: [appUserId], content: raw('note to self'), read_by_sender: true });
    await sendMessage(other, { type: 'direct', to: JSON.stringify([appUserId]), content: 'unread, to Ada' });
    await sendMessage(other, { type: 'stream', to: channel.id, topic: '', content: 'in general chat' });
    await other.post(`/messages/${channel.messageId}/reactions`, { emoji_name: 'zulip' });
    await other.post(`/messages/${channel.messageId}/reactions`, { emoji_name: 'octopus' });
    await app.ok('PATCH', `messages/${me.id}`, { content: raw('note to self, edited') });
    await app.expect(UPDATE_FLAGS, 'POST', 'messages/flags', { messages: [me.id], op: raw('add'), flag: raw('starred') });
    const narrows: Array<[string, unknown[]]> = [
      ['the combined feed', []],
      ['a channel', [{ operator: 'channel', operand: channel.id }]],
      ['a topic', [{ operator: 'channel', operand: channel.id }, { operator: 'topic', operand: 'hello' }]],
      ['the empty topic', [{ operator: 'channel', operand: channel.id }, { operator: 'topic', operand: '' }]],
      ['a topic with a message', [{ operator: 'channel', operand: channel.id }, { operator: 'topic', operand: 'hello' }, { operator: 'with', operand: channel.messageId }]],
      ['a direct conversation', [{ operator: 'dm', operand: [appUserId, other.userId] }]],
      ['the self-DM', [{ operator: 'dm', operand: [appUserId] }]],
      ['mentions', [{ operator: 'is', operand: 'mentioned' }]],
      ['starred', [{ operator: 'is', operand: 'starred' }]],
      ['a search', [{ operator: 'search', operand: 'hi' }]],
      ['unread in a channel', [{ operator: 'channel', operand: channel.id }, { operator: 'is', operand: 'unread' }]],
    ];
    for (const [what, narrow] of narrows) {
      for (const anchor of ['newest', 'first_unread', String(channel.messageId)]) {
        const params = { narrow, anchor: raw(anchor), num_before: 100, num_after: 100, allow_empty_topic_name: true };
        await app.expect(GET_MESSAGES, 'GET', 'messages', params).catch((err: Error) => {
          throw new Error(`${what}, anchor ${anchor}: ${err.message}`);
        });
      }
      // Older and newer pages: a numeric anchor, without it.
      await app.expect(GET_MESSAGES, 'GET', 'messages', { narrow, anchor: raw(String(channel.messageId)), include_anchor: false, num_before: 0, num_after: 100, allow_empty_topic_name: true });
    }
    const shown = await app.expect(GET_MESSAGE, 'GET', `messages/${channel.messageId}`, { apply_markdown: true, allow_empty_topic_name: true });
    assert.deepEqual(shown.message.reactions.map((r: { reaction_type: string }) => r.reaction_type), ['zulip_extra_emoji', 'unicode_emoji']);
  });

  test('the other answers of a conversation: topics, read receipts, marking as read', async () => {
    const channel = await sharedChannel();
    await app.expect(CHANNEL_TOPICS, 'GET', `users/me/${channel.id}/topics`, { allow_empty_topic_name: true });
    await app.expect(READ_RECEIPTS, 'GET', `messages/${channel.messageId}/read_receipts`);
    const narrow = [{ operator: 'channel', operand: channel.id }, { operator: 'topic', operand: 'hello' }, { operator: 'is', operand: 'unread' }];
    const marked = await app.expect(UPDATE_FLAGS_FOR_NARROW, 'POST', 'messages/flags/narrow', {
      anchor: raw('oldest'),
      include_anchor: true,
      num_before: 0,
      num_after: 1000,
      narrow,
      op: raw('add'),
      flag: raw('read'),
    });
    assert.equal(marked.found_newest, true);
  });

  test('push tokens of the legacy routes the app uses at this feature level', async () => {
    await app.ok('POST', 'users/me/android_gcm_reg_id', { token: raw('fcm-token-for-the-test') });
    await app.ok('POST', 'users/me/apns_device_token', { token: raw('ab'.repeat(32)), appid: raw('org.zulip.Zulip') });
  });

  test('attachments: a size limit above zero, and POST /user_uploads answering uri for a multipart "file"', async () => {
      const { state } = await appQueue();
      assert.ok(state.max_file_upload_size_mib > 0, 'the app refuses every file larger than this many MiB');
      const form = new FormData();
      form.append('file', new Blob(['hello from the app'], { type: 'text/plain' }), 'hello.txt');
      const response = await fetch(new URL('/api/v1/user_uploads', server.url), {
        method: 'POST',
        headers: {
          'user-agent': APP_USER_AGENT,
          authorization: `Basic ${Buffer.from(`${app.credentials!.email}:${app.credentials!.apiKey}`).toString('base64')}`,
        },
        body: form,
      });
      assert.equal(response.status, 200);
      assertDecodes(await response.json(), UPLOAD_FILE, 'POST user_uploads');
  });
});

describe('the emoji data at server_emoji_data_url', () => {
  test('is an absolute URL the app fetches without credentials, answering every code with its names', async () => {
    const { state } = await appQueue();
    const response = await fetch(state.server_emoji_data_url, { headers: { 'user-agent': APP_USER_AGENT } });
    assert.equal(response.status, 200);
    const data = (await response.json()) as Json;
    assertDecodes(data, EMOJI_DATA, 'the emoji data');
    const byCode = (data as { code_to_names: Record<string, string[]> }).code_to_names;
    assert.deepEqual(byCode['1f419'], ['octopus']);
  });
});

describe('the Zulip emoji: the specification name for everyone, Zulip name for Zulip own apps', () => {
  /** What a client with this User-Agent sees of the Zulip emoji's type, everywhere it is shown. */
  async function namesSeenBy(userAgent: string, isZulipApp: boolean) {
    const viewer = new App(server.url, app.credentials, userAgent);
    const queue = await appQueue(viewer, isZulipApp);
    const channel = await sharedChannel();
    await other.post(`/messages/${channel.messageId}/reactions`, { emoji_name: 'zulip' });
    await other.post('/users/me/status', { status_text: 'zulipping', emoji_name: 'zulip' });
    const reacted = await sendMessage(other, { type: 'stream', to: channel.id, topic: 'hello', content: 'react' });
    await other.post(`/messages/${reacted}/reactions`, { emoji_name: 'zulip' });
    const events = await queue.poll();
    const later = await appQueue(viewer, isZulipApp);
    const fetched = await viewer.request('GET', 'messages', { narrow: [{ operator: 'channel', operand: channel.id }], anchor: raw('newest'), num_before: 10, num_after: 0 });
    const one = await viewer.request('GET', `messages/${channel.messageId}`);
    const status = await viewer.request('GET', `users/${other.userId}/status`);
    return {
      messages: (fetched.body as any).messages.flatMap((m: any) => m.reactions.map((r: any) => r.reaction_type)),
      message: (one.body as any).message.reactions.map((r: any) => r.reaction_type),
      reactionEvents: events.filter((e) => e.type === 'reaction').map((e) => e.reaction_type),
      statusEvents: events.filter((e) => e.type === 'user_status' && e.emoji_name).map((e) => e.reaction_type),
      statusState: later.state.user_status[String(other.userId)].reaction_type,
      status: (status.body as any).status.reaction_type,
    };
  }

  test('a generic client sees service_extra_emoji everywhere', async () => {
    const seen = await namesSeenBy('zulip-js/1.0', false);
    assert.deepEqual(seen.messages, ['service_extra_emoji', 'service_extra_emoji']);
    assert.deepEqual(seen.message, ['service_extra_emoji']);
    assert.deepEqual(seen.reactionEvents, ['service_extra_emoji', 'service_extra_emoji']);
    assert.deepEqual(seen.statusEvents, ['service_extra_emoji']);
    assert.equal(seen.statusState, 'service_extra_emoji');
    assert.equal(seen.status, 'service_extra_emoji');
  });

  for (const userAgent of [APP_USER_AGENT, 'ZulipMobile/27.1 (Android 14)']) {
    test(`${userAgent.split('/')[0]} sees zulip_extra_emoji everywhere`, async () => {
      const seen = await namesSeenBy(userAgent, true);
      assert.deepEqual(seen.messages, ['zulip_extra_emoji', 'zulip_extra_emoji']);
      assert.deepEqual(seen.message, ['zulip_extra_emoji']);
      assert.deepEqual(seen.reactionEvents, ['zulip_extra_emoji', 'zulip_extra_emoji']);
      assert.deepEqual(seen.statusEvents, ['zulip_extra_emoji']);
      assert.equal(seen.statusState, 'zulip_extra_emoji');
      assert.equal(seen.status, 'zulip_extra_emoji');
    });
  }
});

describe('what the app reads from newer servers', () => {
  test('a table column alignment is written style="text-align: left;" exactly, as the app parses it', async () => {
    const { id: channelId } = await sharedChannel();
    const content = '| left | centre | right | plain |\n|:-----|:------:|------:|-------|\n| 1 | 2 | 3 | 4 |';
    const messageId = await sendMessage(other, { type: 'stream', to: channelId, topic: 'tables', content });
    const { message } = await app.expect(GET_MESSAGE, 'GET', `messages/${messageId}`, { apply_markdown: true });
    const cells = [...(message.content as string).matchAll(/<(th|td)( style="[^"]*")?>/g)].map((m) => `${m[1]}${m[2] ?? ''}`);
    assert.deepEqual(cells, [
      'th style="text-align: left;"',
      'th style="text-align: center;"',
      'th style="text-align: right;"',
      'th',
      'td style="text-align: left;"',
      'td style="text-align: center;"',
      'td style="text-align: right;"',
      'td',
    ]);
  });

  test('"Report message", which the app offers once a moderation channel is set, is answered as the app expects', async () => {
    const { messageId } = await sharedChannel();
    const moderators = await createChannel(server.owner, { invite_only: true });
    assert.equal((await server.owner.patch('/realm', { moderation_request_channel_id: moderators.id })).status, 200);
    try {
      const { state } = await appQueue();
      assert.equal(state.realm_moderation_request_channel_id, moderators.id, 'what makes the app offer the action');
      // lib/api/route/messages.dart: reportMessage posts report_type and description, raw.
      await app.ok('POST', `messages/${messageId}/report`, { report_type: raw('spam'), description: raw('Not again.') });
      const refused = await app.request('POST', `messages/${messageId}/report`, { report_type: raw('other') });
      assert.equal(refused.status, 400);
      assertDecodes(refused.body, API_ERROR, 'the refusal');
    } finally {
      await server.owner.patch('/realm', { moderation_request_channel_id: -1 });
    }
  });

  test('an edit naming the content it replaces (prev_content_sha256) is refused once someone else changed it', async () => {
    const { id: channelId } = await sharedChannel();
    const messageId = await sendMessage(server.owner, { type: 'stream', to: channelId, topic: 'edits', content: 'first draft' });
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    const asOwner = new App(server.url, server.owner.credentials);
    await asOwner.ok('PATCH', `messages/${messageId}`, { content: raw('second draft'), prev_content_sha256: raw(sha256('first draft')) });
    const stale = await asOwner.request('PATCH', `messages/${messageId}`, {
      content: raw('third draft'),
      prev_content_sha256: raw(sha256('first draft')),
    });
    assert.equal(stale.status, 400);
    assertDecodes(stale.body, API_ERROR, 'the refusal');
    assert.deepEqual([(stale.body as any).code, (stale.body as any).msg], [
      'EXPECTATION_MISMATCH',
      "'prev_content_sha256' value does not match the expected value.",
    ]);
    const { message } = await app.expect(GET_MESSAGE, 'GET', `messages/${messageId}`, { apply_markdown: false });
    assert.equal(message.content, 'second draft', 'the stale edit changed nothing');
  });

  test('idle_queue_timeout "mobile" keeps the queue twelve hours without a poll; numbers are seconds up to a week', async () => {
    const clock = new ManualClock();
    const quiet = await TestServer.start({ clock });
    try {
      const phone = new App(quiet.url, quiet.owner.credentials);
      const register = (idle_queue_timeout: unknown) => phone.request('POST', 'register', { ...APP_REGISTER_PARAMS, fetch_event_types: [], idle_queue_timeout });
      const poll = (queueId: string) => phone.request('GET', 'events', { queue_id: raw(queueId), last_event_id: -1, dont_block: true });
      const mobile = (await register('mobile')).body as any;
      const hour = (await register(3600)).body as any;
      const week = (await register(30 * 24 * 3600)).body as any;
      assert.deepEqual([mobile.idle_queue_timeout_secs, hour.idle_queue_timeout_secs, week.idle_queue_timeout_secs], [43_200, 3600, 604_800]);
      for (const { queue_id } of [mobile, hour]) assert.equal((await poll(queue_id)).status, 200);
      clock.advance(11 * 3600 * 1000);
      quiet.stoa.queues.collectGarbage();
      assert.equal((await poll(mobile.queue_id)).status, 200, 'a phone asleep for eleven hours still has its queue');
      assert.equal(((await poll(hour.queue_id)).body as any).code, 'BAD_EVENT_QUEUE_ID');
      clock.advance(12 * 3600 * 1000 + 1000);
      quiet.stoa.queues.collectGarbage();
      assert.equal(((await poll(mobile.queue_id)).body as any).code, 'BAD_EVENT_QUEUE_ID');
      for (const [value, msg] of [
        ['desktop', 'Invalid idle_queue_timeout'],
        [0, 'idle_queue_timeout is too small'],
      ] as const) {
        const refused = await register(value);
        assert.deepEqual([refused.status, (refused.body as any).msg], [400, msg]);
      }
    } finally {
      await quiet.close();
    }
  });
});

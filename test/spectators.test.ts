import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { SPECTATOR_DOWNLOADS_PER_FILE, SPECTATOR_REQUESTS_PER_ADDRESS } from '../lib/stoa';
import { Browser } from './support/browser';
import { createChannel } from './support/channels';
import { sendMessage } from './support/messages';
import { ManualClock, TestServer } from './support/server';

// Spectators are visitors without an account: Zulip's "public access option". They reach a
// few endpoints under /json without a session, and uploads, while the server runs with
// --web-public and the organization turns on enable_spectator_access.

let server: TestServer;
let webPublic: { name: string; id: number };
let publicChannel: { name: string; id: number };
let privateChannel: { name: string; id: number };
let member: Awaited<ReturnType<TestServer['createUser']>>;
const ids: Record<string, number> = {};

/** A browser with no cookies at all: a spectator. */
function spectator(): Browser {
  return new Browser(server.url);
}

const WEB_PUBLIC_NARROW = [{ operator: 'channels', operand: 'web-public' }];

async function spectatorMessages(narrow: unknown[], extra: Record<string, unknown> = {}) {
  return spectator().get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow, ...extra });
}

function assertNotLoggedIn(response: { status: number; body: any; headers: Headers }, challenge = 'Session realm="zulip"') {
  assert.equal(response.status, 401, JSON.stringify(response.body));
  assert.equal(response.body.code, 'UNAUTHORIZED');
  assert.equal(response.body.msg, 'Not logged in: API authentication or user session required');
  assert.equal(response.headers.get('www-authenticate'), challenge);
}

async function setSpectatorAccess(on: boolean) {
  assert.equal((await server.owner.patch('/realm', { enable_spectator_access: on })).status, 200);
}

async function upload(name: string, bytes: Buffer | string, type: string): Promise<string> {
  const response = await server.owner.upload('/user_uploads', [{ name, bytes, type }]);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.url as string;
}

before(async () => {
  server = await TestServer.start({ webPublic: true });
  member = await server.createUser('Margaret Member');
});
after(() => server.close());

describe('while spectator access is off', () => {
  test('a visitor without a session gets the authentication error, as before', async () => {
    const messages = await spectatorMessages(WEB_PUBLIC_NARROW);
    assertNotLoggedIn(messages);
    assertNotLoggedIn(await spectator().post('/register'));
    assertNotLoggedIn(await spectator().get('/messages/1'));
    assertNotLoggedIn(await spectator().get('/users/me/1/topics'));
    assertNotLoggedIn(await spectator().get('/users'));
  });
});

describe('with spectator access on', () => {
  before(async () => {
    await setSpectatorAccess(true);
    webPublic = await createChannel(server.owner, { is_web_public: true });
    publicChannel = await createChannel(server.owner);
    privateChannel = await createChannel(server.owner, { invite_only: true });
    ids.webPublic = await sendMessage(server.owner, { type: 'stream', to: webPublic.name, topic: 'welcome', content: 'Hello **world**' });
    ids.webPublicOther = await sendMessage(server.owner, { type: 'stream', to: webPublic.name, topic: 'other', content: 'second' });
    ids.public = await sendMessage(server.owner, { type: 'stream', to: publicChannel.name, topic: 'members only', content: 'not for visitors' });
    ids.private = await sendMessage(server.owner, { type: 'stream', to: privateChannel.name, topic: 'secret', content: 'hush' });
    ids.direct = await sendMessage(server.owner, { type: 'direct', to: [member.userId], content: 'just us' });
  });

  test('a spectator reads a web-public channel: rendered content, sender with an avatar URL, everything read', async () => {
    const response = await spectatorMessages(WEB_PUBLIC_NARROW);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const messages = response.body.messages as any[];
    assert.ok(messages.every((m) => m.stream_id === webPublic.id), 'only the web-public channel’s messages, never public, private or direct ones');
    assert.deepEqual(messages.slice(-2).map((m) => m.id), [ids.webPublic, ids.webPublicOther]);
    const first = messages.find((m) => m.id === ids.webPublic);
    assert.equal(first.content, '<p>Hello <strong>world</strong></p>');
    assert.equal(first.display_recipient, webPublic.name);
    assert.equal(first.subject, 'welcome');
    assert.equal(first.sender_id, server.ownerId);
    assert.equal(first.sender_full_name, server.stoa.users.byId(server.ownerId)!.full_name);
    assert.match(first.avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?/);
    assert.deepEqual(first.flags, ['read']);
    assert.equal(response.body.found_newest, true);
    assert.equal(response.body.found_oldest, true);
  });

  test('avatars come as URLs even when the spectator asks to compute gravatars itself', async () => {
    const response = await spectatorMessages(WEB_PUBLIC_NARROW, { client_gravatar: true });
    assert.equal(response.status, 200);
    for (const message of response.body.messages) assert.equal(typeof message.avatar_url, 'string');
  });

  test('a spectator narrows further within web-public channels: channel, topic, sender, search, with', async () => {
    const byTopic = await spectatorMessages([...WEB_PUBLIC_NARROW, { operator: 'channel', operand: webPublic.id }, { operator: 'topic', operand: 'other' }]);
    assert.deepEqual(byTopic.body.messages.map((m: any) => m.id), [ids.webPublicOther]);
    const bySender = await spectatorMessages([...WEB_PUBLIC_NARROW, { operator: 'sender', operand: server.ownerId }]);
    assert.deepEqual(bySender.body.messages.map((m: any) => m.id), [ids.webPublic, ids.webPublicOther]);
    const bySearch = await spectatorMessages([...WEB_PUBLIC_NARROW, { operator: 'search', operand: 'world' }]);
    assert.deepEqual(bySearch.body.messages.map((m: any) => m.id), [ids.webPublic]);
    assert.match(bySearch.body.messages[0].match_content, /highlight/);
    const byWith = await spectatorMessages([...WEB_PUBLIC_NARROW, { operator: 'with', operand: ids.webPublicOther }]);
    assert.deepEqual(byWith.body.messages.map((m: any) => m.id), [ids.webPublicOther]);
    const all = await spectatorMessages(WEB_PUBLIC_NARROW);
    const home = await spectatorMessages([...WEB_PUBLIC_NARROW, { operator: 'in', operand: 'home' }]);
    assert.equal(home.status, 200, 'in:home is dropped for spectators, as Zulip does');
    assert.deepEqual(home.body.messages, all.body.messages);
  });

  test('a narrow that does not ask for web-public channels, or filters by what needs an account, gets the authentication error', async () => {
    assertNotLoggedIn(await spectatorMessages([]));
    assertNotLoggedIn(await spectatorMessages([{ operator: 'channel', operand: webPublic.name }]));
    assertNotLoggedIn(await spectatorMessages([{ operator: 'channels', operand: 'web-public', negated: true }]));
    assertNotLoggedIn(await spectatorMessages([...WEB_PUBLIC_NARROW, { operator: 'is', operand: 'starred' }]));
    assertNotLoggedIn(await spectatorMessages([...WEB_PUBLIC_NARROW, { operator: 'dm', operand: [member.userId] }]));
    assertNotLoggedIn(await spectatorMessages([...WEB_PUBLIC_NARROW, { operator: 'in', operand: 'all' }]));
  });

  test('naming a channel that is not web-public is a bad narrow, whatever kind of channel it is', async () => {
    for (const channel of [publicChannel, privateChannel]) {
      const response = await spectatorMessages([...WEB_PUBLIC_NARROW, { operator: 'channel', operand: channel.name }]);
      assert.equal(response.status, 400);
      assert.equal(response.body.code, 'BAD_NARROW');
      assert.equal(response.body.msg, `Invalid narrow operator: unknown web-public channel ${channel.name}`);
    }
    const missing = await spectatorMessages([...WEB_PUBLIC_NARROW, { operator: 'channel', operand: 'no such channel' }]);
    assert.equal(missing.body.msg, 'Invalid narrow operator: unknown channel no such channel');
  });

  test('broken narrows from a spectator are the client’s mistake, never the server’s', async () => {
    const broken: unknown[][] = [
      [...WEB_PUBLIC_NARROW, { operator: 'channel', operand: {} }],
      [...WEB_PUBLIC_NARROW, { operator: 'topic', operand: 5 }],
      [...WEB_PUBLIC_NARROW, { operator: 'id', operand: 'abc' }],
      [...WEB_PUBLIC_NARROW, { operator: 'with', operand: 99_999_999_999 }],
      [...WEB_PUBLIC_NARROW, { operator: 'sender', operand: null }],
      [...WEB_PUBLIC_NARROW, { operator: 'has', operand: 'nonsense' }],
      [['channels', 'web-public'], ['near', 'abc']],
    ];
    for (const narrow of broken) {
      const response = await spectatorMessages(narrow);
      assert.equal(response.status, 400, JSON.stringify({ narrow, body: response.body }));
    }
    const search = await spectatorMessages([...WEB_PUBLIC_NARROW, { operator: 'search', operand: '"AND OR * NEAR(' }]);
    assert.equal(search.status, 200);
    const notJson = await spectator().get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: '[{' });
    assert.equal(notJson.status, 400);
  });

  test('message_ids returns only the web-public ones among those asked for', async () => {
    const response = await spectator().get('/messages', {
      narrow: WEB_PUBLIC_NARROW,
      message_ids: [ids.webPublic, ids.public, ids.private, ids.direct],
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(response.body.messages.map((m: any) => m.id), [ids.webPublic]);
  });

  test('a web-public message by ID comes with its Markdown; any other ID gets the authentication error', async () => {
    const response = await spectator().get(`/messages/${ids.webPublic}`);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.raw_content, 'Hello **world**');
    assert.equal(response.body.message.id, ids.webPublic);
    assert.deepEqual(response.body.message.flags, ['read']);
    assert.equal(typeof response.body.message.avatar_url, 'string');
    for (const id of [ids.public, ids.private, ids.direct, 999_999]) assertNotLoggedIn(await spectator().get(`/messages/${id}`));
  });

  test('a spectator lists a web-public channel’s topics, and no other channel’s', async () => {
    const response = await spectator().get(`/users/me/${webPublic.id}/topics`);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    // The notification bot announced the channel in "channel events" first.
    assert.deepEqual(response.body.topics.map((t: any) => t.name), ['other', 'welcome', 'channel events']);
    for (const channel of [publicChannel, privateChannel]) {
      const refused = await spectator().get(`/users/me/${channel.id}/topics`);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.msg, 'Invalid channel ID');
    }
  });

  test('spectators may only read: every other /json endpoint still wants a session', async () => {
    assertNotLoggedIn(await spectator().post('/messages', { type: 'stream', to: webPublic.name, topic: 'x', content: 'hi' }));
    assertNotLoggedIn(await spectator().get('/streams'));
    assertNotLoggedIn(await spectator().get('/users/me'));
    assertNotLoggedIn(await spectator().get('/events', { queue_id: 'x', last_event_id: -1 }));
  });

  test('under /api/v1, a request without credentials still gets the authentication error, as on Zulip', async () => {
    const messages = await server.anonymous.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: WEB_PUBLIC_NARROW });
    assertNotLoggedIn(messages, 'Basic realm="zulip"');
    assertNotLoggedIn(await server.anonymous.post('/register'), 'Basic realm="zulip"');
  });

  test('signed-in users are unaffected: their own flags and every channel they may read', async () => {
    const response = await member.get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [] });
    const byId = new Map((response.body.messages as any[]).map((m) => [m.id, m]));
    assert.ok(byId.has(ids.direct));
    assert.ok(!byId.get(ids.direct).flags.includes('read'));
  });

  describe('POST /register without a session', () => {
    test('gives the state of a visitor with no queue: the organization, its web-public channels, and nothing personal', async () => {
      const response = await spectator().post('/register');
      assert.equal(response.status, 200, JSON.stringify(response.body));
      const state = response.body;
      assert.equal(state.queue_id, null);
      assert.equal('last_event_id' in state, false);
      assert.equal('streams' in state, false, 'as on Zulip, spectators get their channels as subscriptions only');
      assert.deepEqual(state.subscriptions.map((s: any) => s.stream_id), [webPublic.id]);
      assert.equal(state.subscriptions[0].is_web_public, true);
      assert.equal(state.subscriptions[0].is_muted, false);
      assert.deepEqual(state.unsubscribed, []);
      assert.deepEqual(state.never_subscribed, []);
      assert.equal(state.user_id, 0);
      assert.equal(state.full_name, 'Anonymous User');
      assert.equal(state.is_guest, true);
      assert.equal(state.is_admin, false);
      assert.equal(state.can_create_streams, false);
      assert.equal(state.realm_allow_message_editing, false);
      assert.equal(state.realm_presence_disabled, true);
      assert.equal(state.realm_enable_spectator_access, true);
      assert.equal(state.max_message_id, -1);
      assert.deepEqual(state.unread_msgs, { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false });
      for (const key of ['alert_words', 'drafts', 'muted_users', 'starred_messages', 'recent_private_conversations', 'custom_profile_fields', 'realm_bots']) {
        assert.deepEqual(state[key], [], key);
      }
      assert.deepEqual(state.presences, {});
      assert.deepEqual(state.user_status, {});
      assert.equal(state.user_settings.web_home_view, 'recent');
      const owner = state.realm_users.find((u: any) => u.user_id === server.ownerId);
      assert.equal(owner.delivery_email, null, 'real emails are not for the public');
      assert.equal(typeof owner.avatar_url, 'string');
      assert.equal('profile_data' in owner, false);
    });

    test('takes the language a visitor chose from the language cookie', async () => {
      const visitor = spectator();
      visitor.cookies.set('django_language', 'de');
      const response = await visitor.post('/register', { fetch_event_types: ['user_settings'] });
      assert.equal(response.body.user_settings.default_language, 'de');
      assert.deepEqual(Object.keys(response.body).sort(), ['msg', 'queue_id', 'result', 'user_settings', 'zulip_feature_level', 'zulip_merge_base', 'zulip_version']);
    });

    test('refuses gravatar hashes and subscriber lists, as Zulip does for anonymous requests', async () => {
      const gravatar = await spectator().post('/register', { client_gravatar: true });
      assert.equal(gravatar.status, 400);
      assert.equal(gravatar.body.msg, "Invalid 'client_gravatar' parameter for anonymous request");
      const subscribers = await spectator().post('/register', { include_subscribers: true });
      assert.equal(subscribers.status, 400);
      assert.equal(subscribers.body.msg, "Invalid 'include_subscribers' parameter for anonymous request");
      assert.equal((await spectator().post('/register', { client_gravatar: false })).status, 200);
    });
  });

  describe('uploads', () => {
    let inWebPublic: string;
    let inPublic: string;
    let image: string;

    before(async () => {
      inWebPublic = await upload('notes.txt', 'for everyone', 'text/plain');
      inPublic = await upload('members.txt', 'for members', 'text/plain');
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
      image = await upload('picture.png', png, 'image/png');
      await sendMessage(server.owner, { type: 'stream', to: webPublic.name, topic: 'files', content: `[notes](${inWebPublic}) [picture](${image})` });
      await sendMessage(server.owner, { type: 'stream', to: publicChannel.name, topic: 'files', content: `[members](${inPublic})` });
    });

    test('a file linked from a web-public channel downloads without credentials, thumbnails too', async () => {
      const file = await spectator().download(inWebPublic);
      assert.equal(file.status, 200);
      assert.equal(file.bytes.toString(), 'for everyone');
      const thumbnail = await spectator().download(image.replace('/user_uploads/', '/user_uploads/thumbnail/') + '/840x560.webp');
      assert.equal(thumbnail.status, 200);
      assert.equal(thumbnail.headers.get('content-type'), 'image/webp');
    });

    test('a file linked only from other channels, or from nowhere, is refused; one that does not exist is not found', async () => {
      // As on Zulip, a visitor is sent to log in rather than told the file is forbidden.
      const refused = await spectator().download(inPublic);
      assert.deepEqual([refused.status, refused.headers.get('location')], [302, `/login/?next=${inPublic}`]);
      const unlinked = await upload('draft.txt', 'not sent', 'text/plain');
      assert.equal((await spectator().download(unlinked)).status, 302);
      const missing = await spectator().download(inWebPublic.replace(/[^/]+$/, 'missing.txt'));
      assert.deepEqual([missing.status, missing.bytes.toString()], [404, '<p>This file does not exist or has been deleted.</p>']);
    });

    test('credentials, when given, are checked as before', async () => {
      const response = await fetch(new URL(inWebPublic, server.url), { headers: { authorization: `Basic ${Buffer.from('x@example.com:bad').toString('base64')}` } });
      assert.equal(response.status, 401);
    });

    test('spectators may fetch one file a limited number of times a day', async () => {
      const limited = await upload('popular.txt', 'everyone wants this', 'text/plain');
      await sendMessage(server.owner, { type: 'stream', to: webPublic.name, topic: 'files', content: `[popular](${limited})` });
      const pathId = limited.replace(/^\/user_uploads\//, '');
      for (let i = 0; i < SPECTATOR_DOWNLOADS_PER_FILE.max - 1; i++) server.stoa.spectatorDownloads.recordFailure(pathId);
      assert.equal((await spectator().download(limited)).status, 200, 'the last download of the day');
      assert.equal((await spectator().download(limited)).status, 302, 'one too many: sent to log in');
      assert.equal((await server.owner.download(limited)).status, 200, 'members are not limited');
    });
  });

  describe('avatars by user ID', () => {
    async function avatar(path: string, headers: Record<string, string> = {}) {
      const response = await fetch(new URL(path, server.url), { redirect: 'manual', headers });
      return { status: response.status, location: response.headers.get('location') };
    }

    test('a spectator is sent on to anyone’s avatar by their ID, with the query string passed on', async () => {
      const owner = server.stoa.users.byId(server.ownerId)!;
      const plain = await avatar(`/avatar/${owner.id}`);
      assert.equal(plain.status, 302);
      assert.equal(plain.location, server.stoa.avatars.url(owner));
      const medium = await avatar(`/avatar/${owner.id}/medium?s=50`);
      assert.equal(medium.status, 302);
      assert.equal(medium.location, `${server.stoa.avatars.mediumUrl(owner)}&s=50`);
    });

    test('by email only with credentials, as on Zulip', async () => {
      const owner = server.stoa.users.byId(server.ownerId)!;
      assert.equal((await avatar(`/avatar/${encodeURIComponent(owner.email)}`)).status, 401);
      const basic = `Basic ${Buffer.from(`${server.owner.credentials!.email}:${server.owner.credentials!.apiKey}`).toString('base64')}`;
      const byEmail = await avatar(`/avatar/${encodeURIComponent(owner.email)}`, { authorization: basic });
      assert.equal(byEmail.status, 302);
      assert.equal(byEmail.location, server.stoa.avatars.url(owner));
    });
  });

  describe('switching spectator access off', () => {
    before(() => setSpectatorAccess(false));
    after(() => setSpectatorAccess(true));

    test('closes every spectator path again', async () => {
      assertNotLoggedIn(await spectatorMessages(WEB_PUBLIC_NARROW));
      assertNotLoggedIn(await spectator().post('/register'));
      assertNotLoggedIn(await spectator().get(`/messages/${ids.webPublic}`));
      assertNotLoggedIn(await spectator().get(`/users/me/${webPublic.id}/topics`));
      const file = await spectator().download(inWebPublicUrl());
      assert.equal(file.status, 302, 'sent to log in, as Zulip does for any file a visitor may not read');
      assert.equal((await spectator().download(`/avatar/${server.ownerId}`)).status, 401);
    });
  });
});

/** The upload the uploads tests linked from the web-public channel, found again from the database. */
function inWebPublicUrl(): string {
  const row = server.stoa.attachments.byPath(
    [...server.stoa.attachments.allPaths()].find((p) => p.endsWith('/notes.txt'))!,
  )!;
  return `/user_uploads/${row.path_id}`;
}

describe('spectators are rate-limited by address, as Zulip limits unauthenticated use', () => {
  const clock = new ManualClock();
  let limited: TestServer;
  before(async () => {
    limited = await TestServer.start({ webPublic: true, clock });
    assert.equal((await limited.owner.patch('/realm', { enable_spectator_access: true })).status, 200);
  });
  after(() => limited.close());

  test('past a hundred requests a minute, the answer is 429 until the minute has passed; members are not counted', async () => {
    const visitor = new Browser(limited.url);
    const read = () => visitor.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: WEB_PUBLIC_NARROW });
    for (let i = 0; i < SPECTATOR_REQUESTS_PER_ADDRESS.max; i++) assert.equal((await read()).status, 200);
    const refused = await read();
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'RATE_LIMIT_HIT');
    assert.equal(refused.headers.get('retry-after'), '60');
    assert.equal((await limited.owner.get('/users/me')).status, 200);
    clock.advance(SPECTATOR_REQUESTS_PER_ADDRESS.windowMs);
    assert.equal((await read()).status, 200);
  });

  test('behind a proxy on the same machine, each client it names in X-Forwarded-For has a limit of its own', async () => {
    clock.advance(SPECTATOR_REQUESTS_PER_ADDRESS.windowMs);
    const visitor = new Browser(limited.url);
    const readAs = (client: string) =>
      visitor.request('GET', '/json/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: WEB_PUBLIC_NARROW }, { headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < SPECTATOR_REQUESTS_PER_ADDRESS.max; i++) assert.equal((await readAs('203.0.113.7')).status, 200);
    assert.equal((await readAs('203.0.113.7')).status, 429);
    assert.equal((await readAs('203.0.113.8')).status, 200, 'another client behind the same proxy is not held back');
    clock.advance(SPECTATOR_REQUESTS_PER_ADDRESS.windowMs);
  });
});

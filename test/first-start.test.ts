import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseConfig, type Config } from '../lib/config';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../lib/demo/organization';
import { Browser } from './support/browser';
import type { Client } from './support/client';
import { TestServer } from './support/server';

const STARTER_CHANNELS = ['general', 'sandbox', 'Stoa'];
const WELCOME_BOT = 'welcome-bot@stoa.local';

interface Message {
  id: number;
  type: string;
  display_recipient: string | Array<{ email: string }>;
  subject: string;
  sender_email: string;
  content: string;
  flags: string[];
}

async function messages(client: Client, narrow: unknown[] = []): Promise<Message[]> {
  const response = await client.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow, apply_markdown: false });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.messages;
}

async function subscribedNames(client: Client): Promise<string[]> {
  const response = await client.get('/users/me/subscriptions');
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.subscriptions.map((s: { name: string }) => s.name).sort();
}

async function defaultChannelNames(client: Client): Promise<string[]> {
  const state = await client.post('/register', { fetch_event_types: ['default_streams'] });
  assert.equal(state.status, 200, JSON.stringify(state.body));
  const ids = new Set<number>(state.body.realm_default_streams);
  const streams = (await client.get('/streams')).body.streams as Array<{ stream_id: number; name: string }>;
  return streams.filter((s) => ids.has(s.stream_id)).map((s) => s.name).sort();
}

/** Signs someone up through an invitation link, as the join page does, and returns their API client. */
async function joinThrough(server: TestServer, link: string, email: string): Promise<Client> {
  const key = /\/join\/([^/]+)\/$/.exec(link)![1];
  const response = await new Browser(server.url).request('POST', '/accounts/register', { key, email, full_name: 'Newcomer', password: 'a-long-password' });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  const login = await server.anonymous.post('/fetch_api_key', { username: email, password: 'a-long-password' });
  return server.anonymous.as({ email, apiKey: login.body.api_key });
}

test('by default a new organization is created with its starter content; --empty-organization turns that off', () => {
  assert.equal((parseConfig([], {}) as Config).emptyOrganization, false);
  assert.equal((parseConfig(['--empty-organization'], {}) as Config).emptyOrganization, true);
  assert.equal((parseConfig([], { STOA_EMPTY_ORGANIZATION: '1' }) as Config).emptyOrganization, true);
});

describe('a fresh organization', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start({ config: { emptyOrganization: false } });
  });
  after(() => server.close());

  test('has the default channels general, sandbox and Stoa, and its owner is subscribed to them', async () => {
    assert.deepEqual(await defaultChannelNames(server.owner), [...STARTER_CHANNELS].sort());
    assert.deepEqual(await subscribedNames(server.owner), [...STARTER_CHANNELS].sort());
    const realm = await server.owner.post('/register', { fetch_event_types: ['realm'] });
    const general = (await server.owner.get('/get_stream_id', { stream: 'general' })).body.stream_id;
    assert.equal(realm.body.realm_new_stream_announcements_stream_id, general, 'new channels are announced in general');
  });

  test('each starter channel opens with a Welcome Bot topic, and the owner has an unread welcome explaining what to do next', async () => {
    const all = await messages(server.owner);
    for (const name of STARTER_CHANNELS) {
      const inChannel = all.filter((m) => m.type === 'stream' && m.display_recipient === name);
      assert.equal(inChannel.length, 1, `one first message in ${name}`);
      assert.equal(inChannel[0].sender_email, WELCOME_BOT);
      assert.ok(inChannel[0].subject.length > 0, 'it has a topic');
    }
    const direct = all.filter((m) => m.type === 'private');
    assert.equal(direct.length, 1);
    assert.equal(direct[0].sender_email, WELCOME_BOT);
    assert.match(direct[0].content, /#organization\/invites-list-admin/, 'it leads to the invitations');
    assert.match(direct[0].content, /#organization\/default-channels-list/, 'and to the default channels');
    assert.ok(!direct[0].flags.includes('read'), 'the owner has not read it yet');
  });

  test('someone who joins through a link for the default channels is subscribed to them and reads their history', async () => {
    const link = (await server.owner.post('/invites/multiuse', { include_realm_default_subscriptions: true })).body.invite_link as string;
    const newcomer = await joinThrough(server, link, 'newcomer@example.com');
    assert.deepEqual(await subscribedNames(newcomer), [...STARTER_CHANNELS].sort());
    const history = await messages(newcomer, [{ operator: 'channel', operand: 'general' }]);
    assert.equal(history.length, 1, 'the first message of general, sent before they joined');
    // Their own feed holds the channels' recent messages, unread, as a new Zulip account's does.
    const feed = await messages(newcomer);
    assert.deepEqual(feed.filter((m) => m.type === 'stream').map((m) => m.display_recipient).sort(), [...STARTER_CHANNELS].sort());
    assert.ok(feed.every((m) => !m.flags.includes('read') && !m.flags.includes('historical')));
    const state = await newcomer.post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
    assert.equal(state.status, 200, JSON.stringify(state.body));
    assert.equal(state.body.unread_msgs.count, feed.length, 'they count as unread when the client starts');
  });

  test('of the last week\'s messages a new account is given a thousand at most, the newest twenty unread; older ones stay in the channel\'s history', async () => {
    const channel = (await server.owner.get('/get_stream_id', { stream: 'sandbox' })).body.stream_id as number;
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) {
      const sent = await server.owner.post('/messages', { type: 'stream', to: channel, topic: 'counting', content: `number ${i}` });
      ids.push(sent.body.id);
    }
    const link = (await server.owner.post('/invites/multiuse', { stream_ids: [channel] })).body.invite_link as string;
    const newcomer = await joinThrough(server, link, 'counter@example.com');
    const feed = (await messages(newcomer)).filter((m) => m.type === 'stream');
    assert.equal(feed.length, 26, 'the first message of sandbox and the 25 since');
    const unread = feed.filter((m) => !m.flags.includes('read')).map((m) => m.id);
    assert.deepEqual(unread, ids.slice(-20));
  });

  test('someone an administrator creates joins the default channels', async () => {
    const user = await server.createUser();
    assert.deepEqual(await subscribedNames(user), [...STARTER_CHANNELS].sort());
  });

  test('a restart adds nothing twice', async () => {
    const before = await messages(server.owner);
    const channelsBefore = (await server.owner.get('/streams')).body.streams.length;
    await server.restart();
    assert.deepEqual((await messages(server.owner)).map((m) => m.id), before.map((m) => m.id));
    assert.equal((await server.owner.get('/streams')).body.streams.length, channelsBefore);
    assert.deepEqual(await defaultChannelNames(server.owner), [...STARTER_CHANNELS].sort());
  });
});

test('the test harness starts organizations empty, as most tests expect', async () => {
  const server = await TestServer.start();
  try {
    assert.deepEqual((await server.owner.get('/streams')).body.streams, []);
    assert.deepEqual(await messages(server.owner), []);
  } finally {
    await server.close();
  }
});

describe('the demo organization', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start({ dev: true, config: { demo: true, adminPassword: undefined } });
  });
  after(() => server.close());

  test('everyone in it is subscribed to its default channels', () => {
    const defaults = DEMO_CHANNELS.filter((channel) => channel.isDefault).map((channel) => channel.key);
    assert.ok(defaults.length > 0);
    for (const person of DEMO_PEOPLE) {
      for (const key of defaults) assert.ok(person.channels.includes(key), `${person.key} is in ${key}`);
    }
    const verona = server.stoa.channels.byName('Verona')!;
    const subscribers = new Set(server.stoa.channels.subscriberIds(verona.recipient_id));
    for (const person of DEMO_PEOPLE) assert.ok(subscribers.has(server.stoa.users.byAnyEmail(person.email)!.id), person.email);
  });

  test('the development login page lists each person with their name and role, owners and administrators first', async () => {
    const response = await new Browser(server.url).request('GET', '/accounts/dev_people');
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const people: Array<{ user_id: number; full_name: string; email: string; role: number }> = response.body.people;
    assert.deepEqual(people.slice(0, 2).map((p) => [p.full_name, p.role]), [['Desdemona', 100], ['Iago', 200]]);
    const hamlet = people.find((p) => p.email === 'hamlet@zulip.com')!;
    assert.deepEqual([hamlet.full_name, hamlet.role, hamlet.user_id], ['King Hamlet', 400, server.stoa.users.byAnyEmail('hamlet@zulip.com')!.id]);
    assert.equal(people.length, DEMO_PEOPLE.length, 'every person, no bots');
  });
});

test('without --dev there is no development list of people', async () => {
  const server = await TestServer.start();
  try {
    assert.equal((await new Browser(server.url).request('GET', '/accounts/dev_people')).status, 404);
  } finally {
    await server.close();
  }
});

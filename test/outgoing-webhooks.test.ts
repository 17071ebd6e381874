import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { MAX_REQUEST_RETRIES } from '../lib/bots/outgoing-webhooks';
import { OutgoingWebhookQueue, type OutgoingWebhookJob } from '../lib/bots/webhook-queue';
import { createChannel, uniqueName } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { sendMessage } from './support/messages';
import { operationProblems } from './support/openapi';
import { TestServer } from './support/server';

let counter = 0;
/** A name no other test uses, fit for a bot's short name or a URL path. */
function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${counter}`;
}

/** What a bot's server received. */
interface BotRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Behaviour = (request: BotRequest, res: ServerResponse) => void;

/** A bot's server, started by the test: each path behaves as the test tells it. */
class BotServer {
  readonly requests: BotRequest[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private waiters: Array<() => void> = [];
  private http!: Server;

  static async start(): Promise<BotServer> {
    const bots = new BotServer();
    bots.http = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        bots.requests.push(request);
        for (const wake of bots.waiters.splice(0)) wake();
        const behaviour = bots.behaviours.get(request.path);
        if (behaviour) behaviour(request, res);
        else res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => bots.http.listen(0, '127.0.0.1', resolve));
    return bots;
  }

  /** A new path on this server, answering as `behaviour` says. */
  url(behaviour: Behaviour): string {
    const path = `/${unique('bot')}`;
    this.behaviours.set(path, behaviour);
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}${path}`;
  }

  to(url: string): BotRequest[] {
    const path = new URL(url).pathname;
    return this.requests.filter((request) => request.path === path);
  }

  /** Resolves once `count` requests reached `url`. */
  async received(url: string, count = 1): Promise<BotRequest[]> {
    const deadline = Date.now() + 10_000;
    while (this.to(url).length < count) {
      assert.ok(Date.now() < deadline, `expected ${count} request(s) to ${url}, got ${this.to(url).length}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    return this.to(url);
  }

  async close(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}

/** Answers JSON with a status. */
function answer(status: number, body: unknown): Behaviour {
  return (_request, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

/** Never answers: the request hangs until the server gives up on it. */
const hang: Behaviour = () => {};

/** A URL where nothing listens. */
async function unreachableUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/gone`;
}

let server: TestServer;
let bots: BotServer;
let alice: Client & { userId: number };
let bob: Client & { userId: number };
let channel: string;

before(async () => {
  // Half a second for a bot's server to answer: the retries of a hanging server take two.
  server = await TestServer.start({ config: { outgoingWebhookTimeoutSeconds: 0.5 } });
  bots = await BotServer.start();
  alice = await server.createUser('Alice');
  bob = await server.createUser('Bob');
  channel = uniqueName('bot lounge ');
  await createChannel(alice, {}, channel);
  await bob.post('/users/me/subscriptions', { subscriptions: [{ name: channel }] });
});
after(async () => {
  await server.close();
  await bots.close();
});

interface OutgoingBot {
  id: number;
  email: string;
  fullName: string;
  token: string;
  /** The bot's own API client. */
  client: Client;
}

/** Alice creates an outgoing-webhook bot calling `url`, its URL JSON-encoded as Zulip's clients send it. */
async function createOutgoingBot(url: string, interfaceType = 1): Promise<OutgoingBot> {
  const shortName = unique('hook');
  const fullName = `Hook ${shortName}`;
  const created = await alice.post('/bots', {
    full_name: fullName,
    short_name: shortName,
    bot_type: 3,
    payload_url: JSON.stringify(url),
    interface_type: interfaceType,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const realmBots = (await alice.post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots;
  const bot = realmBots.find((b: { user_id: number }) => b.user_id === created.body.user_id);
  // From level 474 a bot object carries no email: the bot's account does.
  const { email } = (await alice.get(`/users/${bot.user_id}`)).body.user;
  return {
    id: bot.user_id,
    email,
    fullName,
    token: bot.services[0].token,
    client: alice.as({ email, apiKey: created.body.api_key }),
  };
}

/** The newest messages of a narrow, as `client` fetches them (Markdown, oldest first). */
async function newest(client: Client, narrow: unknown[], count = 5): Promise<Array<Record<string, any>>> {
  const response = await client.get('/messages', { anchor: 'newest', num_before: count, num_after: 0, narrow, apply_markdown: false });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.messages;
}

function topicNarrow(topic: string) {
  return [
    { operator: 'channel', operand: channel },
    { operator: 'topic', operand: topic },
  ];
}

/** What the bot sent to Alice, its owner, newest last. */
async function ownerNotices(bot: OutgoingBot): Promise<string[]> {
  const messages = await newest(alice, [{ operator: 'dm', operand: [bot.id] }], 10);
  return messages.filter((m) => m.sender_id === bot.id).map((m) => m.content);
}

describe('outgoing webhook bots: creating and changing them', () => {
  test('a member creates one with a URL and a format; administrators see its service with a token', async () => {
    const url = bots.url(answer(200, { response_not_required: true }));
    const aliceBots = await listen(alice, { event_types: ['realm_bot'] });
    const shortName = unique('helper');
    const created = await alice.post('/bots', {
      full_name: `Helper ${shortName}`,
      short_name: shortName,
      bot_type: 3,
      payload_url: JSON.stringify(url),
      interface_type: 1,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const events = await aliceBots();
    assert.equal(events.length, 1);
    const [event] = events;
    assert.equal(event.op, 'add');
    // The bot's type is its account's (a bot object has none from level 474).
    assert.equal((await alice.get(`/users/${event.bot.user_id}`)).body.user.bot_type, 3);
    assert.equal(event.bot.services.length, 1);
    const [service] = event.bot.services;
    assert.deepEqual(Object.keys(service).sort(), ['base_url', 'interface', 'token']);
    assert.equal(service.base_url, url);
    assert.equal(service.interface, 1);
    assert.match(service.token, /^[A-Za-z0-9]{32}$/);
    assert.notEqual(service.token, created.body.api_key, 'the token is not the API key');

    const state = (await alice.post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots;
    assert.deepEqual(state.find((b: { user_id: number }) => b.user_id === created.body.user_id).services, [service]);
    const adminState = (await server.owner.post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots;
    assert.deepEqual(adminState.find((b: { user_id: number }) => b.user_id === created.body.user_id).services, [service]);
  });

  test('the URL may also come as plain text, or be left out and set later', async () => {
    const plain = await alice.post('/bots', {
      full_name: uniqueName('Plain '),
      short_name: unique('plain'),
      bot_type: 3,
      payload_url: 'https://bots.example.org/hook',
    });
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    const without = await alice.post('/bots', { full_name: uniqueName('Later '), short_name: unique('later'), bot_type: 3 });
    assert.equal(without.status, 200, JSON.stringify(without.body));
    const state = (await alice.post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots;
    const servicesOf = (id: number) => state.find((b: { user_id: number }) => b.user_id === id).services;
    assert.equal(servicesOf(plain.body.user_id)[0].base_url, 'https://bots.example.org/hook');
    assert.equal(servicesOf(without.body.user_id)[0].base_url, '');
    assert.equal(servicesOf(without.body.user_id)[0].interface, 1);
  });

  test("a URL that is not http or https, an unknown format and embedded bots are refused in Zulip's words", async () => {
    const attempt = (params: Record<string, unknown>) =>
      alice.post('/bots', { full_name: uniqueName('Refused '), short_name: unique('refused'), bot_type: 3, ...params });
    for (const [params, msg] of [
      [{ payload_url: JSON.stringify('not a url') }, 'payload_url is not a URL'],
      [{ payload_url: JSON.stringify('file:///etc/passwd') }, 'payload_url is not a URL'],
      [{ payload_url: '42' }, 'payload_url is not a string'],
      [{ payload_url: JSON.stringify('https://example.org/'), interface_type: 3 }, 'Invalid interface type'],
      [{ bot_type: 4 }, 'Invalid bot type'],
    ] as const) {
      const response = await attempt(params);
      assert.equal(response.status, 400, JSON.stringify(params));
      assert.equal(response.body.msg, msg);
    }
  });

  test("PATCH /bots/{id} changes the URL and format; administrators hear of the new service", async () => {
    const bot = await createOutgoingBot('https://one.example.org/');
    const adminEvents = await listen(server.owner, { event_types: ['realm_bot'] });
    const changed = await alice.patch(`/bots/${bot.id}`, {
      service_payload_url: JSON.stringify('https://two.example.org/hook'),
      service_interface: 2,
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.service_payload_url, 'https://two.example.org/hook');
    assert.equal(changed.body.service_interface, 2);
    const expectedService = { base_url: 'https://two.example.org/hook', interface: 2, token: bot.token };
    assert.deepEqual(await adminEvents(), [{ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, services: [expectedService] } }]);
    const state = (await alice.post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots;
    assert.deepEqual(state.find((b: { user_id: number }) => b.user_id === bot.id).services, [expectedService]);

    const badUrl = await alice.patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify('ftp://example.org') });
    assert.equal(badUrl.body.msg, 'service_payload_url is not a URL');
    const badInterface = await alice.patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify('https://x.example.org'), service_interface: 9 });
    assert.equal(badInterface.body.msg, 'Invalid interface type');
    const generic = await alice.post('/bots', { full_name: uniqueName('Generic '), short_name: unique('generic') });
    const notOutgoing = await alice.patch(`/bots/${generic.body.user_id}`, { service_payload_url: JSON.stringify('https://x.example.org') });
    assert.equal(notOutgoing.status, 400);
    assert.equal((await bob.patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify('https://x.example.org') })).body.msg, 'Insufficient permission');
  });

  test('a bot keeps its service, token included, across a restart', async () => {
    const own = await TestServer.start();
    try {
      const created = await own.owner.post('/bots', {
        full_name: 'Keeper',
        short_name: 'keeper',
        bot_type: 3,
        payload_url: JSON.stringify('https://keep.example.org/'),
        interface_type: 2,
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const before = (await own.owner.post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots;
      await own.restart();
      const after = (await own.owner.post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots;
      assert.deepEqual(after, before);
      assert.equal(after.find((b: { user_id: number }) => b.user_id === created.body.user_id).services[0].interface, 2);
    } finally {
      await own.close();
    }
  });
});

describe('outgoing webhook bots: what sets them off and what they are sent', () => {
  test("a mention in a channel POSTs Zulip's payload, field by field, and the bot's answer is posted in the topic", async () => {
    const url = bots.url(answer(200, { content: 'Pong from **the bot**' }));
    const bot = await createOutgoingBot(url);
    const topic = uniqueName('pings ');
    const content = `@**${bot.fullName}** ping`;
    const id = await sendMessage(bob, { type: 'stream', to: channel, topic, content });
    const [request] = await bots.received(url);
    await server.stoa.outgoingWebhooks.idle();

    assert.match(String(request.headers['content-type']), /^application\/json/);
    assert.match(String(request.headers['user-agent']), /^StoaOutgoingWebhook\//);
    const payload = JSON.parse(request.body);
    assert.deepEqual(Object.keys(payload).sort(), ['bot_email', 'bot_full_name', 'data', 'message', 'token', 'trigger']);
    assert.equal(payload.bot_email, bot.email);
    assert.equal(payload.bot_full_name, bot.fullName);
    assert.equal(payload.data, content);
    assert.equal(payload.token, bot.token);
    assert.equal(payload.trigger, 'mention');
    const { message } = payload;
    assert.equal(message.id, id);
    assert.equal(message.type, 'stream');
    assert.equal(message.display_recipient, channel);
    assert.equal(message.subject, topic);
    assert.equal(message.stream_id, (await bob.get('/get_stream_id', { stream: channel })).body.stream_id);
    assert.equal(message.sender_id, bob.userId);
    assert.equal(message.sender_full_name, 'Bob');
    assert.equal(message.sender_email, (await bob.get('/users/me')).body.email);
    assert.equal(message.content, content);
    assert.equal(message.content_type, 'text/x-markdown');
    assert.match(message.rendered_content, new RegExp(`<span class="user-mention" data-user-id="${bot.id}">@${bot.fullName}</span> ping`));
    assert.equal(typeof message.avatar_url, 'string', 'the avatar URL is computed for the bot');
    assert.deepEqual(message.reactions, []);
    assert.deepEqual(message.submessages, []);
    assert.equal(message.is_me_message, false);
    // The rest is the message as the bot fetches it in Markdown, without flags, plus its HTML.
    const fetched = await bot.client.get(`/messages/${id}`, { apply_markdown: false });
    const { flags: _flags, ...asFetched } = fetched.body.message;
    const { rendered_content: _html, ...asSent } = message;
    assert.deepEqual(asSent, { ...asFetched, avatar_url: asSent.avatar_url });
    assert.equal('flags' in message, false, 'the payload carries no flags');
    assert.deepEqual(operationProblems('POST', '/zulip-outgoing-webhook', 200, payload), []);

    const [sent, reply] = await newest(bob, topicNarrow(topic), 2);
    assert.equal(sent.id, id);
    assert.equal(reply.sender_id, bot.id);
    assert.equal(reply.content, 'Pong from **the bot**');
    assert.equal(reply.client, 'OutgoingWebhookResponse');
  });

  test('a direct message to the bot POSTs with trigger direct_message, and the answer comes back in that conversation', async () => {
    const url = bots.url(answer(200, { content: 'Hello, Bob' }));
    const bot = await createOutgoingBot(url);
    const id = await sendMessage(bob, { type: 'private', to: [bot.id], content: 'hi bot' });
    const [request] = await bots.received(url);
    await server.stoa.outgoingWebhooks.idle();
    const payload = JSON.parse(request.body);
    assert.equal(payload.trigger, 'direct_message');
    assert.equal(payload.data, 'hi bot');
    assert.equal(payload.token, bot.token);
    assert.equal(payload.message.id, id);
    assert.equal(payload.message.type, 'private');
    assert.deepEqual(
      payload.message.display_recipient.map((r: { id: number }) => r.id),
      [bob.userId, bot.id].sort((a, b) => a - b),
    );
    assert.equal('stream_id' in payload.message, false);
    assert.deepEqual(operationProblems('POST', '/zulip-outgoing-webhook', 200, payload), []);

    const [sent, reply] = await newest(bob, [{ operator: 'dm', operand: [bot.id] }], 2);
    assert.equal(sent.id, id);
    assert.deepEqual([reply.sender_id, reply.content, reply.type], [bot.id, 'Hello, Bob', 'private']);
  });

  test('response_not_required, an empty content and the old "" answer post nothing', async () => {
    for (const body of [{ response_not_required: true, content: 'ignored' }, { content: '   ' }, {}, '""']) {
      const url = bots.url(answer(200, body));
      const bot = await createOutgoingBot(url);
      const topic = uniqueName('quiet ');
      await sendMessage(bob, { type: 'stream', to: channel, topic, content: `@**${bot.fullName}** anything?` });
      await bots.received(url);
      await server.stoa.outgoingWebhooks.idle();
      const messages = await newest(bob, topicNarrow(topic));
      assert.deepEqual(messages.map((m) => m.sender_id), [bob.userId], JSON.stringify(body));
      assert.deepEqual(await ownerNotices(bot), [], 'nothing to tell the owner either');
    }
  });

  test("credentials in the bot's URL are sent as HTTP Basic authentication, not in the URL", async () => {
    const url = bots.url(answer(200, { response_not_required: true }));
    const withCredentials = url.replace('http://', 'http://hook%20user:s3cret@');
    const bot = await createOutgoingBot(withCredentials);
    await sendMessage(bob, { type: 'private', to: [bot.id], content: 'knock knock' });
    const [request] = await bots.received(url);
    await server.stoa.outgoingWebhooks.idle();
    assert.equal(request.headers.authorization, `Basic ${Buffer.from('hook user:s3cret').toString('base64')}`);
  });

  test('an answer may carry a widget, posted with the content as POST /messages would', async () => {
    const widget = {
      widget_type: 'zform',
      extra_data: { type: 'choices', heading: 'Which one?', choices: [{ short_name: 'A', long_name: 'Apples', reply: 'apples' }] },
    };
    const url = bots.url(answer(200, { content: 'Choose:', widget_content: JSON.stringify(widget) }));
    const bot = await createOutgoingBot(url);
    await sendMessage(bob, { type: 'private', to: [bot.id], content: 'menu please' });
    await bots.received(url);
    await server.stoa.outgoingWebhooks.idle();
    const [, reply] = await newest(bob, [{ operator: 'dm', operand: [bot.id] }], 2);
    assert.equal(reply.content, 'Choose:');
    assert.equal(reply.submessages.length, 1);
    assert.deepEqual(JSON.parse(reply.submessages[0].content), widget);
  });

  test('silent mentions, wildcards, mentions in DMs the bot is not in, and messages from bots set nothing off', async () => {
    const url = bots.url(answer(200, { content: 'should not be posted' }));
    const bot = await createOutgoingBot(url);
    const topic = uniqueName('not for the bot ');
    await sendMessage(bob, { type: 'stream', to: channel, topic, content: `@_**${bot.fullName}** is quiet` });
    await sendMessage(bob, { type: 'stream', to: channel, topic, content: '@**all** hello' });
    await sendMessage(bob, { type: 'private', to: [alice.userId], content: `@**${bot.fullName}** not here` });
    // A generic bot mentions it: bots never set bots off.
    const generic = await alice.post('/bots', { full_name: uniqueName('Chatty '), short_name: unique('chatty') });
    const genericClient = alice.as({ email: `${(await alice.get(`/users/${generic.body.user_id}`)).body.user.email}`, apiKey: generic.body.api_key });
    await genericClient.post('/users/me/subscriptions', { subscriptions: [{ name: channel }] });
    await sendMessage(genericClient, { type: 'stream', to: channel, topic, content: `@**${bot.fullName}** from a bot` });
    await server.stoa.outgoingWebhooks.idle();
    assert.deepEqual(bots.to(url), []);
  });

  test('a mention through a group the bot belongs to sets it off, subscribed or not', async () => {
    const url = bots.url(answer(200, { content: 'group heard' }));
    const bot = await createOutgoingBot(url);
    const groupName = unique('helpers');
    const group = await alice.post('/user_groups/create', { name: groupName, description: 'bots that help', members: [bot.id] });
    assert.equal(group.status, 200, JSON.stringify(group.body));
    const topic = uniqueName('group call ');
    await sendMessage(bob, { type: 'stream', to: channel, topic, content: `@*${groupName}* anyone?` });
    const [request] = await bots.received(url);
    assert.equal(JSON.parse(request.body).trigger, 'mention');
    await server.stoa.outgoingWebhooks.idle();
    assert.deepEqual((await newest(bob, topicNarrow(topic))).map((m) => m.content), [`@*${groupName}* anyone?`, 'group heard']);
  });

  test('the Slack format posts a form and reads "text"; it cannot answer direct messages', async () => {
    const url = bots.url(answer(200, { text: 'slack says hi' }));
    const bot = await createOutgoingBot(url, 2);
    const topic = uniqueName('slack ');
    const id = await sendMessage(bob, { type: 'stream', to: channel, topic, content: `@**${bot.fullName}** hey` });
    const [request] = await bots.received(url);
    assert.match(String(request.headers['content-type']), /^application\/x-www-form-urlencoded/);
    const form = Object.fromEntries(new URLSearchParams(request.body));
    const channelId = (await bob.get('/get_stream_id', { stream: channel })).body.stream_id;
    const timestamp = (await newest(bob, topicNarrow(topic), 1))[0].timestamp;
    assert.deepEqual(form, {
      token: bot.token,
      team_id: `T${server.stoa.realm.get()!.id}`,
      team_domain: new URL(server.stoa.site).host,
      channel_id: `C${channelId}`,
      channel_name: channel,
      thread_ts: String(timestamp),
      timestamp: String(timestamp),
      user_id: `U${bob.userId}`,
      user_name: 'Bob',
      text: `@**${bot.fullName}** hey`,
      trigger_word: 'mention',
      service_id: String(bot.id),
    });
    await server.stoa.outgoingWebhooks.idle();
    assert.deepEqual((await newest(bob, topicNarrow(topic))).map((m) => [m.id === id, m.content]), [
      [true, `@**${bot.fullName}** hey`],
      [false, 'slack says hi'],
    ]);

    await sendMessage(bob, { type: 'private', to: [bot.id], content: 'direct' });
    await server.stoa.outgoingWebhooks.idle();
    assert.equal(bots.to(url).length, 1, 'no request for a direct message');
    const [, notice] = await newest(bob, [{ operator: 'dm', operand: [bot.id] }], 2);
    assert.equal(notice.sender_id, bot.id);
    assert.match(notice.content, /^\*\*Failed:\*\* .*Slack.*direct messages/);
  });
});

describe("outgoing webhook bots: a slow, failing or absent bot server", () => {
  test('a hanging bot server does not delay sending: the send is answered while the request is still open', async () => {
    // A long timeout, so the bot's request is certainly still open when the send is answered.
    const patient = await TestServer.start({ config: { outgoingWebhookTimeoutSeconds: 60 } });
    try {
      const url = bots.url(hang);
      const created = await patient.owner.post('/bots', { full_name: 'Sleepy', short_name: 'sleepy', bot_type: 3, payload_url: JSON.stringify(url) });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const sender = await patient.createUser('Sender');
      for (let i = 1; i <= 3; i++) {
        const started = performance.now();
        await sendMessage(sender, { type: 'private', to: [created.body.user_id], content: `are you there? ${i}` });
        const elapsed = performance.now() - started;
        assert.ok(elapsed < 2000, `send ${i} took ${Math.round(elapsed)} ms`);
        await bots.received(url, i);
      }
      assert.equal(bots.to(url).length, 3, 'every request reached the hanging server and is still open');
    } finally {
      // Shutting down aborts the open requests rather than waiting a minute for them.
      const closing = performance.now();
      await patient.close();
      assert.ok(performance.now() - closing < 5000);
    }
  });

  test(`a bot server that never answers in time is tried ${MAX_REQUEST_RETRIES + 1} times, then the bot says it is unavailable and tells its owner`, async () => {
    const url = bots.url(hang);
    const bot = await createOutgoingBot(url);
    const topic = uniqueName('timeouts ');
    const started = performance.now();
    await sendMessage(bob, { type: 'stream', to: channel, topic, content: `@**${bot.fullName}** wake up` });
    assert.ok(performance.now() - started < 2000);
    await bots.received(url, MAX_REQUEST_RETRIES + 1);
    await server.stoa.outgoingWebhooks.idle();
    assert.equal(bots.to(url).length, MAX_REQUEST_RETRIES + 1);
    const [, notice] = await newest(bob, topicNarrow(topic), 2);
    assert.equal(notice.sender_id, bot.id);
    assert.equal(notice.content, '**Failed:** this bot is unavailable.');
    const [ownerNotice] = await ownerNotices(bot);
    assert.match(ownerNotice, new RegExp(`^Your bot @_\\*\\*${bot.fullName}\\|${bot.id}\\*\\* could not answer \\[a message\\]\\(`));
    assert.match(ownerNotice, /No answer came within 0\.5 seconds\. It was tried 4 times\./);
  });

  test('a bot server that fails (500) gets the failure posted at once, and its owner the status and answer', async () => {
    const url = bots.url(answer(500, { error: 'database down' }));
    const bot = await createOutgoingBot(url);
    const topic = uniqueName('errors ');
    await sendMessage(bob, { type: 'stream', to: channel, topic, content: `@**${bot.fullName}** status?` });
    await bots.received(url);
    await server.stoa.outgoingWebhooks.idle();
    // As Zulip does: a server that answered, even with a 5xx status, is not asked again.
    assert.equal(bots.to(url).length, 1);
    const [, notice] = await newest(bob, topicNarrow(topic), 2);
    assert.deepEqual([notice.sender_id, notice.content], [bot.id, "**Failed:** this bot's server answered with status 500."]);
    const [ownerNotice] = await ownerNotices(bot);
    assert.match(ownerNotice, /Its server answered with HTTP status \*500\*\./);
    assert.match(ownerNotice, /```\n\{"error":"database down"\}\n```/);
  });

  test(`an unreachable URL is tried ${MAX_REQUEST_RETRIES + 1} times, then reported`, async () => {
    const url = await unreachableUrl();
    const bot = await createOutgoingBot(url);
    await sendMessage(bob, { type: 'private', to: [bot.id], content: 'anyone home?' });
    await server.stoa.outgoingWebhooks.idle();
    const attempts = server.logs.filter((line) => line.includes(`bot ${bot.id},`) && line.includes('could not be reached'));
    assert.equal(attempts.length, MAX_REQUEST_RETRIES + 1, attempts.join('\n'));
    const [, notice] = await newest(bob, [{ operator: 'dm', operand: [bot.id] }], 2);
    assert.deepEqual([notice.sender_id, notice.content], [bot.id, '**Failed:** this bot is unavailable.']);
    const [ownerNotice] = await ownerNotices(bot);
    assert.match(ownerNotice, /Its server could not be reached \(ECONNREFUSED\)\. Is it running\? It was tried 4 times\./);
  });

  test('an answer that is not JSON, or empty, or not an object is a failure the owner hears of', async () => {
    for (const [body, reason] of [
      ['<html>oops</html>', 'the answer is not valid JSON.'],
      ['', 'the answer is not valid JSON.'],
      ['[1, 2]', 'the answer is not a JSON object.'],
    ] as const) {
      const url = bots.url((_request, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(body));
      const bot = await createOutgoingBot(url);
      const topic = uniqueName('garbled ');
      await sendMessage(bob, { type: 'stream', to: channel, topic, content: `@**${bot.fullName}** speak` });
      await bots.received(url);
      await server.stoa.outgoingWebhooks.idle();
      const [, notice] = await newest(bob, topicNarrow(topic), 2);
      assert.deepEqual([notice.sender_id, notice.content], [bot.id, `**Failed:** ${reason}`], JSON.stringify(body));
      const [ownerNotice] = await ownerNotices(bot);
      assert.match(ownerNotice, new RegExp(`the answer could not be posted:\\n> ${reason.replace(/\./g, '\\.')}`));
    }
  });

  test('a redirect is not followed: only the configured URL is called', async () => {
    const elsewhere = bots.url(answer(200, { content: 'followed!' }));
    const url = bots.url((_request, res) => res.writeHead(302, { Location: elsewhere }).end());
    const bot = await createOutgoingBot(url);
    await sendMessage(bob, { type: 'private', to: [bot.id], content: 'follow me' });
    await bots.received(url);
    await server.stoa.outgoingWebhooks.idle();
    assert.deepEqual(bots.to(elsewhere), []);
    const [, notice] = await newest(bob, [{ operator: 'dm', operand: [bot.id] }], 2);
    assert.equal(notice.content, "**Failed:** this bot's server answered with status 302.");
  });
});

describe('the queue of calls to bots', () => {
  test('a flood keeps to its bounds: so many calls at once, so many waiting, the rest dropped and logged', async () => {
    const lines: string[] = [];
    const queue = new OutgoingWebhookQueue((line) => lines.push(line), {
      maxWaiting: 5,
      maxWaitingPerBot: 3,
      maxInFlight: 2,
      maxInFlightPerBot: 1,
    });
    const started: OutgoingWebhookJob[] = [];
    const release: Array<() => void> = [];
    queue.start((job) => {
      started.push(job);
      return new Promise((resolve) => release.push(() => resolve('done')));
    });
    const job = (botId: number, messageId: number): OutgoingWebhookJob => ({ botId, messageId, trigger: 'mention', failedTries: 0 });
    const accepted = [1, 2, 3, 4, 5].map((n) => queue.add(job(1, n)));
    assert.deepEqual(accepted, [true, true, true, false, false], 'three may wait for one bot');
    assert.equal(queue.add(job(2, 6)), true);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started.map((j) => [j.botId, j.messageId]), [[1, 1], [2, 6]], "one call per bot at once: bot 1's others wait");
    assert.equal(lines.length, 2);
    assert.match(lines[0], /too many requests waiting; message 4 not sent to bot 1/);
    release.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started.map((j) => j.messageId), [1, 6, 2]);
    queue.stop();
    assert.equal(queue.add(job(3, 7)), false, 'nothing is queued after stopping');
    for (const done of release) done();
    await queue.idle();
  });

  test('retries go to the back of the queue with their count, and stop when the handler says done', async () => {
    const queue = new OutgoingWebhookQueue(() => {});
    const tries: number[] = [];
    queue.start(async (job) => {
      tries.push(job.failedTries);
      return job.failedTries < MAX_REQUEST_RETRIES ? 'retry' : 'done';
    });
    queue.add({ botId: 1, messageId: 1, trigger: 'direct_message', failedTries: 0 });
    await queue.idle();
    assert.deepEqual(tries, [0, 1, 2, 3]);
  });
});

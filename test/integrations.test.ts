/**
 * Incoming-webhook integrations (POST /api/v1/external/{name}). Every case of Zulip's own
 * webhook tests in ../shared/zulip/webhook-cases.json runs through HTTP against a real server,
 * grouped by integration; then the common parameters, the errors and the owner's notices.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { INTEGRATIONS } from '../lib/integrations/table';
import { OWNER_NOTICE_INTERVAL_MS } from '../lib/integrations/owner-notices';
import type { Client } from './support/client';
import { listen } from './support/events';
import { ManualClock, TestServer } from './support/server';

const CASES_FILE = path.resolve(__dirname, '../../shared/zulip/webhook-cases.json');

/**
 * Integrations of the shared file that Stoa does not have yet; their cases are listed as
 * skipped. An integration that is built must come off this list (a test checks it), so that
 * its cases run and must pass.
 */
const NOT_YET_BUILT = new Set<string>([]);

/** One case of the shared file (see its `fields` for what each key means). */
interface WebhookCase {
  id: string;
  integration: string;
  kind: 'message' | 'ignored' | 'error' | 'dm' | 'response';
  /** basic: the case authenticates by HTTP Basic (the bot's email and key) instead of api_key. */
  auth?: 'basic';
  method: string;
  url: string;
  channel: string | null;
  content_type: string | null;
  headers: Record<string, string>;
  body: string;
  expected_topic_name?: string | null;
  expected_message?: string | null;
  expected_messages?: Array<{ channel: string | null; topic: string | null; content: string | null } | null>;
  expected_dm?: { content: string; sender: 'bot' | 'notification-bot' | null; to: string };
  expect_noop?: boolean;
  expected_result?: string;
  expected_status?: number;
  expected_error?: string;
  expected_error_contains?: string;
  expected_error_regex?: string;
  expected_response_contains?: string[];
  expected_response_headers?: Record<string, string>;
  expected_response_fields?: Record<string, unknown>;
  expected_response_keys?: string[];
  expected_response_json?: unknown;
}

interface Message {
  id: number;
  type: string;
  display_recipient: string | Array<{ email: string }>;
  subject: string;
  content: string;
  sender_email: string;
}

const clock = new ManualClock();
let server: TestServer;
/** The incoming-webhook bot every case posts as, owned by the server's owner, named as Zulip's test bot is. */
let bot: { id: number; email: string; apiKey: string };
/** Clients of the people cases send direct messages to, by the email the cases give them. */
const people = new Map<string, Client>();
const channels = new Set<string>();

before(async () => {
  server = await TestServer.start({ clock });
  const created = await server.owner.post('/bots', { full_name: 'Zulip Webhook Bot', short_name: 'webhook', bot_type: 2 });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const me = await server.owner.get(`/users/${created.body.user_id}`);
  bot = { id: created.body.user_id, email: me.body.user.email, apiKey: created.body.api_key };
  // People of Zulip's test organization whom cases name.
  for (const [email, name] of [['aaron@zulip.com', 'aaron'], ['iago@zulip.com', 'Iago'], ['othello@zulip.com', 'Othello, the Moor of Venice']]) {
    const made = await server.owner.post('/users', { email, password: 'secret-password', full_name: name });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const login = await server.anonymous.post('/fetch_api_key', { username: email, password: 'secret-password' });
    people.set(email, server.anonymous.as({ email, apiKey: login.body.api_key }));
  }
});

after(() => server?.close());

/** A channel the owner and the bot are subscribed to. */
async function ensureChannel(name: string): Promise<void> {
  if (channels.has(name)) return;
  const response = await server.owner.post('/users/me/subscriptions', {
    subscriptions: [{ name }],
    principals: [server.ownerId, bot.id],
  });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  channels.add(name);
}

/** The newest message ID the client can see, or 0. */
async function newestId(client: Client): Promise<number> {
  const response = await client.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false });
  return (response.body.messages as Message[]).at(-1)?.id ?? 0;
}

/** The messages the client can see after `afterId`, oldest first, as raw Markdown. */
async function messagesAfter(client: Client, afterId: number): Promise<Message[]> {
  const response = await client.get('/messages', {
    anchor: afterId,
    include_anchor: false,
    num_before: 0,
    num_after: 100,
    apply_markdown: false,
    allow_empty_topic_name: true,
  });
  return response.body.messages as Message[];
}

interface WebhookResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** Sends a request to a webhook URL as a service would: the body as given, no client of ours. */
async function post(
  url: string,
  options: { method?: string; body?: string; contentType?: string | null; headers?: Record<string, string> } = {},
): Promise<WebhookResponse> {
  const method = options.method ?? 'POST';
  const headers: Record<string, string> = { ...options.headers };
  if (options.contentType) headers['content-type'] = options.contentType;
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const response = await fetch(new URL(url, server.url), { method, headers, body: hasBody ? (options.body ?? '') : undefined });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Expected text with the shared file's placeholders, as a matcher. */
function matcher(expected: string): (actual: string) => boolean {
  const withBot = expected.replaceAll('{bot_email}', bot.email);
  if (!withBot.includes('{support_email}')) return (actual) => actual === withBot;
  const pattern = withBot
    .split('{support_email}')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\S+');
  const regex = new RegExp(`^${pattern}$`);
  return (actual) => regex.test(actual);
}

function urlOf(c: WebhookCase): { url: string; headers: Record<string, string> } {
  const headers = { ...c.headers };
  let url = c.url.replaceAll('{api_key}', encodeURIComponent(bot.apiKey));
  const basicInUrl = /[?&]auth=basic(&|$)/.test(url);
  if (basicInUrl || c.auth === 'basic') {
    url = url.replace(/([?&])auth=basic(&|$)/, '$1');
    headers.authorization = `Basic ${Buffer.from(`${bot.email}:${bot.apiKey}`).toString('base64')}`;
  }
  return { url, headers };
}

/** Runs one case; returns what did not match, or an empty list. */
async function runCase(c: WebhookCase): Promise<string[]> {
  // Each case starts after the owner's notices could be sent again, as each Zulip test does.
  clock.advance(OWNER_NOTICE_INTERVAL_MS + 1000);
  if (c.channel) await ensureChannel(c.channel);
  const dmClient = c.expected_dm && c.expected_dm.to !== 'owner' ? people.get(c.expected_dm.to.toLowerCase()) : server.owner;
  const watchers = [...new Set([server.owner, ...(dmClient ? [dmClient] : [])])];
  const before = new Map<Client, number>();
  for (const client of watchers) before.set(client, await newestId(client));
  const { url, headers } = urlOf(c);
  const response = await post(url, { method: c.method, body: c.body, contentType: c.content_type, headers });
  const problems: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  const reply = `${response.status} ${response.text.slice(0, 300)}`;
  if (c.expected_status !== undefined) check(response.status === c.expected_status, `status ${c.expected_status} expected, got ${reply}`);
  else if (c.kind === 'message' || c.kind === 'ignored' || c.kind === 'dm') check(response.status === 200, `status 200 expected, got ${reply}`);
  if (c.expected_result !== undefined) check(response.json?.result === c.expected_result, `result ${c.expected_result} expected, got ${reply}`);
  if (c.expected_error !== undefined) check(response.json?.msg === c.expected_error, `error "${c.expected_error}" expected, got ${reply}`);
  if (c.expected_error_contains !== undefined) {
    check(String(response.json?.msg ?? '').includes(c.expected_error_contains), `error containing "${c.expected_error_contains}" expected, got ${reply}`);
  }
  if (c.expected_error_regex !== undefined) {
    check(new RegExp(c.expected_error_regex).test(String(response.json?.msg ?? '')), `error matching ${c.expected_error_regex} expected, got ${reply}`);
  }
  for (const text of c.expected_response_contains ?? []) check(response.text.includes(text), `reply containing "${text}" expected, got ${reply}`);
  for (const [name, value] of Object.entries(c.expected_response_headers ?? {})) {
    check(response.headers.get(name) === value, `header ${name}: ${value} expected, got ${response.headers.get(name)}`);
  }
  for (const [name, value] of Object.entries(c.expected_response_fields ?? {})) {
    check(JSON.stringify(response.json?.[name]) === JSON.stringify(value), `reply field ${name} = ${JSON.stringify(value)} expected, got ${reply}`);
  }
  for (const name of c.expected_response_keys ?? []) check(response.json && name in response.json, `reply key ${name} expected, got ${reply}`);
  if (c.expected_response_json !== undefined) {
    check(JSON.stringify(response.json) === JSON.stringify(c.expected_response_json), `reply ${JSON.stringify(c.expected_response_json)} expected, got ${reply}`);
  }

  const seen = await messagesAfter(server.owner, before.get(server.owner)!);
  const fromBot = seen.filter((m) => m.sender_email === bot.email);
  const inChannel = (channel: string | null) => fromBot.filter((m) => m.type === 'stream' && (channel === null || m.display_recipient === channel));
  if (c.kind === 'message') {
    if (c.expected_messages) {
      const sent = inChannel(null);
      check(sent.length === c.expected_messages.length, `${c.expected_messages.length} messages expected, got ${sent.length}: ${JSON.stringify(sent.map((m) => [m.subject, m.content]))}`);
      c.expected_messages.forEach((expected, i) => {
        const actual = sent[i];
        if (!expected || !actual) return;
        if (expected.channel !== null) check(actual.display_recipient === expected.channel, `message ${i + 1}: channel ${expected.channel} expected, got ${String(actual.display_recipient)}`);
        if (expected.topic !== null) check(matcher(expected.topic)(actual.subject), `message ${i + 1}: topic ${JSON.stringify(expected.topic)} expected, got ${JSON.stringify(actual.subject)}`);
        if (expected.content !== null) check(matcher(expected.content)(actual.content), `message ${i + 1}: content\n${expected.content}\nexpected, got\n${actual.content}`);
      });
    } else {
      const newest = inChannel(c.channel).at(-1);
      check(newest !== undefined, `a message in #${c.channel} expected, got none (reply ${reply})`);
      if (newest) {
        if (c.expected_topic_name != null) check(matcher(c.expected_topic_name)(newest.subject), `topic ${JSON.stringify(c.expected_topic_name)} expected, got ${JSON.stringify(newest.subject)}`);
        if (c.expected_message != null) check(matcher(c.expected_message)(newest.content), `content\n${c.expected_message}\nexpected, got\n${newest.content}`);
      }
    }
  }
  if (c.kind === 'ignored' || c.expect_noop) check(fromBot.length === 0, `no message expected, got ${JSON.stringify(fromBot.map((m) => m.content))}`);
  if (c.expected_dm) {
    const client = dmClient ?? server.owner;
    const dms = (client === server.owner ? seen : await messagesAfter(client, before.get(client)!)).filter((m) => m.type === 'private');
    const senderEmail = c.expected_dm.sender === 'bot' ? bot.email : undefined;
    const matches = matcher(c.expected_dm.content);
    const found = dms.some(
      (m) =>
        matches(m.content) &&
        (senderEmail === undefined || m.sender_email === senderEmail) &&
        (c.expected_dm!.sender !== 'notification-bot' || m.sender_email !== bot.email),
    );
    check(found, `direct message\n${c.expected_dm.content}\nexpected, got ${JSON.stringify(dms.map((m) => [m.sender_email, m.content]))}`);
  }
  return problems;
}

describe("Zulip's webhook test cases", () => {
  const cases: WebhookCase[] = fs.existsSync(CASES_FILE) ? JSON.parse(fs.readFileSync(CASES_FILE, 'utf8')).cases : [];
  if (cases.length === 0) {
    test('the shared webhook cases', (t) => t.skip('../shared/zulip/webhook-cases.json not found: webhook cases not run'));
    return;
  }
  const byIntegration = new Map<string, WebhookCase[]>();
  for (const c of cases) byIntegration.set(c.integration, [...(byIntegration.get(c.integration) ?? []), c]);

  test('NOT_YET_BUILT names only integrations of the shared file that Stoa does not have', () => {
    assert.deepEqual([...NOT_YET_BUILT].filter((name) => INTEGRATIONS.has(name)), [], 'built: remove them from NOT_YET_BUILT');
    assert.deepEqual([...NOT_YET_BUILT].filter((name) => !byIntegration.has(name)), [], 'not in the shared file');
    const unaccounted = [...byIntegration.keys()].filter((name) => !INTEGRATIONS.has(name) && !NOT_YET_BUILT.has(name));
    assert.deepEqual(unaccounted, [], 'neither built nor listed as not yet built');
  });

  for (const [integration, group] of [...byIntegration].sort(([a], [b]) => a.localeCompare(b))) {
    test(`${integration}: ${group.length} cases`, async (t) => {
      if (NOT_YET_BUILT.has(integration)) return t.skip(`not built yet: ${group.length} cases`);
      const failures: string[] = [];
      for (const c of group) {
        const problems = await runCase(c);
        if (problems.length > 0) failures.push(`${c.id}:\n  ${problems.join('\n  ')}`);
      }
      t.diagnostic(`${integration}: ${group.length - failures.length} of ${group.length} cases pass`);
      assert.deepEqual(failures, [], `${failures.length} of ${group.length} cases of ${integration} fail`);
    });
  }
});

let botCount = 0;

/** A new incoming-webhook bot of the owner's, subscribed to a new channel. */
async function newBot(): Promise<{ id: number; email: string; apiKey: string; channel: string; channelId: number; client: Client }> {
  botCount += 1;
  const created = await server.owner.post('/bots', { full_name: `Hook ${botCount}`, short_name: `hook${botCount}`, bot_type: 2 });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const email = (await server.owner.get(`/users/${created.body.user_id}`)).body.user.email as string;
  const channel = `hooks ${botCount}`;
  const subscribed = await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: channel }], principals: [server.ownerId, created.body.user_id] });
  assert.equal(subscribed.status, 200, JSON.stringify(subscribed.body));
  const channelId = (await server.owner.get('/get_stream_id', { stream: channel })).body.stream_id as number;
  const client = server.anonymous.as({ email, apiKey: created.body.api_key });
  return { id: created.body.user_id, email, apiKey: created.body.api_key, channel, channelId, client };
}

/** A GitHub push of one commit to `branch`, as GitHub sends it. */
function githubPush(branch = 'main'): string {
  return JSON.stringify({
    ref: `refs/heads/${branch}`,
    compare: 'https://github.com/o/r/compare/a...b',
    deleted: false,
    forced: false,
    repository: { name: 'r', private: false },
    sender: { login: 'octocat' },
    commits: [{ id: 'a'.repeat(40), url: 'https://github.com/o/r/commit/a', message: 'Fix it\n\nLonger text', author: { username: 'octocat', name: 'Octo' } }],
  });
}

function hookUrl(name: string, key: string, params: Record<string, string> = {}): string {
  return `/api/v1/external/${name}?${new URLSearchParams({ api_key: key, ...params })}`;
}

const GITHUB_PUSH_HEADERS = { 'X-GitHub-Event': 'push' };

describe('the common parameters, errors and notices', () => {
  test('a webhook message reaches the channel through the ordinary send: its subscribers get the message event', async () => {
    const hook = await newBot();
    const events = await listen(server.owner, { event_types: ['message'] });
    const response = await post(hookUrl('github', hook.apiKey, { stream: hook.channel }), { body: githubPush(), contentType: 'application/json', headers: GITHUB_PUSH_HEADERS });
    assert.deepEqual([response.status, response.json], [200, { result: 'success', msg: '' }]);
    const [event] = await events();
    assert.equal(event.type, 'message');
    assert.equal(event.message.display_recipient, hook.channel);
    assert.equal(event.message.subject, 'r / main');
    assert.equal(event.message.sender_email, hook.email);
    assert.equal(event.message.client, 'ZulipGitHubWebhook');
    assert.equal(event.message.content, 'octocat [pushed](https://github.com/o/r/compare/a...b) 1 commit to branch main.\n\n* Fix it ([aaaaaaaaaaa](https://github.com/o/r/commit/a))');
  });

  test('stream names the channel by ID as well as by name, and topic overrides the integration\'s topic', async () => {
    const hook = await newBot();
    const start = await newestId(server.owner);
    const response = await post(hookUrl('helloworld', hook.apiKey, { stream: String(hook.channelId), topic: 'my topic' }), {
      body: '{"featured_title":"T","featured_url":"https://example.com/t"}',
      contentType: 'text/plain',
    });
    assert.equal(response.status, 200, response.text);
    const [message] = await messagesAfter(server.owner, start);
    assert.deepEqual([message.display_recipient, message.subject], [hook.channel, 'my topic']);
  });

  test('only_events and exclude_events filter by event name with shell wildcards', async () => {
    const hook = await newBot();
    const send = async (params: Record<string, string>) => {
      const start = await newestId(server.owner);
      const response = await post(hookUrl('github', hook.apiKey, { stream: hook.channel, ...params }), { body: githubPush(), contentType: 'application/json', headers: GITHUB_PUSH_HEADERS });
      assert.deepEqual([response.status, response.json?.result], [200, 'success'], response.text);
      return (await messagesAfter(server.owner, start)).length;
    };
    assert.equal(await send({ only_events: '["push_*"]' }), 1);
    assert.equal(await send({ only_events: '["issue*", "star"]' }), 0);
    assert.equal(await send({ exclude_events: '["push_commit?"]' }), 0);
    assert.equal(await send({ exclude_events: '["[!p]*"]' }), 1);
    const bad = await post(hookUrl('github', hook.apiKey, { stream: hook.channel, only_events: 'push' }), { body: githubPush(), contentType: 'application/json', headers: GITHUB_PUSH_HEADERS });
    assert.deepEqual([bad.status, bad.json.msg], [400, 'only_events is not valid JSON']);
  });

  test('branches limits a git integration to the branches it lists', async () => {
    const hook = await newBot();
    const start = await newestId(server.owner);
    for (const branch of ['main', 'dev', 'release']) {
      const response = await post(hookUrl('github', hook.apiKey, { stream: hook.channel, branches: 'dev, release' }), { body: githubPush(branch), contentType: 'application/json', headers: GITHUB_PUSH_HEADERS });
      assert.equal(response.status, 200, response.text);
    }
    assert.deepEqual((await messagesAfter(server.owner, start)).map((m) => m.subject), ['r / dev', 'r / release']);
  });

  test('without stream the message goes to the bot\'s owner as a direct message', async () => {
    const hook = await newBot();
    const start = await newestId(server.owner);
    const response = await post(hookUrl('helloworld', hook.apiKey), { body: '{"featured_title":"T","featured_url":"u"}', contentType: 'application/json' });
    assert.equal(response.status, 200, response.text);
    const [message] = await messagesAfter(server.owner, start);
    assert.equal(message.type, 'private');
    assert.equal(message.sender_email, hook.email);
  });

  test('a missing channel makes the notification bot tell the owner, once in five minutes, and the request succeeds; a missing channel ID is an error', async () => {
    clock.advance(OWNER_NOTICE_INTERVAL_MS + 1000);
    const hook = await newBot();
    const start = await newestId(server.owner);
    const send = (stream: string) =>
      post(hookUrl('helloworld', hook.apiKey, { stream }), { body: '{"featured_title":"T","featured_url":"u"}', contentType: 'application/json' });
    assert.deepEqual((await send('no such channel')).json, { result: 'success', msg: '' });
    assert.deepEqual((await send('no such channel')).json, { result: 'success', msg: '' });
    const notices = await messagesAfter(server.owner, start);
    assert.equal(notices.length, 1);
    assert.equal(notices[0].type, 'private');
    assert.notEqual(notices[0].sender_email, hook.email);
    assert.equal(
      notices[0].content,
      `Your bot \`${hook.email}\` tried to send a message to channel #**no such channel**, but that channel does not exist. Click [here](#channels/new) to create it.`,
    );
    const byId = await send('999999');
    assert.deepEqual([byId.status, byId.json.code, byId.json.msg], [400, 'STREAM_DOES_NOT_EXIST', "Channel with ID '999999' does not exist"]);
    clock.advance(OWNER_NOTICE_INTERVAL_MS + 1000);
    await send('no such channel');
    assert.equal((await messagesAfter(server.owner, start)).length, 2, 'told again after five minutes');
  });

  test("an unsupported event answers Zulip's explanation with status 200 (a success, so that the service does not retry) and tells the owner once", async () => {
    clock.advance(OWNER_NOTICE_INTERVAL_MS + 1000);
    const hook = await newBot();
    const start = await newestId(server.owner);
    const send = () =>
      post(hookUrl('github', hook.apiKey, { stream: hook.channel }), { body: '{"action":"spun"}', contentType: 'application/json', headers: { 'X-GitHub-Event': 'weather' } });
    const response = await send();
    assert.equal(response.status, 200);
    assert.deepEqual(response.json, {
      result: 'success',
      msg: "The 'weather:spun' event isn't currently supported by the GitHub webhook; ignoring",
      code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
      webhook_name: 'GitHub',
      event_type: 'weather:spun',
    });
    await send();
    const notices = await messagesAfter(server.owner, start);
    assert.equal(notices.length, 1);
    assert.equal(notices[0].type, 'private');
    assert.match(notices[0].content, /weather:spun/);
  });

  test('a malformed payload is refused with 400 and nothing is posted in the channel', async () => {
    clock.advance(OWNER_NOTICE_INTERVAL_MS + 1000);
    const hook = await newBot();
    const start = await newestId(server.owner);
    const broken = await post(hookUrl('github', hook.apiKey, { stream: hook.channel }), { body: '{"ref": ', contentType: 'application/json', headers: GITHUB_PUSH_HEADERS });
    assert.deepEqual([broken.status, broken.json.code, broken.json.msg], [400, 'INVALID_JSON', 'Malformed JSON']);
    const noHeader = await post(hookUrl('github', hook.apiKey, { stream: hook.channel }), { body: githubPush(), contentType: 'application/json' });
    assert.deepEqual([noHeader.status, noHeader.json.code, noHeader.json.msg], [400, 'MISSING_HTTP_EVENT_HEADER', "Missing the HTTP event header 'X-GitHub-Event'"]);
    const strange = await post(hookUrl('github', hook.apiKey, { stream: hook.channel }), { body: '{"zen": 1}', contentType: 'application/json', headers: GITHUB_PUSH_HEADERS });
    assert.deepEqual([strange.status, strange.json.code], [400, 'ANOMALOUS_WEBHOOK_PAYLOAD']);
    const after = await messagesAfter(server.owner, start);
    assert.deepEqual(after.filter((m) => m.type === 'stream'), []);
    assert.equal(after.filter((m) => m.type === 'private').length, 1, "the owner hears that the webhook's JSON was malformed");
  });

  test('a message longer than the limit is truncated as Zulip truncates it', async () => {
    const hook = await newBot();
    const start = await newestId(server.owner);
    const response = await post(hookUrl('json', hook.apiKey, { stream: hook.channel }), { body: JSON.stringify({ text: 'x'.repeat(20000) }), contentType: 'application/json' });
    assert.equal(response.status, 200, response.text);
    const [message] = await messagesAfter(server.owner, start);
    assert.ok(message.content.endsWith('\n[message truncated]'));
    assert.equal([...message.content].length, 10000);
  });

  test('authentication: api_key or HTTP Basic; wrong keys, unknown integrations and methods are refused', async () => {
    const hook = await newBot();
    const body = '{"featured_title":"T","featured_url":"u"}';
    const basic = `Basic ${Buffer.from(`${hook.email}:${hook.apiKey}`).toString('base64')}`;
    const viaBasic = await post(`/api/v1/external/helloworld?stream=${encodeURIComponent(hook.channel)}`, { body, contentType: 'application/json', headers: { authorization: basic } });
    assert.equal(viaBasic.status, 200, viaBasic.text);
    const missing = await post(`/api/v1/external/helloworld?stream=x`, { body, contentType: 'application/json' });
    assert.deepEqual([missing.status, missing.json.msg], [400, "Missing 'api_key' argument"]);
    const wrong = await post(hookUrl('helloworld', 'a'.repeat(32)), { body, contentType: 'application/json' });
    assert.deepEqual([wrong.status, wrong.json.code, wrong.json.msg], [401, 'INVALID_API_KEY', 'Invalid API key']);
    const unknown = await post(hookUrl('nosuchservice', hook.apiKey), { body, contentType: 'application/json' });
    assert.equal(unknown.status, 404);
    const get = await post(hookUrl('helloworld', hook.apiKey), { method: 'GET' });
    assert.deepEqual([get.status, get.headers.get('allow')], [405, 'POST']);
  });

  test("Dropbox's URL check: a GET echoes its challenge as plain text, without one it is refused", async () => {
    const hook = await newBot();
    const echoed = await post(hookUrl('dropbox', hook.apiKey, { challenge: 'a1b2c3' }), { method: 'GET' });
    assert.deepEqual([echoed.status, echoed.text, echoed.headers.get('content-type')], [200, 'a1b2c3', 'text/plain; charset=utf-8']);
    const missing = await post(hookUrl('dropbox', hook.apiKey), { method: 'GET' });
    assert.deepEqual([missing.status, missing.json.msg], [400, "Missing 'challenge' argument"]);
  });

  test('an incoming-webhook bot may send messages and nothing else', async () => {
    const hook = await newBot();
    const sent = await hook.client.post('/messages', { type: 'stream', to: hook.channel, topic: 't', content: 'hi' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const me = await hook.client.get('/users/me');
    assert.deepEqual([me.status, me.body.msg], [401, 'This API is not available to incoming webhook bots.']);
    const register = await hook.client.post('/register');
    assert.equal(register.status, 401);
  });
  test("/register lists each integration's events as Zulip declares them (ALL_EVENT_TYPES), none where Zulip declares none", async () => {
    const response = await server.owner.post('/register', { fetch_event_types: JSON.stringify(['realm_incoming_webhook_bots']) });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const events = new Map<string, string[] | null>(response.body.realm_incoming_webhook_bots.map((i: any) => [i.name, i.all_event_types]));
    assert.deepEqual(events.get('pagerduty'), ['resolved', 'assigned', 'unacknowledged', 'acknowledged', 'triggered', 'reassigned']);
    assert.deepEqual(events.get('azuredevops'), ['git.push', 'git.pullrequest.created', 'git.pullrequest.merged', 'git.pullrequest.updated']);
    assert.deepEqual(events.get('uptimerobot'), ['up', 'down']);
    assert.deepEqual(events.get('freshping'), ['reporting_error', 'available']);
    assert.equal(events.get('stripe')?.length, 20);
    assert.equal(events.get('bitbucket2')?.length, 17);
    assert.ok(events.get('clubhouse')?.includes('story_update_batch'));
    for (const name of ['buildbot', 'newrelic', 'opsgenie', 'pingdom', 'semaphore', 'statuspage', 'travis', 'updown', 'groove', 'harbor', 'raygun', 'reviewboard', 'pivotal']) {
      assert.ok((events.get(name) ?? []).length > 0, name);
    }
    for (const name of ['sentry', 'taiga', 'transifex', 'gocd', 'json']) assert.equal(events.get(name), null, name);
  });
});

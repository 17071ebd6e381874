/**
 * The slack integration's Events API messages, whose sender and channel Slack names by IDs:
 * Stoa asks Slack's Web API for the names (here a stand-in for it, at the server's --slack-api),
 * with the app token the URL gives, and checks that token when Slack verifies the URL.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { TestServer } from './support/server';

const CHANNEL = 'slack events';
const ALL_SCOPES = 'channels:history,channels:read,emoji:read,team:read,users:read,users:read.email';

/** Slack's Web API as the integration uses it; remembers each call. */
const calls: Array<{ path: string; authorization: string | undefined }> = [];
const slackApi = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://slack.test');
  calls.push({ path: `${url.pathname}${url.search}`, authorization: req.headers.authorization });
  const json = (body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === '/api/users.info') {
    const names: Record<string, string> = { U1: 'Ada Lovelace', U2: 'Grace Hopper' };
    const name = names[url.searchParams.get('user') ?? ''];
    return name ? json({ ok: true, user: { id: url.searchParams.get('user'), name } }) : json({ ok: false, error: 'user_not_found' });
  }
  if (url.pathname === '/api/conversations.info') return json({ ok: true, channel: { id: url.searchParams.get('channel'), name: 'random' } });
  if (url.pathname === '/api/api.test') {
    const token = req.headers.authorization?.replace(/^Bearer /, '');
    if (token === 'xoxb-full') return json({ ok: true }, { 'x-oauth-scopes': ALL_SCOPES });
    if (token === 'xoxb-narrow') return json({ ok: true }, { 'x-oauth-scopes': 'channels:history,channels:read,emoji:read,team:read' });
    return json({ ok: false, error: 'invalid_auth' });
  }
  res.writeHead(404).end();
});

let server: TestServer;
let bot: { apiKey: string; email: string };

before(async () => {
  await new Promise<void>((resolve) => slackApi.listen(0, '127.0.0.1', resolve));
  const { port } = slackApi.address() as AddressInfo;
  server = await TestServer.start({ config: { slackApi: `http://127.0.0.1:${port}/api` } });
  const created = await server.owner.post('/bots', { full_name: 'Slack events', short_name: 'slackevents', bot_type: 2 });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  bot = { apiKey: created.body.api_key, email: (await server.owner.get(`/users/${created.body.user_id}`)).body.user.email };
  const subscribed = await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: CHANNEL }, { name: 'random' }], principals: [server.ownerId, created.body.user_id] });
  assert.equal(subscribed.status, 200, JSON.stringify(subscribed.body));
});

after(async () => {
  await server?.close();
  slackApi.close();
});

/** An Events API message event, as Slack posts it. */
function messageEvent(event: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ token: 'verification', team_id: 'T1', api_app_id: 'A1', type: 'event_callback', event: { type: 'message', channel: 'C9', ts: '1.2', ...event }, ...extra });
}

async function post(body: string, query: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const params = new URLSearchParams({ api_key: bot.apiKey, stream: CHANNEL, ...query });
  const response = await fetch(`${server.url}/api/v1/external/slack?${params}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: response.status, body: await response.json() };
}

/** The newest message the owner can see (channel or direct), as raw Markdown. */
async function newest(): Promise<{ id: number; subject: string; content: string; display_recipient: unknown; sender_email: string }> {
  const response = await server.owner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false });
  return response.body.messages.at(-1);
}

test("a message names its sender and the people it mentions by Slack's names, asked with the app token", async () => {
  calls.length = 0;
  const text = 'Hi <@U2> see <#C7|general> and <#C8|> *now* _please_ <!here>';
  const sent = await post(messageEvent({ user: 'U1', text }), { slack_app_token: 'xoxp-user-token' });
  assert.deepEqual([sent.status, sent.body.result], [200, 'success'], JSON.stringify(sent.body));
  const message = await newest();
  assert.deepEqual([message.display_recipient, message.subject, message.sender_email], [CHANNEL, 'Message from Slack', bot.email]);
  assert.equal(message.content, '**Ada Lovelace**: Hi @**Grace Hopper** see **#general** and **#[private Slack channel]** **now** *please* @**all**');
  assert.deepEqual(
    calls.map((c) => [c.path, c.authorization]),
    [['/api/users.info?user=U2', 'Bearer xoxp-user-token'], ['/api/users.info?user=U1', 'Bearer xoxp-user-token']],
  );
});

test('files are linked under the text; channels_map_to_topics asks for the channel\'s name: 1 a topic, 0 a channel of that name', async () => {
  const files = [{ title: 'plan.pdf', permalink: 'https://files.slack.example/plan.pdf' }, { title: 'cat.png', permalink: 'https://files.slack.example/cat.png' }];
  const body = messageEvent({ user: 'U1', text: 'See these', files });
  const expected = '**Ada Lovelace**: See these\n*[plan.pdf](https://files.slack.example/plan.pdf)*\n*[cat.png](https://files.slack.example/cat.png)*';
  await post(body, { slack_app_token: 'xoxp-t', channels_map_to_topics: '1' });
  assert.deepEqual([(await newest()).subject, (await newest()).content], ['channel: random', expected]);
  await post(body, { slack_app_token: 'xoxp-t', channels_map_to_topics: '0' });
  const inChannel = await newest();
  assert.deepEqual([inChannel.display_recipient, inChannel.subject], ['random', 'Message from Slack']);
  const wrong = await post(body, { slack_app_token: 'xoxp-t', channels_map_to_topics: '2' });
  assert.deepEqual([wrong.status, wrong.body.msg], [400, 'Error: channels_map_to_topics parameter other than 0 or 1']);
});

test("Slack's refusals and a missing token are the request's errors; nothing is sent", async () => {
  const before = (await newest()).id;
  const unknown = await post(messageEvent({ user: 'U404', text: 'x' }), { slack_app_token: 'xoxp-t' });
  assert.deepEqual([unknown.status, unknown.body.msg], [400, 'Error accessing Slack API: user_not_found']);
  const tokenless = await post(messageEvent({ user: 'U1', text: 'x' }), {});
  assert.deepEqual([tokenless.status, tokenless.body.msg], [400, "Missing 'slack_app_token' argument"]);
  assert.equal((await newest()).id, before);
});

test("retries, the Slack bridge's own messages and other apps' messages post nothing", async () => {
  const before = (await newest()).id;
  const retry = await post(messageEvent({ user: 'U1', text: 'again' }), { slack_app_token: 'xoxp-t' }, { 'X-Slack-Retry-Num': '1' });
  assert.deepEqual([retry.status, retry.body.result], [200, 'success']);
  const bridged = await post(messageEvent({ user: 'U1', text: 'from Zulip', bot_profile: { app_id: 'A1' } }), { slack_app_token: 'xoxp-t' });
  assert.deepEqual([bridged.status, bridged.body.result], [200, 'success']);
  const integration = await post(messageEvent({ subtype: 'bot_message', text: 'build passed' }), { slack_app_token: 'xoxp-t' });
  assert.deepEqual([integration.status, integration.body.code], [200, 'UNSUPPORTED_WEBHOOK_EVENT_TYPE']);
  assert.equal(integration.body.msg, "The 'integration bot message' event isn't currently supported by the Slack webhook; ignoring");
  const reaction = await post(messageEvent({ type: 'reaction_added', user: 'U1' }), { slack_app_token: 'xoxp-t' });
  assert.equal(reaction.body.msg, "The 'reaction_added' event isn't currently supported by the Slack webhook; ignoring");
  const sentByBot = (await server.owner.get('/messages', { anchor: before, include_anchor: false, num_before: 0, num_after: 10, apply_markdown: false })).body.messages.filter(
    (m: { sender_email: string }) => m.sender_email === bot.email,
  );
  assert.deepEqual(sentByBot, []);
});

test("the URL check echoes Slack's challenge once the app token may read what it needs; otherwise the owner is told why", async () => {
  const challenge = JSON.stringify({ token: 'verification', challenge: 'c-123', type: 'url_verification' });
  const userToken = await post(challenge, { slack_app_token: 'xoxp-user' });
  assert.deepEqual(userToken.body, { result: 'success', msg: '', challenge: 'c-123' });
  assert.deepEqual([(await newest()).subject, (await newest()).content], ['Integration events', 'Slack webhook has been successfully configured.']);
  const botToken = await post(challenge, { slack_app_token: 'xoxb-full' });
  assert.equal(botToken.body.challenge, 'c-123');

  const refusals: Array<[string | undefined, string]> = [
    ['xoxb-narrow', "Slack token is missing the following required scopes: ['users:read', 'users:read.email']"],
    ['xoxb-revoked', 'Invalid Slack token: xoxb-revoked, invalid_auth'],
    ['abc', 'Unknown token type -- must start with xoxb- or xoxp-'],
    [undefined, 'slack_app_token is missing.'],
  ];
  for (const [token, problem] of refusals) {
    // The owner's notices about one bot come at most every few minutes: a new bot for each.
    const created = await server.owner.post('/bots', { full_name: `Slack check ${problem.length}`, short_name: `slackcheck${problem.length}`, bot_type: 2 });
    const params = new URLSearchParams({ api_key: created.body.api_key, stream: CHANNEL, ...(token ? { slack_app_token: token } : {}) });
    const response = await fetch(`${server.url}/api/v1/external/slack?${params}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: challenge });
    assert.deepEqual(await response.json(), { result: 'success', msg: '' }, token);
    const notice = await newest();
    assert.ok(Array.isArray(notice.display_recipient), 'a direct message to the owner');
    assert.match(notice.content, /trying to set up a Slack webhook/);
    assert.ok(notice.content.includes(`\n\nError: ${problem}\n\n`), notice.content);
  }
});

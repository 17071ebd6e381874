import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_ALERT_WORDS } from '../lib/alert-words/views';
import { renderMarkdown, type MarkdownContext } from '../lib/markdown/render';
import { createChannel } from './support/channels';
import { sendMessage } from './support/messages';
import { TestServer } from './support/server';

/**
 * What the issue "every bad input answered" found in rendering, each as the client saw it,
 * and the renderer's cost on input built to be expensive.
 */

/**
 * Cost is judged by how it grows, not by a wall-clock ceiling (the machine may be busy): input
 * four times longer may take at most ten times as long, plus a fixed allowance for pauses of
 * the collector. Linear work takes four times as long; quadratic work sixteen. A busy machine
 * only adds time, so each size counts its fastest of three renders, and a pair that looks too
 * slow is measured again before the test fails: noise passes on a later try, a real quadratic
 * never does.
 */
const GROWTH = 4;
const MAX_SLOWDOWN = 10;
const ALLOWANCE_MS = 50;
const ATTEMPTS = 3;

function fastestMs(render: () => unknown): number {
  let fastest = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    render();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

/** Fails when rendering `make(GROWTH * n)` costs more than linear growth from `make(n)` allows. */
function assertGrowsLinearly(name: string, make: (n: number) => string, n: number, context: MarkdownContext): void {
  const small = make(n);
  const large = make(GROWTH * n);
  const measured: string[] = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const smallMs = fastestMs(() => renderMarkdown(small, context, { translateEmoticons: true }));
    const largeMs = fastestMs(() => renderMarkdown(large, context, { translateEmoticons: true }));
    if (largeMs < MAX_SLOWDOWN * smallMs + ALLOWANCE_MS) return;
    measured.push(`${largeMs.toFixed(0)} ms for ${large.length} characters, ${smallMs.toFixed(0)} ms for ${small.length}`);
  }
  assert.fail(`${name} grows faster than linearly: ${measured.join('; ')}`);
}

function emptyRealm(overrides: Partial<MarkdownContext> = {}): MarkdownContext {
  return {
    usersByName: () => [],
    userById: () => null,
    groupByName: () => null,
    channelByName: () => null,
    realmEmoji: () => null,
    linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/{id}' }],
    alertWords: ['alert'],
    realmUrl: 'http://chat.example.com',
    ...overrides,
  };
}

/** Each case as input of n repeats; measured at n = N / GROWTH and n = N. */
const N = 10_000;
const PATHOLOGICAL: Record<string, (n: number) => string> = {
  'open brackets': (n) => '['.repeat(n),
  'nested links': (n) => `${'['.repeat(n)}a${'](b)'.repeat(n)}`,
  'asterisks and text': (n) => '*a'.repeat(n),
  'bare asterisks': (n) => '*'.repeat(n),
  backticks: (n) => '`'.repeat(n),
  'backticks and text': (n) => '`a'.repeat(n),
  'quote markers': (n) => '>'.repeat(n),
  'quote lines': (n) => '>\n'.repeat(n),
  'dollar pairs': (n) => '$$'.repeat(n),
  'dollar pairs and text': (n) => '$$a'.repeat(n),
  colons: (n) => ':'.repeat(n),
  'colons and text': (n) => ':a'.repeat(n),
  tildes: (n) => '~~a'.repeat(n),
  'mention openers': (n) => '@**'.repeat(n),
  'channel link openers': (n) => '#**'.repeat(n),
  'unclosed times': (n) => '<time:'.repeat(n),
  'nested quote fences': (n) => '```quote\n'.repeat(n),
  'nested spoiler fences': (n) => '```spoiler a\n'.repeat(n),
  'code fences': (n) => '```\n'.repeat(n),
  // Deeper and deeper, 200 levels at a time.
  'nested lists': (n) => Array.from({ length: n / 10 }, (_, i) => `${' '.repeat(i % 200)}- a`).join('\n'),
  'image openers': (n) => '!['.repeat(n),
  backslashes: (n) => '\\'.repeat(n),
  'autolink openers': (n) => '<http://'.repeat(n),
  'linkifier matches': (n) => '#1 '.repeat(n),
  'alert words': (n) => 'alert '.repeat(n),
  mixture: (n) => '[*`>$$:~~@**#**_'.repeat(n / 10),
};

describe('the renderer on input built to be expensive', () => {
  for (const [name, content] of Object.entries(PATHOLOGICAL)) {
    test(`${name} render in time linear in their length and do not throw`, () => {
      const rendered = renderMarkdown(content(N), emptyRealm(), { translateEmoticons: true });
      assert.equal(typeof rendered.html, 'string');
      assertGrowsLinearly(name, content, N / GROWTH, emptyRealm());
    });
  }

  test('a linkifier pattern that backtracks catastrophically in JavaScript runs in linear time', () => {
    const context = emptyRealm({ linkifiers: [{ id: 1, pattern: '(?P<id>(a+)+)b', url_template: 'https://example.com/{id}' }] });
    const rendered = renderMarkdown(`${'a'.repeat(5000)}c ab`, context);
    assertGrowsLinearly('backtracking linkifier', (n) => `${'a'.repeat(n)}c ab`, 5000, context);
    assert.match(rendered.html, /<a href="https:\/\/example.com\/a">ab<\/a>/);
  });

  test('quotes nested deeper than the bound show their content as code, and shallower ones still quote', () => {
    const rendered = renderMarkdown('```quote\n```quote\nhi\n```\n```', emptyRealm()).html;
    assert.equal((rendered.match(/<blockquote>/g) ?? []).length, 2);
    const deep = renderMarkdown('```quote\n'.repeat(40), emptyRealm()).html;
    assert.ok((deep.match(/<blockquote>/g) ?? []).length <= 16);
  });
});

describe('hostile message content through the API', () => {
  let server: TestServer;
  let channelId: number;

  before(async () => {
    server = await TestServer.start();
    channelId = (await createChannel(server.owner)).id;
  });
  after(() => server.close());

  /** POST /messages/render with a body as typed, broken escapes and all. */
  function renderRaw(body: string): Promise<{ status: number; body: any }> {
    return postRaw('/messages/render', body);
  }

  async function postRaw(path: string, body: string): Promise<{ status: number; body: any }> {
    const token = Buffer.from(`${server.owner.credentials!.email}:${server.owner.credentials!.apiKey}`).toString('base64');
    const response = await fetch(`${server.url}/api/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Basic ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    return { status: response.status, body: await response.json() };
  }

  test('a repeated content parameter renders its last value, as Django reads it', async () => {
    const response = await renderRaw('content=a&content=b');
    assert.equal(response.status, 200);
    assert.equal(response.body.rendered, '<p>b</p>');
  });

  test('content with a lone surrogate or broken escapes renders, undecodable bytes as the replacement character', async () => {
    for (const body of ['content=x%ED%A0%80y', 'content=%zz%', 'content=%FF%FE', 'content=%C0%AF']) {
      const response = await renderRaw(body);
      assert.equal(response.status, 200, `${body}: ${JSON.stringify(response.body)}`);
      assert.equal(response.body.result, 'success');
    }
    assert.equal((await renderRaw('content=x%ED%A0%80y')).body.rendered, '<p>x\ufffd\ufffd\ufffdy</p>');
  });

  test('sending a repeated content parameter or one with broken escapes sends the last value, decoded as far as it goes', async () => {
    const sent = await postRaw('/messages', `type=stream&to=${channelId}&topic=t&content=a&content=x%ED%A0%80y%zz`);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const message = (await server.owner.get(`/messages/${sent.body.id}`, { apply_markdown: false })).body.message;
    assert.equal(message.content, 'x\ufffd\ufffd\ufffdy%zz');
  });

  test('rendering content longer than a message may be is refused, as Zulip refuses it', async () => {
    assert.equal((await server.owner.post('/messages/render', { content: 'a'.repeat(10_000) })).status, 200);
    for (const length of [10_001, 100 * 1024, 1024 * 1024]) {
      const response = await server.owner.post('/messages/render', { content: 'a'.repeat(length) });
      assert.equal(response.status, 400);
      assert.equal(response.body.msg, 'content is too long (limit: 10000 characters)');
      assert.equal(response.body.code, 'BAD_REQUEST');
    }
  });

  test('a body over the size limit is refused with 413', async () => {
    const response = await server.owner.post('/messages/render', { content: 'a'.repeat(3 * 1024 * 1024) });
    assert.equal(response.status, 413);
    assert.equal(response.body.result, 'error');
  });

  test('sending very long content keeps the first 10000 characters and marks the cut', async () => {
    for (const length of [100 * 1024, 1000 * 1024]) {
      const id = await sendMessage(server.owner, { type: 'stream', to: channelId, topic: 'long', content: 'a'.repeat(length) });
      const raw = (await server.owner.get(`/messages/${id}`, { apply_markdown: false })).body.message.content as string;
      assert.equal(raw.length, 10_000);
      assert.ok(raw.endsWith('\n[message truncated]'));
    }
  });

  test('a topic longer than 60 characters is cut with an ellipsis', async () => {
    const id = await sendMessage(server.owner, { type: 'stream', to: channelId, topic: 't'.repeat(100 * 1024), content: 'hi' });
    const topic = (await server.owner.get(`/messages/${id}`)).body.message.subject as string;
    assert.equal(topic, `${'t'.repeat(57)}...`);
  });

  test('an alert word longer than 100 characters is refused', async () => {
    const response = await server.owner.post('/users/me/alert_words', { alert_words: ['w'.repeat(101)] });
    assert.equal(response.status, 400);
    assert.equal(response.body.msg, 'alert_words[0] is too long (limit: 100 characters)');
  });

  test(`one user keeps at most ${MAX_ALERT_WORDS} alert words`, async () => {
    const member = await server.createUser();
    const words = Array.from({ length: MAX_ALERT_WORDS }, (_, i) => `${'w'.repeat(95)}${i}`);
    assert.equal((await member.post('/users/me/alert_words', { alert_words: words })).status, 200);
    // Words they have already do not count twice, in any letter case.
    assert.equal((await member.post('/users/me/alert_words', { alert_words: [words[0].toUpperCase()] })).status, 200);
    const over = await member.post('/users/me/alert_words', { alert_words: ['one more'] });
    assert.equal(over.status, 400);
    assert.equal(over.body.msg, `You can have at most ${MAX_ALERT_WORDS} alert words.`);
  });

  test('long alert words of one user never break anyone’s messages, and still match', async () => {
    const watcher = await server.createUser();
    const { id: channel } = await createChannel(server.owner, { principals: [watcher.userId] });
    const long = `${'ab'.repeat(49)}.*`;
    const many = Array.from({ length: 500 }, (_, i) => `(${'x'.repeat(90)}${i}|[`);
    assert.equal((await watcher.post('/users/me/alert_words', { alert_words: [long, ...many] })).status, 200);
    const content = `before ${long} after`;
    assert.equal((await server.owner.post('/messages/render', { content })).status, 200);
    const id = await sendMessage(server.owner, { type: 'stream', to: channel, topic: 'alerts', content });
    const flags = (await watcher.get(`/messages/${id}`)).body.message.flags as string[];
    assert.ok(flags.includes('has_alert_word'), JSON.stringify(flags));
    const other = await sendMessage(server.owner, { type: 'stream', to: channel, topic: 'alerts', content: 'nothing to see' });
    assert.ok(!(await watcher.get(`/messages/${other}`)).body.message.flags.includes('has_alert_word'));
  });

  test('searching for a very long or regex-like phrase answers, and highlights literally', async () => {
    const id = await sendMessage(server.owner, { type: 'stream', to: channelId, topic: 'search', content: 'find a.*b (here' });
    const narrow = (operand: string) => [{ operator: 'search', operand }];
    // Node refuses a request line over 16 KB before any route sees it, so 12 000 is about the longest.
    for (const operand of ['x'.repeat(12_000), `${'(a|'.repeat(1000)}`, '(((', 'a.*b (here']) {
      const params = { anchor: 'newest', num_before: 5, num_after: 0, narrow: narrow(operand) };
      const response = await server.owner.get('/messages', params);
      assert.equal(response.status, 200, JSON.stringify(response.body).slice(0, 300));
    }
    const found = await server.owner.get('/messages/matches_narrow', { msg_ids: [id], narrow: narrow('(here') });
    assert.equal(found.status, 200);
    assert.equal(found.body.messages[id].match_content, '<p>find a.*b <span class="highlight">(here</span></p>');
  });

  test('a linkifier pattern over the length bound is refused as RE2 refuses one too large', async () => {
    const response = await server.owner.post('/realm/filters', { pattern: `#(?P<id>${'a'.repeat(1000)})`, url_template: 'https://example.com/{id}' });
    assert.equal(response.status, 400);
    assert.equal(response.body.msg, 'Bad regular expression: pattern too large - compile failed');
  });
});

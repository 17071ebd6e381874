import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page, Request, Response, Route } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { launchChromium, NO_CHROMIUM } from './support/chromium';
import { TestServer } from './support/server';
import { feedTexts, logInThroughPage, waitUntil, type WebUser } from './support/web';

/**
 * The first view's messages are asked for beside the registration, before the app has loaded,
 * and a view's messages may come back after events about them: nothing may be lost, doubled or
 * shown as it was before an edit, whatever order the server and the page see things in.
 */

let server: TestServer;
let browser: Browser;

before(async () => {
  if (NO_CHROMIUM) return;
  server = await TestServer.start({ config: { gravatar: false } });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

type Client = Awaited<ReturnType<TestServer['createUser']>>;

/** A reader and a writer in a new channel holding `texts`, and the reader signed in (on Inbox). */
async function channelWithReader(texts: string[]): Promise<{ channelId: number; reader: Client; writer: Client; web: WebUser; ids: number[] }> {
  const reader = await server.createUser('Reader');
  const writer = await server.createUser('Writer');
  const name = uniqueName('load');
  await createChannel(server.owner, { principals: [reader.credentials.email, writer.credentials.email] }, name);
  const channelId = (await server.owner.get('/get_stream_id', { stream: name })).body.stream_id as number;
  const ids: number[] = [];
  for (const content of texts) ids.push((await send(writer, channelId, content)).id);
  const web = await logInThroughPage(browser, server.url, reader.credentials.email, 'secret-password', { hash: '#inbox' });
  return { channelId, reader, writer, web, ids };
}

async function send(writer: Client, channelId: number, content: string): Promise<{ id: number }> {
  const answer = await writer.post('/messages', { type: 'stream', to: channelId, topic: 'load', content });
  assert.equal(answer.status, 200);
  return { id: answer.body.id as number };
}

/** The feed's texts, without the notice of the channel's creation. */
async function texts(page: Page): Promise<string[]> {
  return (await feedTexts(page)).filter((text) => !text.startsWith('Public channel created'));
}

const isPath = (path: string) => (url: URL) => url.pathname === path;
/** The first fetch of a view (the later ones are anchored at a message). */
const firstFetchOf = (channelId: number) => (url: URL) =>
  url.pathname === '/json/messages' && url.searchParams.get('anchor') === 'first_unread' && (url.searchParams.get('narrow') ?? '').includes(`"operand":${channelId}`);

/** Loads the page anew at `hash` (a new document, as when the address is opened). */
async function openAnew(web: WebUser, hash: string): Promise<void> {
  await web.page.goto('about:blank');
  await web.page.goto(`${server.url}/${hash}`);
}

/** Resolves when `page` received an answer matching `matches`. */
function answered(page: Page, matches: (response: Response) => boolean | Promise<boolean>): Promise<Response> {
  return page.waitForResponse(matches, { timeout: 15_000 });
}

test('the first view\'s messages are asked for beside the registration, not after it', { skip: NO_CHROMIUM }, async () => {
  const { channelId, web } = await channelWithReader(['one', 'two']);
  try {
    const seen: string[] = [];
    const note = (what: string) => (r: Request | Response) => {
      const url = new URL(r.url());
      if (url.pathname === '/json/register' || (url.pathname === '/json/messages' && url.searchParams.get('anchor') === 'first_unread')) seen.push(`${what} ${url.pathname}`);
    };
    web.page.on('request', note('request'));
    web.page.on('response', note('response'));
    await openAnew(web, `#narrow/channel/${channelId}`);
    await web.page.locator('.message-content', { hasText: 'two' }).waitFor();
    assert.ok(seen.indexOf('request /json/messages') >= 0, seen.join(', '));
    assert.ok(seen.indexOf('request /json/messages') < seen.indexOf('response /json/register'), `the messages were asked for after the registration came: ${seen.join(', ')}`);
    assert.deepEqual(await texts(web.page), ['one', 'two']);
    assert.deepEqual(web.problems, []);
  } finally {
    await web.context.close();
  }
});

test('the page\'s own script sends the first requests before any of the app\'s files has arrived', { skip: NO_CHROMIUM }, async () => {
  const { channelId, web } = await channelWithReader(['before the app']);
  try {
    // Every script file is held until the registration and the view's messages are asked for:
    // were they sent by the app's files, the page would never get that far.
    const registration = web.page.waitForRequest((r) => new URL(r.url()).pathname === '/json/register', { timeout: 15_000 });
    const messages = web.page.waitForRequest((r) => firstFetchOf(channelId)(new URL(r.url())), { timeout: 15_000 });
    const scripts = /\/static\/web\/.*\.js$/;
    await web.page.route(scripts, async (route: Route) => {
      await Promise.all([registration, messages]);
      await route.continue();
    });
    await openAnew(web, `#narrow/channel/${channelId}`);
    await web.page.locator('.message-content', { hasText: 'before the app' }).waitFor();
    await web.page.unroute(scripts);
    assert.deepEqual(await texts(web.page), ['before the app']);
    // The page's security policy let its own script run (a refused script is reported here).
    assert.deepEqual(web.problems, []);
  } finally {
    await web.context.close();
  }
});

test('a message sent and a message edited between the early messages and the registration are shown, once and edited', { skip: NO_CHROMIUM }, async () => {
  const { channelId, writer, web, ids } = await channelWithReader(['first', 'to be edited']);
  try {
    // The registration waits until the early messages were read on the server and came back;
    // meanwhile a message is sent and another edited: neither is in that answer, and the
    // queue the registration makes begins after both.
    const early = answered(web.page, (r) => firstFetchOf(channelId)(new URL(r.url())));
    await web.page.route(isPath('/json/register'), async (route: Route) => {
      await web.page.unroute(isPath('/json/register'));
      await early;
      await send(writer, channelId, 'sent in the gap');
      assert.equal((await writer.patch(`/messages/${ids[1]}`, { content: 'edited in the gap' })).status, 200);
      await route.continue();
    });
    await openAnew(web, `#narrow/channel/${channelId}`);
    await web.page.locator('.message-content', { hasText: 'sent in the gap' }).waitFor();
    await web.page.locator('.message-content', { hasText: 'edited in the gap' }).waitFor();
    assert.deepEqual(await texts(web.page), ['first', 'edited in the gap', 'sent in the gap']);

    // And the queue delivers what comes next.
    await send(writer, channelId, 'after loading');
    await web.page.locator('.message-content', { hasText: 'after loading' }).waitFor();
    assert.deepEqual(await texts(web.page), ['first', 'edited in the gap', 'sent in the gap', 'after loading']);
    assert.deepEqual(web.problems, []);
  } finally {
    await web.context.close();
  }
});

test('a message both in the early answer and in the queue is shown once', { skip: NO_CHROMIUM }, async () => {
  const { channelId, writer, web } = await channelWithReader(['first']);
  try {
    // The early messages are read on the server only after the registration: a message sent
    // in between is in the answer and, as an event, in the queue.
    const registered = answered(web.page, (r) => new URL(r.url()).pathname === '/json/register');
    await web.page.route(firstFetchOf(channelId), async (route: Route) => {
      await web.page.unroute(firstFetchOf(channelId));
      await registered;
      await send(writer, channelId, 'in both');
      await route.continue();
    });
    // The view is fetched again once the queue runs; watched from before the page opens, as
    // that answer may come before the first one is shown.
    const refetched = answered(web.page, (r) => new URL(r.url()).pathname === '/json/messages' && new URL(r.url()).searchParams.get('anchor') !== 'first_unread');
    await openAnew(web, `#narrow/channel/${channelId}`);
    await web.page.locator('.message-content', { hasText: 'in both' }).waitFor();
    // Long enough for the queue's copy and the second fetch to have come.
    await refetched;
    await web.page.waitForTimeout(500);
    assert.deepEqual(await texts(web.page), ['first', 'in both']);
    assert.deepEqual(web.problems, []);
  } finally {
    await web.context.close();
  }
});

test('a message arriving while a view\'s messages are on their way is kept when they come', { skip: NO_CHROMIUM }, async () => {
  const { channelId, writer, web } = await channelWithReader(['first']);
  try {
    await web.page.getByRole('link', { name: 'Combined feed' }).click();
    await web.page.locator('.message-content', { hasText: 'first' }).waitFor();
    // Opening the channel: its messages are read on the server, then a message arrives and
    // its event reaches the page, then the (older) answer is delivered.
    await web.page.route(firstFetchOf(channelId), async (route: Route) => {
      await web.page.unroute(firstFetchOf(channelId));
      const response = await route.fetch();
      const event = answered(web.page, async (r) => new URL(r.url()).pathname === '/json/events' && (await r.text()).includes('arrived meanwhile'));
      await send(writer, channelId, 'arrived meanwhile');
      await event;
      await route.fulfill({ response });
    });
    await web.page.evaluate(`location.hash = '#narrow/channel/${channelId}'`);
    await web.page.locator('.message-content', { hasText: 'arrived meanwhile' }).waitFor();
    await web.page.waitForTimeout(300);
    assert.deepEqual(await texts(web.page), ['first', 'arrived meanwhile']);
    assert.deepEqual(web.problems, []);
  } finally {
    await web.context.close();
  }
});

test('pressing a link to a channel asks for its messages; the click opens it with them, and what arrived between is kept', { skip: NO_CHROMIUM }, async () => {
  const { channelId, writer, web } = await channelWithReader(['first']);
  try {
    const fetches: string[] = [];
    web.page.on('request', (request) => {
      if (firstFetchOf(channelId)(new URL(request.url()))) fetches.push(request.url());
    });
    const link = web.page.getByRole('navigation', { name: 'Views, channels and direct messages' }).locator(`a[href^="#narrow/channel/${channelId}-"]`).first();
    // The press alone asks for the channel's messages, and the view stays where it is.
    const prefetched = answered(web.page, (r) => firstFetchOf(channelId)(new URL(r.url())));
    await link.dispatchEvent('pointerdown', { button: 0, isPrimary: true });
    await prefetched;
    assert.equal(await web.page.evaluate('location.hash'), '#inbox');
    // A message arrives after the answer and before the click: its event is kept for the view.
    const event = answered(web.page, async (r) => new URL(r.url()).pathname === '/json/events' && (await r.text()).includes('arrived between'));
    await send(writer, channelId, 'arrived between');
    await event;
    await link.click();
    await web.page.locator('.message-content', { hasText: 'arrived between' }).waitFor();
    assert.deepEqual(await texts(web.page), ['first', 'arrived between']);
    assert.equal(fetches.length, 1, 'the click asked for nothing more');
    assert.deepEqual(web.problems, []);
  } finally {
    await web.context.close();
  }
});

test('a view left while its early messages are on their way does not show them', { skip: NO_CHROMIUM }, async () => {
  const { channelId, reader, writer, web } = await channelWithReader(['in the first channel']);
  const other = uniqueName('other');
  await createChannel(server.owner, { principals: [reader.credentials.email, writer.credentials.email] }, other);
  const otherId = (await server.owner.get('/get_stream_id', { stream: other })).body.stream_id as number;
  try {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await web.page.route(firstFetchOf(channelId), async (route: Route) => {
      await web.page.unroute(firstFetchOf(channelId));
      await released;
      await route.continue();
    });
    await openAnew(web, `#narrow/channel/${channelId}`);
    await web.page.locator('.message-scroller [aria-busy="true"]').waitFor({ state: 'attached' });
    await send(writer, otherId, 'in the other channel');
    await web.page.evaluate(`location.hash = '#narrow/channel/${otherId}'`);
    await web.page.locator('.message-content', { hasText: 'in the other channel' }).waitFor();
    release();
    await answered(web.page, (r) => firstFetchOf(channelId)(new URL(r.url())));
    await web.page.waitForTimeout(300);
    assert.deepEqual(await texts(web.page), ['in the other channel']);
    assert.deepEqual(web.problems, []);
  } finally {
    await web.context.close();
  }
});

test('an address with near/ID opens at that message from the early answer, selected', { skip: NO_CHROMIUM }, async () => {
  const texts = Array.from({ length: 40 }, (_, i) => `message ${i}`);
  const { channelId, web, ids } = await channelWithReader(texts);
  try {
    const fetches: string[] = [];
    web.page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/json/messages') fetches.push(url.searchParams.get('anchor') ?? '');
    });
    await openAnew(web, `#narrow/channel/${channelId}/near/${ids[5]}`);
    const selected = web.page.locator('.message-row.selected');
    await selected.waitFor();
    assert.equal(await selected.getAttribute('data-message-id'), String(ids[5]));
    assert.equal(await selected.locator('.message-content').innerText(), 'message 5');
    await waitUntil(() => fetches.length >= 2, 'the view was fetched again once the queue ran');
    // The first fetch was the early one, at the message; no second fetch at the same anchor.
    assert.equal(fetches[0], String(ids[5]));
    assert.equal(fetches.filter((anchor) => anchor === String(ids[5])).length, 1);
    assert.deepEqual(web.problems, []);
  } finally {
    await web.context.close();
  }
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { feedTexts, waitUntil, webSuite } from './support/web';

/** Views in the web client: what is fetched when one opens, and views remembered after they are left. */

const web = webSuite();

async function channelFor(person: { credentials: { email: string } }): Promise<{ name: string; id: number }> {
  const name = uniqueName('views');
  await createChannel(web.server.owner, { principals: [person.credentials.email] }, name);
  return { name, id: (await web.server.owner.get('/get_stream_id', { stream: name })).body.stream_id as number };
}

async function post(channel: string, content: string): Promise<number> {
  return (await web.server.owner.post('/messages', { type: 'stream', to: channel, topic: 'notes', content })).body.id as number;
}

test('a view opens with about a screenful around the first unread message and fetches the rest as it scrolls', { skip: NO_CHROMIUM }, async () => {
  const ada = await web.server.createUser('Ada Lovelace');
  const channel = await channelFor(ada);
  for (let i = 0; i < 80; i++) await post(channel.name, `note ${i}`);
  const user = await web.open(ada.credentials.email, '#inbox');
  const fetched: Array<{ before: number; after: number }> = [];
  user.page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/json/messages') fetched.push({ before: Number(url.searchParams.get('num_before')), after: Number(url.searchParams.get('num_after')) });
  });
  await user.page.getByRole('navigation').getByRole('link', { name: new RegExp(`^${channel.name}\\b`) }).click();
  await user.page.locator('.message-row', { hasText: 'note 0' }).waitFor();
  assert.deepEqual(fetched[0], { before: 15, after: 15 }, 'the first fetch is a screenful each way');
  // The channel's first message (its creation notice) and 15 after it.
  await waitUntil(async () => (await user.page.locator('.message-row').count()) >= 16, 'the first page is shown');
  // Scrolling to the end fetches the rest.
  await user.page.locator('.message-scroller').hover();
  await waitUntil(async () => {
    await user.page.mouse.wheel(0, 4000);
    return (await feedTexts(user.page)).includes('note 79');
  }, 'the newest message is fetched by scrolling');
  assert.ok(fetched.length >= 2, 'more was fetched after the first page');
});

test('a view left and opened again is shown from memory, then what changed meanwhile arrives', { skip: NO_CHROMIUM }, async () => {
  const ada = await web.server.createUser('Ada Lovelace');
  const first = await channelFor(ada);
  const second = await channelFor(ada);
  const edited = await post(first.name, 'before leaving');
  await post(second.name, 'in the second channel');
  const user = await web.open(ada.credentials.email, `#narrow/channel/${first.id}`);
  const { page } = user;
  const sidebarLink = (name: string) => page.getByRole('navigation').getByRole('link', { name: new RegExp(`^${name}\\b`) });
  await page.locator('.message-row', { hasText: 'before leaving' }).waitFor();

  await sidebarLink(second.name).click();
  await page.locator('.message-row', { hasText: 'in the second channel' }).waitFor();
  // While the first channel is out of sight, it changes: the page hears of it but keeps only the open view.
  await post(first.name, 'while you were away');
  await web.server.owner.patch(`/messages/${edited}`, { content: 'before leaving, edited' });

  // Going back shows the remembered messages, then fetches them again from the first one
  // onward (not around the first unread one, as a view never seen is opened).
  const fetched: Array<{ anchor: string | null; before: string | null }> = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/json/messages') fetched.push({ anchor: url.searchParams.get('anchor'), before: url.searchParams.get('num_before') });
  });
  await sidebarLink(first.name).click();
  await page.locator('.message-row', { hasText: 'while you were away' }).waitFor();
  await page.locator('.message-row', { hasText: 'before leaving, edited' }).waitFor();
  assert.match(fetched[0]?.anchor ?? '', /^\d+$/, 'fetched again from a remembered message');
  assert.equal(fetched[0]?.before, '0');
  assert.deepEqual(
    (await feedTexts(page)).filter((text) => /leaving|away/.test(text)),
    ['before leaving, edited', 'while you were away'],
  );
  assert.deepEqual(user.problems, []);
});

test('the view on the screen stays while the next one is fetched, and "Loading…" replaces it only if the answer is slow', { skip: NO_CHROMIUM }, async () => {
  const ada = await web.server.createUser('Ada Lovelace');
  const first = await channelFor(ada);
  const second = await channelFor(ada);
  await post(first.name, 'in the first channel');
  await post(second.name, 'in the second channel');
  const user = await web.open(ada.credentials.email, `#narrow/channel/${first.id}`);
  const { page } = user;
  await page.locator('.message-row', { hasText: 'in the first channel' }).waitFor();
  // The second channel's messages are held back until released.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === '/json/messages' && url.searchParams.get('narrow')?.includes(String(second.id)) === true,
    async (route) => {
      await released;
      await route.continue();
    },
  );
  const link = page.getByRole('navigation').getByRole('link', { name: new RegExp(`^${second.name}\\b`) });
  // Right after the click, once the page has redrawn what the click changed (a zero-delay
  // timer runs after it, and before the hold's own timer), the first channel is still shown.
  const right = await link.evaluate(async (anchor) => {
    (anchor as unknown as { click(): void }).click();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const doc = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null; body: { textContent: string | null } } }).document;
    return { busy: doc.querySelector('[role="feed"][aria-busy="true"]') !== null, text: doc.body.textContent ?? '' };
  });
  assert.equal(right.busy, false, 'no empty, busy list right after the click');
  assert.ok(right.text.includes('in the first channel'), 'the first channel is still on the screen');
  // The answer is slow: after a moment "Loading…" shows, and the view when it comes.
  await page.locator('[role="feed"][aria-busy="true"]').waitFor({ state: 'attached' });
  await page.getByText('Loading…', { exact: true }).waitFor();
  assert.equal(await page.locator('.message-row', { hasText: 'in the first channel' }).count(), 0);
  release();
  await page.locator('.message-row', { hasText: 'in the second channel' }).waitFor();
  assert.deepEqual(user.problems, []);
});

test('placing a view just opened at its first unread message fetches nothing more until the view has settled', { skip: NO_CHROMIUM }, async () => {
  const ada = await web.server.createUser('Ada Lovelace');
  const readAll = async (channelId: number) =>
    ada.post('/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 1000, narrow: JSON.stringify([{ operator: 'channel', operand: channelId }]), op: 'add', flag: 'read' });
  // A channel read to its end: it opens at its newest message, scrolled to the bottom.
  const other = await channelFor(ada);
  for (let i = 0; i < 40; i++) await post(other.name, `other ${i}`);
  await readAll(other.id);
  // A channel read up to its 41st note: it opens scrolled to that note, 8 notes below its top.
  const channel = await channelFor(ada);
  const ids: number[] = [];
  for (let i = 0; i < 80; i++) ids.push(await post(channel.name, `note ${i}`));
  await readAll(channel.id);
  await ada.post('/messages/flags', { messages: JSON.stringify(ids.slice(40)), op: 'remove', flag: 'read' });
  const user = await web.open(ada.credentials.email, `#narrow/channel/${other.id}`);
  await user.page.locator('.message-row', { hasText: 'other 39' }).waitFor();
  // Notes, in the page, when messages are asked for and when the message list scrolls.
  await user.page.evaluate(() => {
    const page = globalThis as unknown as {
      fetch: (input: unknown, init?: unknown) => Promise<unknown>;
      document: { addEventListener(type: string, listener: (e: { target: unknown }) => void, capture: boolean): void };
      performance: { now(): number };
      noted: { fetches: number[]; scrolls: number[] };
    };
    page.noted = { fetches: [], scrolls: [] };
    const fetch = page.fetch.bind(page);
    page.fetch = (input, init) => {
      if (String(input).includes('/json/messages?')) page.noted.fetches.push(page.performance.now());
      return fetch(input, init);
    };
    page.document.addEventListener('scroll', (e) => {
      if ((e.target as { classList?: { contains(c: string): boolean } }).classList?.contains('message-scroller')) page.noted.scrolls.push(page.performance.now());
    }, true);
  });
  await user.page.getByRole('navigation').getByRole('link', { name: new RegExp(`^${channel.name}\\b`) }).click();
  await user.page.locator('.message-row', { hasText: 'note 40' }).waitFor();
  // Near the top of what was fetched: once the view has settled, older notes are fetched.
  const noted = async () => (await user.page.evaluate('noted')) as { fetches: number[]; scrolls: number[] };
  await waitUntil(async () => (await noted()).fetches.length >= 2, 'older messages are fetched once the view has settled');
  const { fetches, scrolls } = await noted();
  assert.ok(scrolls.length > 0, 'placing the view at its anchor scrolled the list');
  // A fetch made by the scroll's own handler starts within the scroll's task, a millisecond at
  // most after it. Only the scrolls before the view settled count: once older messages have
  // come, keeping the reader's place scrolls the list, and its handler may rightly fetch more.
  const settledAt = fetches[1];
  const byScroll = fetches.slice(1).filter((at) => scrolls.some((scrolled) => scrolled < settledAt && at >= scrolled && at - scrolled < 1));
  assert.deepEqual(byScroll, [], 'no fetch was made by the scroll that placed the view');
  assert.deepEqual(user.problems, []);
});

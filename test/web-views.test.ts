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

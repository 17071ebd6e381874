import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium, NO_CHROMIUM } from './support/chromium';
import { createChannel, uniqueName } from './support/channels';
import { TestServer } from './support/server';
import { feedTexts, isTappable, logInThroughPage, sendToChannel, waitUntil, type WebUser } from './support/web';

const PASSWORD = 'secret-password';

let server: TestServer;
let browser: Browser;
let baseUrl: string;
const opened: WebUser[] = [];

before(async () => {
  if (NO_CHROMIUM) return;
  // Without gravatar, every picture comes from the server: the tests need no Internet.
  server = await TestServer.start({ config: { gravatar: false } });
  baseUrl = server.url;
  browser = await launchChromium();
});

after(async () => {
  for (const user of opened) await user.context.close().catch(() => undefined);
  await browser?.close();
  await server?.close();
});

async function person(name: string) {
  const client = await server.createUser(name);
  return client;
}

async function open(email: string, hash?: string): Promise<WebUser> {
  const user = await logInThroughPage(browser, baseUrl, email, PASSWORD, { hash });
  opened.push(user);
  return user;
}

/** A channel with the given people subscribed, made through the API. */
async function channelFor(...members: Array<{ credentials: { email: string } }>) {
  const name = uniqueName('web');
  await createChannel(server.owner, { principals: members.map((m) => m.credentials.email) }, name);
  const id = (await server.owner.get('/get_stream_id', { stream: name })).body.stream_id as number;
  return { name, id };
}

test('two people chat in real time, each seeing the other\'s message arrive', { skip: NO_CHROMIUM }, async () => {
  const ada = await person('Ada Lovelace');
  const grace = await person('Grace Hopper');
  const channel = await channelFor(ada, grace);
  const adaWeb = await open(ada.credentials.email, `#narrow/channel/${channel.id}`);
  const graceWeb = await open(grace.credentials.email, `#narrow/channel/${channel.id}`);

  await sendToChannel(adaWeb.page, channel.name, 'plans', 'Shall we meet **tomorrow**?');
  // The sender sees it at once, and the server's copy replaces the local echo.
  await adaWeb.page.locator('.message-row:not(.local-echo) strong', { hasText: 'tomorrow' }).waitFor();
  await graceWeb.page.locator('.message-content strong', { hasText: 'tomorrow' }).waitFor();
  assert.equal(await graceWeb.page.locator('.message-row .sender-name', { hasText: 'Ada Lovelace' }).count(), 1);
  assert.equal(await graceWeb.page.locator('.recipient-topic', { hasText: 'plans' }).count(), 1);

  await sendToChannel(graceWeb.page, channel.name, 'plans', 'Yes, at ten :+1:');
  await adaWeb.page.locator('.message-content', { hasText: 'Yes, at ten' }).waitFor();
  // The message sent becomes the sender's selected one, as in Zulip; the other's stays where it was.
  await graceWeb.page.locator('.message-row.selected:not(.local-echo)', { hasText: 'Yes, at ten' }).waitFor();
  assert.equal(await adaWeb.page.locator('.message-row.selected', { hasText: 'Yes, at ten' }).count(), 0);
  // Emoji are drawn from their code points: 👍 rather than :+1:.
  assert.deepEqual((await feedTexts(adaWeb.page)).slice(-2), ['Shall we meet tomorrow?', 'Yes, at ten 👍']);
  assert.equal(await adaWeb.page.locator('.local-echo').count(), 0);

  // What the server stored is what was typed.
  const stored = await ada.get('/messages', { anchor: 'newest', num_before: 2, num_after: 0, narrow: [{ operator: 'channel', operand: channel.id }], apply_markdown: false });
  assert.deepEqual(
    stored.body.messages.map((m: { content: string; subject: string }) => [m.subject, m.content]),
    [
      ['plans', 'Shall we meet **tomorrow**?'],
      ['plans', 'Yes, at ten :+1:'],
    ],
  );
  assert.deepEqual([...adaWeb.problems, ...graceWeb.problems], []);
});

test('unread counts fall as messages are seen, and the server learns they were read', { skip: NO_CHROMIUM }, async () => {
  const reader = await person('Reader');
  const writer = await person('Writer');
  // Welcome Bot's greeting is read first, so that the counts are the channel's alone.
  await reader.post('/mark_all_as_read');
  const channel = await channelFor(reader, writer);
  const web = await open(reader.credentials.email, '#inbox');
  const ids: number[] = [];
  for (const n of [1, 2, 3]) {
    const sent = await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'news', content: `news number ${n}` });
    ids.push(sent.body.id);
  }
  // Three news and the notification bot's notice that the channel was created.
  const sidebarCount = web.page.getByRole('navigation').getByLabel(`4 unread messages in ${channel.name}`);
  await sidebarCount.waitFor();
  await waitUntil(async () => (await web.page.title()).startsWith('(4) '), 'the title counts 4 unread');
  await web.page.getByRole('region', { name: 'Inbox' }).getByRole('link', { name: /news/ }).waitFor();

  await web.page.getByRole('navigation').getByRole('link', { name: new RegExp(channel.name) }).click();
  await web.page.locator('.message-content', { hasText: 'news number 3' }).waitFor();
  await sidebarCount.waitFor({ state: 'detached' });
  await waitUntil(async () => !/^\(\d+\)/.test(await web.page.title()), 'the title counts none');

  const flags = await reader.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: channel.id }] });
  assert.deepEqual(
    flags.body.messages.map((m: { flags: string[] }) => m.flags.includes('read')),
    [true, true, true, true],
  );
  assert.deepEqual(flags.body.messages.slice(1).map((m: { id: number }) => m.id), ids);
  assert.deepEqual(web.problems, []);
});

test('a message carrying HTML and script shows as text, and nothing in it runs', { skip: NO_CHROMIUM }, async () => {
  const reader = await person('Careful Reader');
  const attacker = await person('Mallory');
  const channel = await channelFor(reader, attacker);
  const web = await open(reader.credentials.email, `#narrow/channel/${channel.id}`);
  const payloads = [
    '<img src=x onerror="window.__xss=1;alert(1)">',
    '<script>window.__xss=2</script>',
    '[click](javascript:window.__xss=3)',
    '<svg onload="window.__xss=4">',
  ];
  for (const content of payloads) await attacker.post('/messages', { type: 'stream', to: channel.id, topic: '<b>topic</b>', content });
  await web.page.locator('.message-content', { hasText: '<svg onload' }).waitFor();
  const texts = await feedTexts(web.page);
  assert.deepEqual(texts.slice(-4).slice(0, 2), [payloads[0], payloads[1]]);
  assert.equal(await web.page.locator('.message-content img, .message-content script, .message-content svg').count(), 0);
  assert.equal(await web.page.locator('.message-content a[href^="javascript"]').count(), 0);
  // The topic is text too.
  assert.equal(await web.page.locator('.recipient-topic', { hasText: '<b>topic</b>' }).count(), 1);
  // Clicking what looks like a link runs nothing either.
  await web.page.locator('.message-content', { hasText: 'click' }).last().click();
  assert.equal(await web.page.evaluate(() => typeof (globalThis as { __xss?: unknown }).__xss), 'undefined');
  assert.deepEqual(web.problems, []);
});

test('an edit and a delete reach the other browser', { skip: NO_CHROMIUM }, async () => {
  const author = await person('Author');
  const watcher = await person('Watcher');
  const channel = await channelFor(author, watcher);
  const authorWeb = await open(author.credentials.email, `#narrow/channel/${channel.id}`);
  const watcherWeb = await open(watcher.credentials.email, `#narrow/channel/${channel.id}`);
  await sendToChannel(authorWeb.page, channel.name, 'drafts', 'first version');
  await sendToChannel(authorWeb.page, channel.name, 'drafts', 'a message to delete');
  await watcherWeb.page.locator('.message-content', { hasText: 'a message to delete' }).waitFor();

  const first = authorWeb.page.locator('.message-row:not(.local-echo)', { hasText: 'first version' });
  await first.hover();
  await first.getByRole('button', { name: 'Edit' }).click();
  // The editor holds the message's Markdown, fetched from the server.
  const editor = authorWeb.page.getByRole('textbox', { name: 'Message content' });
  await waitUntil(async () => (await editor.inputValue().catch(() => '')) === 'first version', 'the editor holds the message');
  await editor.fill('second *version*');
  await editor.press('Enter');
  await watcherWeb.page.locator('.message-content em', { hasText: 'version' }).waitFor();
  // Marked as Zulip marks it: beside the sender's name, the time of the edit in its tooltip.
  const editedNotice = watcherWeb.page.locator('.message-row', { hasText: 'second version' }).locator('.message-header .edit-notice');
  await editedNotice.waitFor();
  assert.equal(await editedNotice.innerText(), 'EDITED');
  assert.match((await editedNotice.getAttribute('title')) ?? '', /^Last edited /);

  const doomed = authorWeb.page.locator('.message-row:not(.local-echo)', { hasText: 'a message to delete' });
  await doomed.hover();
  await doomed.getByRole('button', { name: 'Delete' }).click();
  await doomed.getByRole('button', { name: 'Yes, delete' }).click();
  await watcherWeb.page.locator('.message-content', { hasText: 'a message to delete' }).waitFor({ state: 'detached' });
  assert.deepEqual(await feedTexts(watcherWeb.page), [...(await feedTexts(watcherWeb.page)).filter((t) => t !== 'a message to delete')]);
  assert.ok((await feedTexts(watcherWeb.page)).includes('second version'));

  // Moved messages are marked "moved", live: a message under its sender's name beside it, a
  // message that follows in the left column (where the time shows while the pointer is over
  // it). Resolving a topic renames it without marking anything.
  const noteIds: number[] = [];
  for (const content of ['note one', 'note two']) noteIds.push(((await author.post('/messages', { type: 'stream', to: channel.id, topic: 'notes', content })).body as { id: number }).id);
  const plan = ((await author.post('/messages', { type: 'stream', to: channel.id, topic: 'plans', content: 'a plan' })).body as { id: number }).id;
  await watcherWeb.page.locator('.message-content', { hasText: 'a plan' }).waitFor();
  await author.patch(`/messages/${noteIds[0]}`, { topic: 'notes moved', propagate_mode: 'change_all' });
  await author.patch(`/messages/${plan}`, { topic: '✔ plans', propagate_mode: 'change_all' });
  const noteRow = (text: string) => watcherWeb.page.locator('.message-row', { hasText: text });
  await noteRow('note one').locator('.message-header .edit-notice', { hasText: 'moved' }).waitFor();
  const gutterNotice = noteRow('note two').locator('.message-gutter .edit-notice');
  assert.equal(await gutterNotice.innerText(), 'MOVED');
  assert.match((await gutterNotice.getAttribute('title')) ?? '', /^Last moved /);
  await noteRow('note two').locator('.message-content').hover();
  assert.ok(await noteRow('note two').locator('.gutter-time').isVisible(), 'the time shows in its place under the pointer');
  assert.equal(await gutterNotice.isVisible(), false);
  // Pointed at, the notice comes back, and clicked it opens the edit history.
  await noteRow('note two').locator('.message-gutter').hover();
  await gutterNotice.click();
  const history = watcherWeb.page.getByRole('dialog', { name: 'Message edit history' });
  await history.getByText('notes moved').first().waitFor();
  await watcherWeb.page.keyboard.press('Escape');
  await history.waitFor({ state: 'detached' });
  await watcherWeb.page.locator('.recipient-bar', { hasText: '✔ plans' }).first().waitFor();
  assert.equal(await noteRow('a plan').locator('.edit-notice').count(), 0);
  // A page opened afterwards marks them alike, from the server's copies.
  const laterWeb = await open(watcher.credentials.email, `#narrow/channel/${channel.id}`);
  await laterWeb.page.locator('.message-row', { hasText: 'note two' }).locator('.message-gutter .edit-notice', { hasText: 'moved' }).waitFor();
  assert.equal(await laterWeb.page.locator('.message-row', { hasText: 'a plan' }).locator('.edit-notice').count(), 0);
  assert.deepEqual(watcherWeb.problems, []);
});

test('on a phone, the editor opened on a message at the bottom edge is brought wholly into view, its buttons too', { skip: NO_CHROMIUM }, async () => {
  const author = await person('Phone Author');
  const mover = await person('Phone Mover');
  const channel = await channelFor(author, mover);
  for (let i = 0; i < 12; i++) await author.post('/messages', { type: 'stream', to: channel.id, topic: 'long', content: `line ${i}\n\nwith a second paragraph` });
  for (const [who, form] of [[author, 'Edit message'], [mover, 'Move message']] as const) {
    const web = await open(who.credentials.email, `#narrow/channel/${channel.id}`);
    await web.page.setViewportSize({ width: 390, height: 844 });
    // A message whose row ends at the feed's bottom edge, with more messages below it.
    const row = web.page.locator('.message-row', { hasText: 'line 8' });
    await row.waitFor();
    await row.evaluate((element) => (element as unknown as { scrollIntoView(options: object): void }).scrollIntoView({ block: 'end' }));
    await row.click();
    // `e` edits one's own message, and moves (its topic only) someone else's.
    await web.page.keyboard.press('e');
    const editor = web.page.getByRole('form', { name: form });
    await editor.waitFor();
    for (const name of ['Save', 'Cancel']) {
      await waitUntil(() => isTappable(editor.getByRole('button', { name, exact: true })), `${form}: the ${name} button can be tapped`);
    }
    await web.context.close();
  }
});

test('search narrows by Zulip\'s syntax, and the narrow reloads from its URL', { skip: NO_CHROMIUM }, async () => {
  const searcher = await person('Searcher');
  const channel = await channelFor(searcher);
  await searcher.post('/messages', { type: 'stream', to: channel.id, topic: 'apples', content: 'green apples are sour' });
  await searcher.post('/messages', { type: 'stream', to: channel.id, topic: 'pears', content: 'pears are sweet' });
  await searcher.post('/messages', { type: 'stream', to: channel.id, topic: 'apples', content: 'red apples are sweet' });
  const web = await open(searcher.credentials.email, '#feed');
  await web.page.locator('.message-content', { hasText: 'red apples' }).waitFor();

  const search = web.page.getByRole('searchbox', { name: 'Search messages' });
  // A channel name with a space is quoted, as in Zulip's search box.
  await search.fill(`channel:"${channel.name}" topic:apples`);
  await search.press('Enter');
  const hash = `#narrow/channel/${channel.id}-${channel.name.replace(/ /g, '-')}/topic/apples`;
  await waitUntil(() => web.page.url().endsWith(hash), `the URL ends with ${hash}`);
  // The combined feed's messages stay on the screen until the topic's arrive (green apples among them).
  const topicTexts = ['green apples are sour', 'red apples are sweet'];
  await waitUntil(async () => JSON.stringify(await feedTexts(web.page)) === JSON.stringify(topicTexts), 'the topic is shown');
  assert.deepEqual(await feedTexts(web.page), topicTexts);

  await web.page.reload();
  await web.page.locator('.message-content', { hasText: 'green apples' }).waitFor();
  assert.deepEqual(await feedTexts(web.page), ['green apples are sour', 'red apples are sweet']);
  assert.equal(await search.inputValue(), `channel:"${channel.name}" topic:apples`);

  // Words search the text; the server's full-text search finds both sweet ones.
  await search.fill('sweet');
  await search.press('Enter');
  await waitUntil(() => web.page.url().endsWith('#narrow/search/sweet'), 'the URL is the search');
  await web.page.locator('.message-content', { hasText: 'pears are sweet' }).waitFor();
  assert.deepEqual((await feedTexts(web.page)).sort(), ['pears are sweet', 'red apples are sweet']);

  await web.page.goBack();
  await waitUntil(() => web.page.url().endsWith(hash), 'the URL is the topic again');
  await web.page.locator('.message-content', { hasText: 'green apples' }).waitFor();
  assert.deepEqual(web.problems, []);
});

test('an image is uploaded from the compose box and previewed in the message', { skip: NO_CHROMIUM }, async () => {
  const sender = await person('Photographer');
  const channel = await channelFor(sender);
  const web = await open(sender.credentials.email, `#narrow/channel/${channel.id}`);
  await web.page.getByRole('button', { name: /^New message/ }).click();
  await web.page.getByRole('combobox', { name: 'Channel' }).fill(channel.name);
  await web.page.getByRole('combobox', { name: 'Topic' }).fill('photos');
  // A 2x2 red PNG.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
  await web.page.locator('.compose input[type=file]').setInputFiles({ name: 'red dot.png', mimeType: 'image/png', buffer: png });
  const box = web.page.getByRole('textbox', { name: 'Message', exact: true });
  await waitUntil(async () => /^\[red dot\.png\]\(\/user_uploads\/\S+\)$/.test(await box.inputValue()), 'the upload is linked in the message');
  await box.press('Enter');
  const image = web.page.locator('.message-row:not(.local-echo) .message_inline_image img');
  await image.waitFor();
  await waitUntil(
    () => image.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0),
    'the preview has loaded',
  );
  assert.deepEqual(web.problems, []);
});

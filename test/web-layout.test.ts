import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { messageRow, waitUntil, webSuite, type WebUser } from './support/web';

/**
 * How the web client looks and who is there: presence in the people list, the system's dark
 * theme, and the layout at phone width. With SCREENSHOTS_DIR set, the pages are photographed
 * into that folder (docs/screenshots/ to refresh the README's pictures).
 */

const suite = webSuite();
const SCREENSHOTS = process.env.SCREENSHOTS_DIR ? path.resolve(process.env.SCREENSHOTS_DIR) : undefined;

/** Saves a screenshot as `name`.png when SCREENSHOTS_DIR asks for them. */
async function photograph(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** A person's page, with the system's colour scheme as given. */
async function open(email: string, hash: string, options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {}): Promise<WebUser> {
  const user = await suite.open(email, hash, { viewport: options.viewport });
  if (options.colorScheme) await user.page.emulateMedia({ colorScheme: options.colorScheme });
  return user;
}

function people(page: Page) {
  return page.getByRole('complementary', { name: 'People' });
}

/** The presence a person is shown with in the people list. */
function presenceOf(page: Page, name: string, presence: 'active' | 'idle' | 'offline') {
  return people(page).getByRole('listitem').filter({ hasText: name }).getByRole('img', { name: presence });
}

/** Whether the page scrolls sideways (it should not, at any width). */
function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return root.scrollWidth > root.clientWidth;
  });
}

/** The page's background colour, as the browser computed it. */
function backgroundOf(page: Page): Promise<string> {
  return page.locator('body').evaluate((element) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(element).backgroundColor);
}

/** Whether an rgb() colour is dark. */
function isDark(color: string): boolean {
  const [r, g, b] = (color.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return 0.299 * r + 0.587 * g + 0.114 * b < 100;
}

/** A channel with a little conversation: Markdown, a mention, a reaction. */
async function conversation() {
  const ada = await suite.server.createUser('Ada Lovelace');
  const grace = await suite.server.createUser('Grace Hopper');
  await suite.server.owner.patch('/realm', { name: 'Analytical Engines' });
  const channel = await createChannel(suite.server.owner, { principals: [ada.credentials.email, grace.credentials.email] }, 'design');
  await createChannel(suite.server.owner, { principals: [ada.credentials.email] }, 'general');
  await ada.post('/messages', { type: 'stream', to: channel.id, topic: 'launch plans', content: 'The **launch** is on Friday. Checklist:\n- docs\n- tests' });
  const question = await grace.post('/messages', { type: 'stream', to: channel.id, topic: 'launch plans', content: '@**Ada Lovelace** shall I run `npm test` once more?' });
  await ada.post(`/messages/${question.body.id}/reactions`, { emoji_name: 'thumbs_up' });
  await ada.post('/messages', { type: 'stream', to: channel.id, topic: 'launch plans', content: '```js\nconsole.log("ready");\n```' });
  return { ada, grace, channel };
}

test('the people list shows who is active, live', { skip: NO_CHROMIUM }, async () => {
  const watcher = await suite.server.createUser('Alan Turing');
  const arriving = await suite.server.createUser('Katherine Johnson');
  const web = await open(watcher.credentials.email, '#inbox');
  await presenceOf(web.page, 'Alan Turing (you)', 'active').waitFor();
  await presenceOf(web.page, 'Katherine Johnson', 'offline').waitFor();
  // The other person opens the app; their page reports them active, and the watcher sees it.
  await open(arriving.credentials.email, '#inbox');
  await presenceOf(web.page, 'Katherine Johnson', 'active').waitFor();
  // Active people come first.
  const order = await people(web.page).getByRole('listitem').allInnerTexts();
  assert.ok(order.indexOf('Katherine Johnson') < order.indexOf('Owner'), order.join(', '));
  assert.deepEqual(web.problems, []);
});

test('with the system in dark mode the app is dark, and at phone width it is one column', { skip: NO_CHROMIUM }, async () => {
  const { ada, channel } = await conversation();
  const hash = `#narrow/channel/${channel.id}/topic/launch.20plans`;

  const desktopDark = await open(ada.credentials.email, hash, { colorScheme: 'dark' });
  await messageRow(desktopDark.page, 'console.log').waitFor();
  // The system turned dark after the page loaded: the page follows at its next rendering step.
  await waitUntil(async () => (await desktopDark.page.locator('html').getAttribute('data-theme')) === 'dark', 'the page follows the dark system');
  assert.ok(isDark(await backgroundOf(desktopDark.page)), await backgroundOf(desktopDark.page));
  await photograph(desktopDark.page, 'desktop-dark');
  // The system turning light turns the page light.
  await desktopDark.page.emulateMedia({ colorScheme: 'light' });
  await waitUntil(async () => !isDark(await backgroundOf(desktopDark.page)), 'the page is light again');
  // The README's picture: replying, with a person suggested.
  await desktopDark.page.keyboard.press('r');
  await desktopDark.page.getByRole('textbox', { name: 'Message', exact: true }).pressSequentially('Yes please, @Gra');
  await desktopDark.page.getByRole('option', { name: /^Grace Hopper/ }).waitFor();
  await photograph(desktopDark.page, 'desktop');

  const phone = await open(ada.credentials.email, hash, { viewport: { width: 390, height: 844 }, colorScheme: 'light' });
  const page = phone.page;
  await messageRow(page, 'console.log').waitFor();
  assert.equal(await scrollsSideways(page), false);
  const sidebar = page.getByRole('navigation', { name: 'Views, channels and direct messages' });
  // One column: neither the channels nor the people take room beside the messages.
  assert.ok(!(await sidebar.isVisible()) || ((await sidebar.boundingBox())?.x ?? 0) + ((await sidebar.boundingBox())?.width ?? 0) <= 0);
  assert.equal(await people(page).isVisible(), false);
  await photograph(page, 'phone');

  // The channels slide in from the menu button, and a channel chosen closes them.
  await page.getByRole('button', { name: 'Show channels' }).click();
  await waitUntil(async () => ((await sidebar.boundingBox())?.x ?? -1) >= 0, 'the channels are in view');
  await photograph(page, 'phone-sidebar');
  await sidebar.getByRole('link', { name: channel.name }).click();
  await waitUntil(async () => ((await sidebar.boundingBox())?.x ?? 0) < 0, 'the channels slid away');

  // The people, with their presence, from their own button.
  await page.getByRole('button', { name: 'Show people' }).click();
  await presenceOf(page, 'Ada Lovelace (you)', 'active').waitFor();
  await photograph(page, 'phone-people');
  await page.keyboard.press('Escape');
  await people(page).waitFor({ state: 'hidden' });

  // Writing works at this width: the compose box fits.
  await page.getByRole('button', { name: /^New message/ }).click();
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await box.waitFor();
  const composeBox = await page.getByRole('form', { name: 'Compose' }).boundingBox();
  assert.ok(composeBox && composeBox.x >= 0 && composeBox.x + composeBox.width <= 390, JSON.stringify(composeBox));
  assert.equal(await scrollsSideways(page), false);

  await page.emulateMedia({ colorScheme: 'dark' });
  await waitUntil(async () => isDark(await backgroundOf(page)), 'the phone page is dark');
  await page.keyboard.press('Escape');
  await photograph(page, 'phone-dark');
  assert.deepEqual([...desktopDark.problems, ...phone.problems], []);
});

test("the README's tour: Recent conversations, search suggestions, a poll, the emoji picker and the shortcuts", { skip: NO_CHROMIUM }, async () => {
  const { ada, grace, channel } = await conversation();
  await grace.post('/messages', { type: 'stream', to: channel.id, topic: 'lunch', content: '/poll Where shall we eat?\nThe canteen\nThe park' });
  await grace.post('/messages', { type: 'private', to: [ada.userId], content: 'Are the slides ready?' });
  const { page, problems } = await open(ada.credentials.email, '#recent', { colorScheme: 'light' });

  const conversations = page.getByRole('list', { name: 'Conversations' });
  await conversations.getByRole('link', { name: /^lunch/ }).waitFor();
  await conversations.getByRole('link', { name: /^launch plans/ }).waitFor();
  await photograph(page, 'recent');

  const search = page.getByRole('searchbox', { name: 'Search messages' });
  await search.click();
  await search.pressSequentially('sender:gra');
  // Another test of this file made a Grace Hopper too: both are offered.
  await page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('option', { name: 'Sent by Grace Hopper' }).first().waitFor();
  await photograph(page, 'search');
  await search.press('Escape');

  await page.goto(`${suite.server.url}/#narrow/channel/${channel.id}/topic/lunch`);
  const poll = page.getByRole('group', { name: 'Poll: Where shall we eat?' });
  await poll.getByRole('button', { name: 'The park: 0 votes' }).click();
  await poll.getByRole('button', { name: 'The park: 1 vote' }).waitFor();
  await page.getByRole('button', { name: /^New message/ }).click();
  await page.getByRole('button', { name: 'Add emoji' }).click();
  await page.getByRole('dialog', { name: 'Choose an emoji' }).getByRole('toolbar', { name: 'Emoji categories' }).waitFor();
  await photograph(page, 'poll-and-emoji');
  await page.keyboard.press('Escape');

  await page.getByRole('textbox', { name: 'Message', exact: true }).press('Escape');
  await page.locator('body').press('?');
  await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByText('Quote and reply').waitFor();
  // Direct messages from the system bots (Welcome Bot, Notification Bot) carry their names.
  assert.deepEqual(await page.getByText('Unknown user').allInnerTexts(), []);
  await photograph(page, 'shortcuts');
  assert.deepEqual(problems, []);
});

test('at phone width the channel browser puts a channel\'s buttons under its name and description', { skip: NO_CHROMIUM }, async () => {
  const reader = await suite.server.createUser('Channel Reader');
  const description = 'Where the whole team plans the season ahead';
  const { name } = await createChannel(reader, {}, `Planning ${Date.now()}`);
  await reader.patch(`/streams/${(await reader.get('/get_stream_id', { stream: name })).body.stream_id}`, { description });
  const { page, problems } = await open(reader.credentials.email, '#channels', { viewport: { width: 390, height: 844 } });
  const row = page.getByRole('region', { name: 'Channels' }).locator('li', { hasText: name });
  await row.getByText(description).waitFor();
  const [info, actions, whole] = await Promise.all([row.locator('> div').first().boundingBox(), row.locator('.channel-actions').boundingBox(), row.boundingBox()]);
  assert.ok(info && actions && whole);
  assert.ok(actions.y >= info.y + info.height - 1, 'the buttons are under the name and description');
  assert.ok(info.width >= whole.width * 0.9, `the description has the row's width (${info.width} of ${whole.width})`);
  assert.equal(await scrollsSideways(page), false);
  await photograph(page, 'phone-channels');
  assert.deepEqual(problems, []);
});

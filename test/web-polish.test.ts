import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { isFocused, messageRow, waitUntil, webSuite } from './support/web';

/**
 * The web client's finish: one modal dialog (close button, Escape, backdrop, focus kept inside
 * and given back), one list of saved messages for drafts and scheduled messages, recipient bars
 * of one line on a phone, and controls drawn with SVG icons rather than emoji glyphs (which a
 * system without an emoji font shows as empty boxes).
 */

const suite = webSuite();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** A channel of its own with a reader and a writer, and one message in each topic given. */
async function channelWithTopics(topics: string[]) {
  const reader = await suite.server.createUser(uniqueName('Viola'));
  const writer = await suite.server.createUser(uniqueName('Orsino'));
  const name = uniqueName('Illyria');
  const { id } = await createChannel(suite.server.owner, { principals: [reader.credentials.email, writer.credentials.email] }, name);
  for (const topic of topics) await writer.post('/messages', { type: 'stream', to: id, topic, content: `About ${topic}` });
  return { reader, writer, channel: { id, name } };
}

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
  height: number;
}

function boxOf(locator: Locator): Promise<Box> {
  return locator.evaluate((element) => {
    const { top, bottom, left, right, height } = (element as unknown as { getBoundingClientRect(): Box }).getBoundingClientRect();
    return { top, bottom, left, right, height };
  });
}

/** Whether the focus is inside the element. */
function focusInside(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const doc = (globalThis as unknown as { document: { activeElement: unknown } }).document;
    return (element as unknown as { contains(node: unknown): boolean }).contains(doc.activeElement);
  });
}

/**
 * What every dialog does: the close button is there, Tab and Shift+Tab go round inside it, and
 * Escape, the close button and a click on the backdrop each close it and give the focus back to
 * the control `open` names (the one that had the focus when it opened).
 */
async function checkDialog(page: Page, name: string, open: () => Promise<Locator>) {
  const dialog = page.getByRole('dialog', { name });
  for (const how of ['Escape', 'close button', 'backdrop']) {
    const opener = await open();
    await dialog.waitFor();
    const close = dialog.getByRole('button', { name: 'Close', exact: true });
    await close.waitFor();
    assert.equal(await close.locator('svg').count(), 1, `${name}: the close button is an icon`);
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press(i % 2 ? 'Shift+Tab' : 'Tab');
      await page.keyboard.press('Tab');
      assert.ok(await focusInside(dialog), `${name}: the focus stays in the dialog`);
    }
    if (how === 'Escape') await page.keyboard.press('Escape');
    else if (how === 'close button') await close.click();
    else await page.mouse.click(5, 5);
    await dialog.waitFor({ state: 'detached' });
    await waitUntil(() => isFocused(opener), `${name}: closed by ${how}, the focus is back where it was`);
  }
}

test('every dialog has a close button, keeps the focus inside, closes by Escape or the backdrop and gives the focus back', { skip: NO_CHROMIUM }, async () => {
  const { reader, channel } = await channelWithTopics(['sources']);
  const { page, problems } = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}`);
  const row = messageRow(page, 'About sources');
  await row.waitFor();

  // The keyboard shortcuts (?), opened from wherever the focus was.
  const views = page.getByRole('button', { name: 'Views menu' });
  await checkDialog(page, 'Keyboard shortcuts', async () => {
    await views.focus();
    await page.keyboard.press('?');
    return views;
  });

  // A confirmation: its Cancel has the focus when it opens; a click beside it says no.
  await checkDialog(page, 'Mark all messages as read?', async () => {
    await views.click();
    await page.getByRole('menuitem', { name: 'Mark all messages as read' }).click();
    await waitUntil(() => isFocused(page.getByRole('dialog', { name: 'Mark all messages as read?' }).getByRole('button', { name: 'Cancel' })), 'Cancel has the focus');
    return views;
  });

  // A message's source, from its menu: the focus returns to the menu's button.
  const more = row.getByRole('button', { name: 'More message actions' });
  await checkDialog(page, 'Message source', async () => {
    await row.click();
    await more.click();
    await page.getByRole('menuitem', { name: 'View message source' }).click();
    return more;
  });
  assert.deepEqual(problems, []);
});

test('Drafts and Scheduled messages list their messages alike: recipient, time, the text rendered, actions', { skip: NO_CHROMIUM }, async () => {
  const { reader, channel } = await channelWithTopics(['plans']);
  await reader.post('/drafts', { drafts: JSON.stringify([{ type: 'stream', to: [channel.id], topic: 'plans', content: 'We **must** go\n\n- east\n- west', timestamp: Math.floor(Date.now() / 1000) }]) });
  const sent = await reader.post('/scheduled_messages', { type: 'stream', to: channel.id, topic: 'plans', content: 'Leave **at dawn**', scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 86_400 });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const { page, problems } = await suite.open(reader.credentials.email, '#drafts', { viewport: PHONE });

  for (const [hash, title, bold] of [['#drafts', 'Drafts', 'must'], ['#scheduled', 'Scheduled messages', 'at dawn']]) {
    await page.evaluate((to) => ((globalThis as unknown as { location: { hash: string } }).location.hash = to), hash);
    const region = page.getByRole('region', { name: title });
    const item = region.getByRole('listitem').filter({ hasText: `#${channel.name} › plans` });
    // The Markdown is shown as a message is: bold, and a list drawn as a list, not as rows.
    await item.locator('strong', { hasText: bold }).waitFor();
    assert.equal(await item.locator('.saved-recipient').count(), 1);
    assert.match(await item.locator('.saved-time').innerText(), /\d/);
    const itemBox = await boxOf(item);
    assert.ok(itemBox.right <= PHONE.width, `${title}: nothing sticks out on a phone`);
    const buttons = item.getByRole('button');
    assert.ok((await buttons.count()) >= 2);
    for (const button of await buttons.all()) assert.ok((await boxOf(button)).right <= PHONE.width, `${title}: every button is in sight`);
  }
  const drafted = page.getByRole('region', { name: 'Scheduled messages' });
  await drafted.waitFor();
  await page.evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#drafts'));
  const nested = page.getByRole('region', { name: 'Drafts' }).locator('.message-content li');
  await nested.first().waitFor();
  assert.equal(await nested.count(), 2, 'the draft\'s list items are the rendered list');
  assert.equal(await nested.first().evaluate((li) => (globalThis as unknown as { getComputedStyle(e: unknown): { borderBottomStyle: string } }).getComputedStyle(li).borderBottomStyle), 'none', 'a list in a draft is not drawn as rows of the list of drafts');
  assert.deepEqual(problems, []);
});

test('on a phone a recipient bar is one line: the topic gives way with an ellipsis, the date stays; on a desktop the topic is whole', { skip: NO_CHROMIUM }, async () => {
  const long = 'the balcony repairs and what the carpenters said';
  const short = 'dinner';
  const { reader, channel } = await channelWithTopics([long, short]);
  for (const viewport of [PHONE, DESKTOP]) {
    const { page, problems } = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}`, { viewport });
    const bar = (topic: string) => page.locator('.recipient-bar', { has: page.locator('.recipient-topic', { hasText: topic }) });
    await bar(short).waitFor();
    const [longBar, shortBar] = [await boxOf(bar(long)), await boxOf(bar(short))];
    assert.equal(longBar.height, shortBar.height, `${viewport.width}px: a long topic does not make its bar taller`);
    const date = await boxOf(bar(long).locator('.recipient-date'));
    assert.ok(date.right <= longBar.right + 0.5 && date.left >= longBar.left && date.top >= longBar.top - 0.5, `${viewport.width}px: the date is in the bar`);
    const topic = bar(long).locator('.recipient-topic');
    const cut = await topic.evaluate((element) => {
      const e = element as unknown as { scrollWidth: number; clientWidth: number };
      const style = (globalThis as unknown as { getComputedStyle(e: unknown): { textOverflow: string; whiteSpace: string } }).getComputedStyle(element);
      return { truncated: e.scrollWidth > e.clientWidth, textOverflow: style.textOverflow, whiteSpace: style.whiteSpace };
    });
    assert.equal(cut.whiteSpace, 'nowrap');
    assert.equal(cut.textOverflow, 'ellipsis');
    assert.equal(cut.truncated, viewport === PHONE, `${viewport.width}px: the long topic is ${viewport === PHONE ? '' : 'not '}cut short`);
    // Its name is whole for assistive technology and in the link.
    assert.equal(await topic.innerText(), long);
    if (viewport === DESKTOP) {
      // The message actions sit on the sender's line, above the text.
      const row = messageRow(page, `About ${long}`);
      await row.hover();
      const actions = await boxOf(row.getByRole('toolbar', { name: 'Message actions' }));
      const text = await boxOf(row.locator('.message-content'));
      assert.ok(actions.bottom <= text.top + 0.5, `the actions (bottom ${actions.bottom}) do not cover the text (top ${text.top})`);
    }
    assert.deepEqual(problems, []);
  }
});

/** Emoji glyphs that a system without an emoji font cannot draw. */
const EMOJI = /\p{Extended_Pictographic}/u;

test('the top bar\'s buttons and other controls are SVG icons with names, never emoji glyphs', { skip: NO_CHROMIUM }, async () => {
  const topics = Array.from({ length: 12 }, (_, i) => `icons ${i + 1}`);
  const { reader, channel } = await channelWithTopics(topics);
  const { page, problems } = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}`, { viewport: PHONE });
  const row = messageRow(page, 'About icons 12');
  await row.waitFor();
  for (const name of ['Show people', 'Show channels']) {
    const button = page.getByRole('button', { name, exact: true });
    assert.ok(await button.isVisible(), `${name} is there on a phone`);
    assert.equal(await button.locator('svg').count(), 1, `${name} is drawn as an SVG icon`);
    assert.equal((await button.innerText()).trim(), '', `${name} has no glyph in it`);
    const box = await boxOf(button);
    assert.ok(box.height >= 24 && box.right <= PHONE.width, `${name} is big enough to touch and in sight`);
  }
  // The search box has the room the top bar has.
  const search = await boxOf(page.locator('input[aria-label="Search messages"]'));
  assert.ok(search.right - search.left >= 200, `the search box is ${search.right - search.left} px wide on a phone`);

  // The people column opens from it.
  await page.getByRole('button', { name: 'Show people', exact: true }).click();
  await page.getByRole('button', { name: 'Show people', exact: true, expanded: true }).click();

  // The emoji picker's categories are icons too; opened from the last message, the list scrolls
  // so that the whole picker is in sight.
  await row.click();
  await row.getByRole('button', { name: 'Add reaction' }).click();
  const categories = page.getByRole('toolbar', { name: 'Emoji categories' }).getByRole('button');
  await categories.first().waitFor();
  for (const category of await categories.all()) {
    assert.equal(await category.locator('svg').count(), 1);
    assert.doesNotMatch(await category.innerText(), EMOJI);
  }
  const picker = await boxOf(page.getByRole('dialog', { name: 'Choose an emoji' }));
  const list = await boxOf(page.locator('.message-scroller'));
  assert.ok(picker.top >= list.top - 0.5 && picker.bottom <= list.bottom + 0.5, `the picker (${picker.top}-${picker.bottom}) is inside the list (${list.top}-${list.bottom})`);
  await page.keyboard.press('Escape');

  // No control outside messages, reactions and the emoji grid is labelled by an emoji glyph.
  const labels = await page.locator('button, a, [role="menuitem"]').evaluateAll((controls) =>
    controls
      .filter((c) => !(c as unknown as { closest(s: string): unknown }).closest('.message-content, .reactions, .emoji-grid, .message-reactions'))
      .map((c) => (c as unknown as { textContent: string }).textContent ?? ''),
  );
  assert.ok(labels.length > 10);
  assert.deepEqual(labels.filter((label) => EMOJI.test(label)), []);
  assert.deepEqual(problems, []);
});

test('a private channel is marked by a lock icon in the sidebar, its count in line with the views\' counts', { skip: NO_CHROMIUM }, async () => {
  const reader = await suite.server.createUser(uniqueName('Sebastian'));
  const name = uniqueName('cellar');
  await createChannel(suite.server.owner, { principals: [reader.credentials.email], invite_only: true }, name);
  const { page, problems } = await suite.open(reader.credentials.email, '#inbox');
  const link = page.getByRole('navigation', { name: 'Views, channels and direct messages' }).getByRole('link', { name });
  await link.waitFor();
  assert.equal(await link.locator('.channel-swatch svg').count(), 1);
  assert.doesNotMatch(await link.innerText(), EMOJI);

  // Its unread count stands in one column with the Inbox's.
  await suite.server.owner.post('/messages', { type: 'stream', to: name, topic: 'wine', content: 'A toast' });
  const sidebar = page.getByRole('navigation', { name: 'Views, channels and direct messages' });
  const inboxCount = sidebar.getByRole('link', { name: /^Inbox/ }).locator('.unread-count');
  const channelCount = link.locator('.unread-count');
  await channelCount.waitFor();
  await inboxCount.waitFor();
  assert.equal(Math.round((await boxOf(inboxCount)).right), Math.round((await boxOf(channelCount)).right));
  assert.deepEqual(problems, []);
});

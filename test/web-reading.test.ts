import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM, newContext } from './support/chromium';
import { png } from './support/fixtures';
import { isFocused, messageRow, waitUntil, webSuite, type PageGlobals } from './support/web';

/**
 * Reading in the web client: a page that never scrolls as a whole, dates as Zulip shows them,
 * message links that reach their message, addresses kept through login, links inside messages
 * that stay in the page, long messages condensed, images in a viewer, and polls and to-do lists.
 */

// The development login is on, so its one-click login can be tried as well.
const suite = webSuite({ dev: true, config: { gravatar: false } });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** An element (or text) that moved. */
interface ShiftedNode {
  closest?(selector: string): unknown;
  parentElement?: ShiftedNode;
}

/** The browser's globals these tests read, beyond those of PageGlobals. */
interface Window {
  document: { documentElement: { scrollHeight: number; scrollTop: number; clientHeight: number }; scrollingElement: { scrollTop: number } };
  innerHeight: number;
  scrollY: number;
  location: { hash: string; href: string };
  navigator: { clipboard: { readText(): Promise<string> } };
  PerformanceObserver: new (callback: (list: { getEntries(): Array<{ value: number; sources: Array<{ node?: ShiftedNode }> }> }) => void) => { observe(options: { type: string; buffered: boolean }): void };
  layoutShifts: number;
}
type InPage = Window & PageGlobals;

/** A channel of its own with two people in it, and `count` messages in one topic. */
async function channelWithMessages(count: number, topic = 'Castle') {
  const reader = await suite.server.createUser(uniqueName('Othello'));
  const writer = await suite.server.createUser(uniqueName('Iago'));
  const name = uniqueName('Verona');
  const { id } = await createChannel(suite.server.owner, { principals: [reader.credentials.email, writer.credentials.email] }, name);
  const ids: number[] = [];
  for (let i = 1; i <= count; i++) {
    const sent = await writer.post('/messages', { type: 'stream', to: id, topic, content: `Line ${i} of the tale` });
    ids.push(sent.body.id);
  }
  return { reader, writer, channel: { id, name }, ids };
}

/** Whether the document (not a pane) scrolls: its height against the window's, and how far it moved. */
async function documentScroll(page: Page): Promise<{ scrollHeight: number; innerHeight: number; scrollY: number }> {
  return page.evaluate(() => {
    const w = globalThis as unknown as Window;
    return { scrollHeight: w.document.documentElement.scrollHeight, innerHeight: w.innerHeight, scrollY: w.scrollY };
  });
}

/** The selected message's ID, once one is selected. */
async function selectedMessage(page: Page): Promise<number> {
  const row = page.locator('.message-row.selected');
  await row.waitFor();
  return Number(await row.getAttribute('data-message-id'));
}

/** Whether the element is inside the message list's visible area. */
function inView(page: Page, messageId: number): Promise<boolean> {
  return page.locator(`[data-message-id="${messageId}"]`).evaluate((row) => {
    const element = row as unknown as { getBoundingClientRect(): { top: number; bottom: number }; closest(s: string): { getBoundingClientRect(): { top: number; bottom: number } } };
    const box = element.getBoundingClientRect();
    const pane = element.closest('.message-scroller').getBoundingClientRect();
    return box.top >= pane.top - 1 && box.bottom <= pane.bottom + 1;
  });
}

for (const viewport of [DESKTOP, PHONE]) {
  test(`at ${viewport.width}x${viewport.height} the document never scrolls, only its panes, and opening a channel shifts nothing`, { skip: NO_CHROMIUM }, async () => {
    const { reader, channel } = await channelWithMessages(40);
    const other = await createChannel(suite.server.owner, { principals: [reader.credentials.email] }, uniqueName('Mantua'));
    await suite.server.owner.post('/messages', { type: 'stream', to: other.id, topic: 'news', content: 'Nothing new in Mantua.' });
    const web = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}`, { viewport });
    const page = web.page;
    await messageRow(page, 'Line 40 of the tale').waitFor();

    const wheelOver = async (selector: string) => {
      const box = await page.locator(selector).boundingBox();
      assert.ok(box, `${selector} is on the page`);
      await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 20));
      await page.mouse.wheel(0, 3000);
      await page.waitForTimeout(150);
    };
    await wheelOver('.top-bar');
    if (viewport === DESKTOP) await wheelOver('.right-sidebar');
    await wheelOver('.message-scroller');
    let scroll = await documentScroll(page);
    assert.equal(scroll.scrollY, 0, 'the document did not scroll');
    assert.equal(scroll.scrollHeight, scroll.innerHeight, 'the document is exactly the window');
    assert.ok(await page.locator('.top-bar').isVisible());

    // Opening another channel (by its address, so no input excuses a shift) moves nothing.
    await page.evaluate(() => {
      const w = globalThis as unknown as Window;
      w.layoutShifts = 0;
      new w.PerformanceObserver((list) => {
        // The centre and the top bar: the sidebar unfolds the open channel's topics, by design.
        for (const entry of list.getEntries()) {
          const inCentre = entry.sources.some(({ node }) => (node?.closest ? node : node?.parentElement)?.closest?.('.middle, .top-bar'));
          if (inCentre) w.layoutShifts += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: false });
    });
    await page.evaluate((hash) => {
      (globalThis as unknown as Window).location.hash = hash;
    }, `#narrow/channel/${other.id}`);
    await messageRow(page, 'Nothing new in Mantua.').waitFor();
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => (globalThis as unknown as Window).layoutShifts), 0, 'no layout shift');
    scroll = await documentScroll(page);
    assert.equal(scroll.scrollHeight, scroll.innerHeight);
    assert.deepEqual(web.problems, []);
  });
}

test('scrolled up with the wheel, a round arrow goes to the newest message; it fades when scrolling stops, at the bottom, and at a key', { skip: NO_CHROMIUM }, async () => {
  const { reader, channel, ids } = await channelWithMessages(150);
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}/topic/Castle/near/${ids[0]}`);
  const page = web.page;
  await messageRow(page, 'Line 1 of the tale').waitFor();
  const button = page.getByRole('button', { name: 'Scroll to bottom' });
  const scroller = page.locator('.message-scroller');
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const wheel = async (dy: number) => {
    await page.mouse.wheel(0, dy);
    await page.waitForTimeout(150);
  };

  // Not shown for the view's own opening scroll by the keyboard; shown once the reader scrolls.
  await page.keyboard.press('j');
  await page.waitForTimeout(200);
  assert.equal(await button.isVisible(), false, 'no arrow before anyone scrolls');
  await wheel(200);
  await button.waitFor({ state: 'visible' });
  // Inside the feed, at its bottom right, over the messages.
  const arrow = (await button.boundingBox())!;
  assert.ok(arrow.x + arrow.width <= box.x + box.width && arrow.x > box.x + box.width / 2, 'at the right');
  assert.ok(arrow.y + arrow.height <= box.y + box.height && arrow.y > box.y + box.height / 2, 'at the bottom');
  // It fades a few seconds after the scrolling stops.
  await waitUntil(async () => !(await button.isVisible()), 'the arrow fades', 6000);
  // A key hides it at once.
  await wheel(200);
  await button.waitFor({ state: 'visible' });
  await page.keyboard.press('k');
  await waitUntil(async () => !(await button.isVisible()), 'a key hides the arrow (fading in half a second)', 1500);

  // Pressed, it goes to the newest message, selected (fetched first: the view opened at the oldest holds only older ones).
  await wheel(200);
  assert.equal(await page.locator(`[data-message-id="${ids.at(-1)}"]`).count(), 0, 'the newest message is not fetched yet');
  await button.click();
  await waitUntil(async () => (await page.locator('.message-row.selected').getAttribute('data-message-id').catch(() => null)) === String(ids.at(-1)), 'the newest message is selected');
  await waitUntil(() => inView(page, ids.at(-1)!), 'the newest message is in view');
  // (It fades out in half a second.)
  await waitUntil(async () => !(await button.isVisible()), 'the arrow is gone at the bottom', 1500);
  // At the bottom, the wheel further down shows nothing.
  await wheel(300);
  await page.waitForTimeout(100);
  assert.equal(await button.isVisible(), false);
  assert.deepEqual(web.problems, []);
});

test('days show as Zulip shows them, and times follow twenty_four_hour_time, live', { skip: NO_CHROMIUM }, async () => {
  const { reader, writer, channel, ids } = await channelWithMessages(4, 'diary');
  // Moved back in time: a year and more ago, three days ago, yesterday; the last stays today.
  const now = Math.floor(Date.now() / 1000);
  const day = 86_400;
  const dated = [now - 400 * day, now - 3 * day, now - day];
  dated.forEach((when, i) => suite.server.stoa.db.prepare('UPDATE messages SET date_sent = ? WHERE id = ?').run(when, ids[i]));
  await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'other', content: 'Another topic, today' });
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}`);
  const page = web.page;
  await messageRow(page, 'Another topic, today').waitFor();

  // What the browser calls those days, in its own language.
  const expected = await page.evaluate((times) => {
    const weekday = new Intl.DateTimeFormat(undefined, { weekday: 'long' }).format(times[1] * 1000);
    const old = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' }).format(times[0] * 1000);
    return { weekday, old };
  }, dated);
  // The first conversation's bar names its first day; each further day has a separator; the
  // second topic's bar says Today.
  const barDate = (topic: string) => page.locator('.recipient-bar', { hasText: topic }).locator('.recipient-date').innerText();
  assert.equal(await barDate('diary'), expected.old);
  assert.equal(await barDate('other'), 'Today');
  assert.deepEqual(await page.locator('.date-separator').allInnerTexts(), [expected.weekday, 'Yesterday', 'Today']);
  assert.match((await page.locator('.recipient-bar', { hasText: 'diary' }).locator('.recipient-date').getAttribute('title')) ?? '', /\d{4}/);

  const shownTime = () => messageRow(page, 'Another topic, today').locator('.message-header time').innerText();
  assert.match(await shownTime(), /^\d{1,2}:\d{2}\s?(AM|PM)$/i, 'a 12-hour clock by default');
  await reader.patch('/settings', { twenty_four_hour_time: true });
  await waitUntil(async () => /^\d{2}:\d{2}$/.test(await shownTime()), 'the time is on a 24-hour clock');
  await reader.patch('/settings', { twenty_four_hour_time: false });
  await waitUntil(async () => /(AM|PM)$/i.test(await shownTime()), 'the time is on a 12-hour clock again');
  assert.deepEqual(web.problems, []);
});

test('near/ID and with/ID open the conversation at that message, selected; Copy link to message gives its address', { skip: NO_CHROMIUM }, async () => {
  const { reader, writer, channel, ids } = await channelWithMessages(60);
  const target = ids[9];
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}/topic/Castle/near/${target}`);
  const page = web.page;
  assert.equal(await selectedMessage(page), target);
  assert.ok(await inView(page, target), 'the message is scrolled into view');
  // The newer messages fetched at the window's edge come in below without moving the reader.
  await waitUntil(async () => (await page.locator('.message-row[data-message-id]').count()) === ids.length, 'the rest of the topic is fetched');
  await page.waitForTimeout(300);
  assert.ok(await inView(page, target), 'the message is still in view');
  assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), `#${channel.name} › Castle`);

  // The combined feed at a message.
  await page.evaluate((hash) => {
    (globalThis as unknown as InPage).location.hash = hash;
  }, `#narrow/near/${ids[3]}`);
  await waitUntil(async () => (await selectedMessage(page)) === ids[3], 'the combined feed selects the message');
  assert.ok(await inView(page, ids[3]));

  // A message moved to another topic: `with` follows it there.
  await writer.patch(`/messages/${ids[20]}`, { topic: 'Balcony', propagate_mode: 'change_one' });
  await page.evaluate((hash) => {
    (globalThis as unknown as InPage).location.hash = hash;
  }, `#narrow/channel/${channel.id}/topic/Castle/with/${ids[20]}`);
  await waitUntil(async () => (await page.getByRole('heading', { level: 1 }).innerText()).endsWith('› Balcony'), 'the view follows the moved message');
  // The heading changes at once; the previous view's messages are held until the new ones come.
  await waitUntil(async () => (await selectedMessage(page)) === ids[20], 'the moved message is selected');
  assert.match(await page.evaluate(() => (globalThis as unknown as InPage).location.hash), /\/topic\/Balcony\/with\/\d+$/);

  // Copy link to message, then follow the link in another browser.
  await web.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const row = messageRow(page, 'Line 21 of the tale');
  await row.click();
  await row.getByRole('button', { name: 'Copy link to message' }).click();
  const link = await page.evaluate(() => (globalThis as unknown as InPage).navigator.clipboard.readText());
  assert.equal(link, `${suite.server.url}/#narrow/channel/${channel.id}-${channel.name.replace(/ /g, '-')}/topic/Balcony/near/${ids[20]}`);
  const writerWeb = await suite.open(writer.credentials.email, '#inbox');
  await writerWeb.page.goto(link);
  assert.equal(await selectedMessage(writerWeb.page), ids[20]);
  assert.deepEqual(web.problems, []);
  assert.deepEqual(writerWeb.problems, []);
});

test('a link opened while logged out keeps its destination through the login, the development one too', { skip: NO_CHROMIUM }, async () => {
  const { reader, channel, ids } = await channelWithMessages(30);
  const destination = `#narrow/channel/${channel.id}/topic/Castle/near/${ids[4]}`;
  for (const how of ['password', 'development'] as const) {
    const context = await newContext(suite.browser);
    const page = await context.newPage();
    await page.goto(`${suite.server.url}/${destination}`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    if (how === 'password') {
      await page.getByLabel('Email').fill(reader.credentials.email);
      await page.getByLabel('Password').fill('secret-password');
      await page.getByRole('button', { name: 'Log in' }).click();
    } else {
      // The development login's buttons read name, role, then the email.
      await page.getByRole('button', { name: new RegExp(`${reader.credentials.email.replace(/[.+]/g, '\\$&')}$`) }).click();
    }
    assert.equal(await selectedMessage(page), ids[4], how);
    assert.equal(new URL(page.url()).hash, destination);
    await context.close();
  }
});

test('links inside messages into this organization stay in the page; others open a new tab safely', { skip: NO_CHROMIUM }, async () => {
  const { reader, writer, channel, ids } = await channelWithMessages(3);
  const other = await createChannel(suite.server.owner, { principals: [reader.credentials.email, writer.credentials.email] }, uniqueName('Mantua'));
  await writer.post('/messages', { type: 'stream', to: other.id, topic: 'exile', content: 'Banished to Mantua.' });
  await writer.post('/messages', {
    type: 'stream',
    to: channel.id,
    topic: 'links',
    content: `Go to #**${other.name}**, or #**${other.name}>exile**, or [the second line](${suite.server.url}/#narrow/near/${ids[1]}), or [elsewhere](https://example.com/page).`,
  });
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}/topic/links`);
  const page = web.page;
  const row = messageRow(page, 'Go to');
  await row.waitFor();
  // The page is never reloaded: a mark left on it survives each link.
  await page.evaluate(() => {
    ((globalThis as unknown as InPage) as unknown as { stayed: boolean }).stayed = true;
  });
  const stayed = () => page.evaluate(() => ((globalThis as unknown as InPage) as unknown as { stayed?: boolean }).stayed === true);

  const external = row.getByRole('link', { name: 'elsewhere' });
  assert.equal(await external.getAttribute('target'), '_blank');
  assert.match((await external.getAttribute('rel')) ?? '', /noopener/);

  await row.getByRole('link', { name: `#${other.name}`, exact: true }).click();
  await messageRow(page, 'Banished to Mantua.').waitFor();
  assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), `#${other.name}`);
  await page.goBack();
  await row.getByRole('link', { name: `#${other.name} > exile` }).click();
  await waitUntil(async () => (await page.getByRole('heading', { level: 1 }).innerText()) === `#${other.name} › exile`, 'the topic opens');
  await page.goBack();
  await row.getByRole('link', { name: 'the second line' }).click();
  await waitUntil(async () => (await selectedMessage(page)) === ids[1], 'the linked message is selected');
  assert.ok(await stayed(), 'no reload');
  assert.equal(web.context.pages().length, 1, 'no new tab');
  assert.deepEqual(web.problems, []);
});

test('a poll: both people vote, add options and see it live; only its author edits the question', { skip: NO_CHROMIUM }, async () => {
  const { reader: ada, writer: grace, channel } = await channelWithMessages(1, 'lunch');
  const sent = await grace.post('/messages', { type: 'stream', to: channel.id, topic: 'lunch', content: '/poll Where do we eat?\nPizza\nSushi' });
  const adaWeb = await suite.open(ada.credentials.email, `#narrow/channel/${channel.id}/topic/lunch`);
  const graceWeb = await suite.open(grace.credentials.email, `#narrow/channel/${channel.id}/topic/lunch`);
  const pollOf = (page: Page) => page.getByRole('group', { name: /^Poll: / });
  const adaPoll = pollOf(adaWeb.page);
  const gracePoll = pollOf(graceWeb.page);
  await adaPoll.getByRole('heading', { name: 'Where do we eat?' }).waitFor();
  assert.equal(await adaPoll.locator('.poll-option-text').count(), 2);
  // The message's own text is not shown under the poll.
  assert.equal(await adaWeb.page.getByText('/poll Where do we eat?').count(), 0);

  await adaPoll.getByRole('button', { name: 'Pizza: 0 votes' }).click();
  await gracePoll.getByRole('button', { name: 'Pizza: 1 vote' }).waitFor();
  // Each option names who voted for it.
  assert.equal(await gracePoll.locator('li', { hasText: 'Pizza' }).locator('.poll-voters').innerText(), (await ada.get('/users/me')).body.full_name);
  assert.equal(await adaPoll.getByRole('button', { name: 'Pizza: 1 vote' }).getAttribute('aria-pressed'), 'true');

  // Grace adds an option and votes for it; Ada sees both.
  await gracePoll.getByRole('textbox', { name: 'New option' }).fill('Tacos');
  await gracePoll.getByRole('button', { name: 'Add option' }).click();
  await adaPoll.getByRole('button', { name: 'Tacos: 0 votes' }).waitFor();
  await gracePoll.getByRole('button', { name: 'Tacos: 0 votes' }).click();
  await adaPoll.getByRole('button', { name: 'Tacos: 1 vote' }).waitFor();
  // Ada takes her vote back.
  await adaPoll.getByRole('button', { name: 'Pizza: 1 vote' }).click();
  await gracePoll.getByRole('button', { name: 'Pizza: 0 votes' }).waitFor();

  // Only the author may edit the question.
  assert.equal(await adaPoll.getByRole('button', { name: 'Edit question' }).count(), 0);
  await gracePoll.getByRole('button', { name: 'Edit question' }).click();
  await gracePoll.getByRole('textbox', { name: 'Edit question' }).fill('Where do we eat on Friday?');
  await gracePoll.getByRole('button', { name: 'Save' }).click();
  await adaPoll.getByRole('heading', { name: 'Where do we eat on Friday?' }).waitFor();

  // What the server keeps is what both see after a reload.
  await adaWeb.page.reload();
  await pollOf(adaWeb.page).getByRole('button', { name: 'Tacos: 1 vote' }).waitFor();
  const stored = (await ada.get(`/messages/${sent.body.id}`)).body.message.submessages as Array<{ content: string }>;
  assert.equal(stored.length, 6, 'the widget, an option, three votes and the question');
  assert.deepEqual(adaWeb.problems, []);
  assert.deepEqual(graceWeb.problems, []);
});

test('a to-do list: tasks checked and added live for both; only its author edits the title', { skip: NO_CHROMIUM }, async () => {
  const { reader: ada, writer: grace, channel } = await channelWithMessages(1, 'chores');
  await grace.post('/messages', { type: 'stream', to: channel.id, topic: 'chores', content: '/todo Before the trip\nPack: the blue bag\nWater the plants' });
  const adaWeb = await suite.open(ada.credentials.email, `#narrow/channel/${channel.id}/topic/chores`, { viewport: PHONE });
  const graceWeb = await suite.open(grace.credentials.email, `#narrow/channel/${channel.id}/topic/chores`);
  const listOf = (page: Page) => page.getByRole('group', { name: /^To-do list: / });
  const adaList = listOf(adaWeb.page);
  const graceList = listOf(graceWeb.page);
  await adaList.getByRole('heading', { name: 'Before the trip' }).waitFor();
  assert.deepEqual(await adaList.locator('li').allInnerTexts(), ['Pack: the blue bag', 'Water the plants']);

  await adaList.getByRole('checkbox', { name: 'Pack: the blue bag' }).check();
  await waitUntil(() => graceList.getByRole('checkbox', { name: 'Pack: the blue bag' }).isChecked(), 'the task is done for Grace too');
  await graceList.getByRole('textbox', { name: 'New task' }).fill('Lock the door');
  await graceList.getByRole('textbox', { name: 'Description' }).fill('twice');
  await graceList.getByRole('button', { name: 'Add task' }).click();
  await adaList.getByRole('checkbox', { name: 'Lock the door: twice' }).waitFor();
  await adaList.getByRole('checkbox', { name: 'Lock the door: twice' }).check();
  await waitUntil(() => graceList.getByRole('checkbox', { name: 'Lock the door: twice' }).isChecked(), 'the new task is done for Grace');
  // Unchecking is a strike too.
  await graceList.getByRole('checkbox', { name: 'Pack: the blue bag' }).uncheck();
  await waitUntil(async () => !(await adaList.getByRole('checkbox', { name: 'Pack: the blue bag' }).isChecked()), 'the task is open again for Ada');

  assert.equal(await adaList.getByRole('button', { name: 'Edit title' }).count(), 0);
  await graceList.getByRole('button', { name: 'Edit title' }).click();
  await graceList.getByRole('textbox', { name: 'Edit title' }).fill('Before the long trip');
  await graceList.getByRole('textbox', { name: 'Edit title' }).press('Enter');
  await adaList.getByRole('heading', { name: 'Before the long trip' }).waitFor();
  assert.deepEqual(adaWeb.problems, []);
  assert.deepEqual(graceWeb.problems, []);
});

test('a long message is condensed with Show more, and Show less condenses it again', { skip: NO_CHROMIUM }, async () => {
  const { reader, writer, channel } = await channelWithMessages(1, 'essay');
  const lines = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} of a very long essay.`).join('\n\n');
  await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'essay', content: lines });
  await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'essay', content: 'A short one.' });
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}/topic/essay`);
  const page = web.page;
  const long = messageRow(page, 'Paragraph 1 of');
  const height = () => long.locator('.message-content').evaluate((el) => (el as unknown as { clientHeight: number }).clientHeight);
  const more = long.getByRole('button', { name: 'Show more' });
  await more.waitFor();
  assert.ok((await height()) < 250, 'condensed to its first lines');
  assert.equal(await messageRow(page, 'A short one.').getByRole('button', { name: /^Show (more|less)$/ }).count(), 0, 'a short message is not condensed');
  await more.click();
  const less = long.getByRole('button', { name: 'Show less' });
  await less.waitFor();
  assert.equal(await less.getAttribute('aria-expanded'), 'true');
  assert.ok((await height()) > 800, 'the whole message shows');
  await less.click();
  await more.waitFor();
  assert.ok((await height()) < 250);
  assert.deepEqual(web.problems, []);
});

test('images open in an in-page viewer: click or v, previous and next, Escape gives the focus back', { skip: NO_CHROMIUM }, async () => {
  const { reader, writer, channel } = await channelWithMessages(1, 'pictures');
  const links: string[] = [];
  for (const [name, color] of [
    ['red.png', { r: 220, g: 30, b: 30 }],
    ['green.png', { r: 30, g: 200, b: 30 }],
    ['blue.png', { r: 30, g: 30, b: 220 }],
  ] as const) {
    const uploaded = await writer.upload('/user_uploads', [{ name, bytes: await png(color, 200), type: 'image/png' }]);
    links.push(`[${name}](${uploaded.body.url})`);
  }
  await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'pictures', content: `Two pictures: ${links[0]} ${links[1]}` });
  await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'pictures', content: `And one more: ${links[2]}` });
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}/topic/pictures`);
  const page = web.page;
  const first = messageRow(page, 'Two pictures').locator('.message_inline_image a').first();
  await first.waitFor();
  await first.click();
  const viewer = page.getByRole('dialog', { name: /^Image viewer: / });
  await viewer.waitFor();
  assert.equal(await viewer.getAttribute('aria-label'), 'Image viewer: red.png');
  assert.equal(web.context.pages().length, 1, 'no new tab');
  await waitUntil(() => isFocused(viewer.getByRole('button', { name: 'Close image viewer' })), 'the viewer takes the focus');
  assert.equal(await viewer.getByRole('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), 200, 'the original is shown');
  await page.keyboard.press('ArrowRight');
  await waitUntil(async () => (await viewer.getAttribute('aria-label')) === 'Image viewer: green.png', 'next image');
  await viewer.getByRole('button', { name: 'Next image' }).click();
  await waitUntil(async () => (await viewer.getAttribute('aria-label')) === 'Image viewer: blue.png', 'the next message’s image');
  assert.ok(await viewer.getByRole('button', { name: 'Next image' }).isDisabled());
  await page.keyboard.press('ArrowLeft');
  await waitUntil(async () => (await viewer.getAttribute('aria-label')) === 'Image viewer: green.png', 'previous image');
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  await waitUntil(() => isFocused(first), 'the focus is back on the image');

  // `v` on the selected message opens its first image.
  await messageRow(page, 'And one more').click();
  await page.keyboard.press('v');
  await viewer.waitFor();
  assert.equal(await viewer.getAttribute('aria-label'), 'Image viewer: blue.png');
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  assert.deepEqual(web.problems, []);
});

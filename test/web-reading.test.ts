import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM, newContext } from './support/chromium';
import { messageRow, waitUntil, webSuite, type PageGlobals } from './support/web';

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
const win = () => globalThis as unknown as Window & PageGlobals;

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

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { isFocused, waitUntil, webSuite } from './support/web';

/**
 * A recipient bar's topic buttons are made when the pointer or the focus comes to the bar (a
 * feed of many conversations opens with far fewer elements to make); a button showing the
 * topic's state is always there.
 */

const suite = webSuite();

test('a recipient bar shows its topic buttons to the pointer and the keyboard, and always the topic\'s state', { skip: NO_CHROMIUM }, async () => {
  const reader = await suite.server.createUser('Bar Reader');
  const name = uniqueName('bars');
  const { id } = await createChannel(suite.server.owner, { principals: [reader.credentials.email] }, name);
  for (const topic of ['plain', 'kept', '✔ done']) {
    assert.equal((await reader.post('/messages', { type: 'stream', to: id, topic, content: `about ${topic}` })).status, 200);
  }
  assert.equal((await reader.post('/user_topics', { stream_id: id, topic: 'kept', visibility_policy: 3 })).status, 200);
  const { page, problems } = await suite.open(reader.credentials.email, `#narrow/channel/${id}`);
  const bar = (topic: string) => page.locator('.recipient-bar', { has: page.locator('.recipient-topic', { hasText: new RegExp(`^${topic}$`) }) });
  await bar('✔ done').waitFor();
  await page.mouse.move(0, 0);

  // Nothing to show on a plain topic until wanted; a followed or resolved topic says so.
  assert.equal(await bar('plain').getByRole('button').count(), 0);
  assert.deepEqual(await bar('kept').getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label'))), ['Unfollow topic']);
  assert.deepEqual(await bar('✔ done').getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label'))), ['Mark as unresolved']);

  // The pointer over a bar brings its buttons.
  await bar('kept').hover();
  assert.deepEqual(await bar('kept').getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label'))), ['Mark as resolved', 'Unfollow topic', 'Mute topic']);

  // So does the keyboard: Tab from the topic's link reaches the first of them.
  await bar('plain').locator('.recipient-topic').focus();
  await page.keyboard.press('Tab');
  const resolve = bar('plain').getByRole('button', { name: 'Mark as resolved' });
  await resolve.waitFor();
  assert.ok(await isFocused(resolve), 'Tab reaches the bar\'s first button');
  assert.deepEqual(problems, []);
});

test('a conversation\'s bar stays at the top of the feed while its messages scroll under it, and a row the keys select is not left under it', { skip: NO_CHROMIUM }, async () => {
  const reader = await suite.server.createUser('Sticky Reader');
  const { id } = await createChannel(suite.server.owner, { principals: [reader.credentials.email] }, uniqueName('sticky'));
  for (let i = 0; i < 30; i++) assert.equal((await reader.post('/messages', { type: 'stream', to: id, topic: 'long one', content: `Line number ${i} of a long conversation` })).status, 200);
  assert.equal((await reader.post('/messages', { type: 'stream', to: id, topic: 'next one', content: 'The next conversation' })).status, 200);
  const { page, problems } = await suite.open(reader.credentials.email, `#narrow/channel/${id}`);
  const scroller = page.locator('.message-scroller');
  const bar = (topic: string) => page.locator('.recipient-bar', { has: page.locator('.recipient-topic', { hasText: new RegExp(`^${topic}$`) }) });
  await page.getByText('The next conversation').waitFor();

  // Scrolled into the middle of the long conversation: its bar is at the feed's top edge.
  const row = page.locator('.message-row', { hasText: 'Line number 20 of' });
  await row.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  const edge = (await scroller.boundingBox())!.y;
  await waitUntil(async () => Math.abs((await bar('long one').boundingBox())!.y - edge) < 1.5, 'the long conversation\'s bar is at the top edge');
  const first = await page.locator('.message-row', { hasText: 'Line number 0 of' }).boundingBox();
  assert.ok(first!.y < edge, 'the conversation\'s first message has scrolled above the top');

  // At the end of the feed the next conversation's bar is in its own place, below the long one's.
  await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  await waitUntil(() => scroller.evaluate((element) => element.scrollTop + element.clientHeight >= element.scrollHeight - 2), 'the feed is at its end');
  const longBar = await bar('long one').boundingBox();
  const nextBar = await bar('next one').boundingBox();
  assert.ok(longBar!.y + longBar!.height <= nextBar!.y + 1, 'the two bars do not overlap');

  // Going up with the arrow key from the newest message, the selected row stays in sight below the bar.
  await page.locator('.message-row', { hasText: 'The next conversation' }).click();
  for (let i = 0; i < 26; i++) await page.keyboard.press('ArrowUp');
  const selected = page.locator('.message-row.selected');
  await selected.waitFor();
  await page.waitForTimeout(300);
  const selectedBox = (await selected.boundingBox())!;
  const stuck = (await bar('long one').boundingBox())!;
  assert.ok(selectedBox.y >= stuck.y + stuck.height - 1, `the selected row (at ${selectedBox.y}) is below the bar (ending at ${stuck.y + stuck.height})`);
  assert.deepEqual(problems, []);
});

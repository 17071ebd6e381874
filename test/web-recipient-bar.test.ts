import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { isFocused, webSuite } from './support/web';

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

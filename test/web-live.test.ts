import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { launchChromium, NO_CHROMIUM } from './support/chromium';
import { TestServer } from './support/server';
import { feedTexts, logInThroughPage, waitUntil } from './support/web';

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

test('a page whose event queue is lost registers again and misses no message', { skip: NO_CHROMIUM }, async () => {
  const reader = await server.createUser('Reader');
  const writer = await server.createUser('Writer');
  const name = uniqueName('live');
  await createChannel(server.owner, { principals: [reader.credentials.email, writer.credentials.email] }, name);
  const channelId = (await server.owner.get('/get_stream_id', { stream: name })).body.stream_id as number;
  const web = await logInThroughPage(browser, server.url, reader.credentials.email, 'secret-password', { hash: `#narrow/channel/${channelId}` });
  try {
    await writer.post('/messages', { type: 'stream', to: channelId, topic: 'live', content: 'before the loss' });
    await web.page.locator('.message-content', { hasText: 'before the loss' }).waitFor();

    // The server forgets the page's queue (as after a restart or a long sleep), and a message
    // is sent before the page can notice.
    const queues = [...server.stoa.queues.queuesOf(reader.userId)];
    assert.equal(queues.length, 1);
    for (const queue of queues) server.stoa.queues.delete(queue);
    await writer.post('/messages', { type: 'stream', to: channelId, topic: 'live', content: 'sent while the queue was gone' });
    await web.page.locator('.message-content', { hasText: 'sent while the queue was gone' }).waitFor();

    // The new queue delivers what comes next.
    await waitUntil(() => [...server.stoa.queues.queuesOf(reader.userId)].length === 1, 'the page registered again');
    await writer.post('/messages', { type: 'stream', to: channelId, topic: 'live', content: 'after the new queue' });
    await web.page.locator('.message-content', { hasText: 'after the new queue' }).waitFor();
    assert.deepEqual((await feedTexts(web.page)).slice(-3), ['before the loss', 'sent while the queue was gone', 'after the new queue']);
    assert.deepEqual(
      web.problems.filter((p) => !/BAD_EVENT_QUEUE_ID|400 GET \/json\/events/.test(p)),
      [],
    );
  } finally {
    await web.context.close();
  }
});

test('typing in one browser shows "is typing" in the other', { skip: NO_CHROMIUM }, async () => {
  const typist = await server.createUser('Typist');
  const watcher = await server.createUser('Watcher');
  const typistWeb = await logInThroughPage(browser, server.url, typist.credentials.email, 'secret-password', { hash: `#narrow/dm/${watcher.userId}` });
  const watcherWeb = await logInThroughPage(browser, server.url, watcher.credentials.email, 'secret-password', { hash: `#narrow/dm/${typist.userId}` });
  try {
    await typistWeb.page.keyboard.press('x');
    const box = typistWeb.page.getByRole('textbox', { name: 'Message', exact: true });
    await box.waitFor();
    await box.type('hello the');
    await watcherWeb.page.getByText('Typist is typing…').waitFor();
    await box.press('Enter');
    await watcherWeb.page.locator('.message-content', { hasText: 'hello the' }).waitFor();
    await watcherWeb.page.getByText('Typist is typing…').waitFor({ state: 'detached' });
  } finally {
    await typistWeb.context.close();
    await watcherWeb.context.close();
  }
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { feedTexts, isFocused, messageRow, waitUntil, webSuite, type PageGlobals } from './support/web';

/** Writing in the web client: suggestions as one types, preview, files dropped and pasted, the keyboard. */

const suite = webSuite();

function messageBox(page: Page) {
  return page.getByRole('textbox', { name: 'Message', exact: true });
}

/**
 * Types into the message box as a person does, key by key, then waits for `option` to be
 * offered and takes it: with Enter when it is the first, else with the mouse.
 */
async function typeAndTake(page: Page, text: string, option: string | RegExp, how: 'Enter' | 'click' = 'Enter'): Promise<void> {
  await messageBox(page).pressSequentially(text);
  const offered = page.getByRole('listbox').getByRole('option', { name: option });
  await offered.waitFor();
  if (how === 'click') await offered.click();
  else await messageBox(page).press('Enter');
}

test('the compose box suggests channels, topics, people, groups and emoji, and previews the message', { skip: NO_CHROMIUM }, async () => {
  const writer = await suite.server.createUser('Ada Writer');
  const gardener = await suite.server.createUser('Beatrice Gardener');
  const channel = await createChannel(suite.server.owner, { principals: [writer.credentials.email, gardener.credentials.email] }, uniqueName('kitchen garden'));
  await gardener.post('/messages', { type: 'stream', to: channel.id, topic: 'tomatoes', content: 'They are ripe.' });
  const group = await suite.server.owner.post('/user_groups/create', { name: 'gardeners', description: 'Those who garden', members: [gardener.userId] });
  assert.equal(group.status, 200, JSON.stringify(group.body));
  const web = await suite.open(writer.credentials.email, '#inbox');
  const page = web.page;

  await page.getByRole('button', { name: /^New message/ }).click();
  const channelBox = page.getByRole('combobox', { name: 'Channel' });
  await channelBox.fill('kitchen');
  await page.getByRole('option', { name: channel.name }).waitFor();
  await channelBox.press('Enter');
  assert.equal(await channelBox.inputValue(), channel.name);

  const topicBox = page.getByRole('combobox', { name: 'Topic' });
  await topicBox.fill('tom');
  await page.getByRole('option', { name: 'tomatoes' }).click();
  assert.equal(await topicBox.inputValue(), 'tomatoes');

  const box = messageBox(page);
  await box.click();
  await typeAndTake(page, 'Thanks @Bea', /^Beatrice Gardener/);
  await typeAndTake(page, 'and @garden', 'gardeners (group)', 'click');
  await typeAndTake(page, 'see #kitch', `#${channel.name}`);
  // After a channel, ">" asks for one of its topics.
  await typeAndTake(page, '>tom', `#${channel.name} › tomatoes`);
  await typeAndTake(page, ':tad', /:tada:$/);
  const written = `Thanks @**Beatrice Gardener** and @*gardeners* see #**${channel.name}>tomatoes** :tada: `;
  assert.equal(await box.inputValue(), written);

  // The preview is the server's rendering, drawn as messages are.
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await preview.locator('.user-mention', { hasText: 'Beatrice Gardener' }).waitFor();
  const previewText = await preview.innerText();
  for (const part of ['@Beatrice Gardener', '@gardeners', `#${channel.name} > tomatoes`, '🎉']) assert.ok(previewText.includes(part), `${part} in ${previewText}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  await box.press('Enter');

  // Sent from the Inbox, the message's topic opens to show it.
  await messageRow(page, 'Thanks').waitFor();
  assert.ok(page.url().endsWith('/topic/tomatoes'), page.url());
  const sent = await writer.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'channel', operand: channel.id }], apply_markdown: false });
  assert.equal(sent.body.messages[0].content, written.trimEnd());
  assert.equal(sent.body.messages[0].subject, 'tomatoes');

  // Direct messages: people are suggested as their names are typed, and become pills.
  await page.getByRole('combobox', { name: 'Message type' }).selectOption('Direct');
  const recipients = page.getByRole('combobox', { name: 'Direct message recipients' });
  await recipients.pressSequentially('beat');
  await page.getByRole('option', { name: /^Beatrice Gardener/ }).waitFor();
  await recipients.press('Enter');
  await page.getByRole('button', { name: 'Remove Beatrice Gardener' }).waitFor();
  await box.fill('Just between us');
  await box.press('Enter');
  await messageRow(page, 'Just between us').waitFor();
  assert.ok(page.url().endsWith(`#narrow/dm/${gardener.userId}-Beatrice-Gardener`), page.url());
  assert.deepEqual(web.problems, []);
});

test('a mention is suggested past spaces in a name, and numbered names come in number order', { skip: NO_CHROMIUM }, async () => {
  const writer = await suite.server.createUser('Spaced Writer');
  const prefix = uniqueName('Mention Target');
  for (const n of [10, 2]) await suite.server.createUser(`${prefix} ${n}`);
  const web = await suite.open(writer.credentials.email, '#inbox');
  const { page } = web;
  await page.getByRole('button', { name: /^New message/ }).click();
  await messageBox(page).click();
  await messageBox(page).pressSequentially(`@${prefix} `);
  const options = page.getByRole('listbox').getByRole('option');
  await waitUntil(async () => (await options.count()) === 2, 'both people suggested after the space');
  assert.deepEqual((await options.allTextContents()).map((t) => t.split(' (')[0]), [`${prefix} 2`, `${prefix} 10`]);
  await messageBox(page).pressSequentially('1');
  await waitUntil(async () => (await options.count()) === 1, 'one person left');
  await messageBox(page).press('Enter');
  assert.equal(await messageBox(page).inputValue(), `@**${prefix} 10** `);
  assert.deepEqual(web.problems, []);
});

test('Tab goes from the topic to the message, not to the close button', { skip: NO_CHROMIUM }, async () => {
  const writer = await suite.server.createUser('Tab Writer');
  const name = uniqueName('tabs');
  const { id } = await createChannel(suite.server.owner, { principals: [writer.credentials.email] }, name);
  const web = await suite.open(writer.credentials.email, `#narrow/channel/${id}`);
  const { page } = web;
  await page.getByRole('button', { name: `New message to #${name}` }).waitFor();
  await page.keyboard.press('c');
  const topic = page.getByRole('combobox', { name: 'Topic' });
  await waitUntil(() => isFocused(topic), 'the topic has the focus in a channel view');
  await page.keyboard.press('Tab');
  await waitUntil(() => isFocused(messageBox(page)), 'Tab reaches the message');
  await page.keyboard.type('ready');
  assert.equal(await messageBox(page).inputValue(), 'ready');
  assert.deepEqual(web.problems, []);
});

test('files dropped on the compose box or pasted into it are uploaded and linked', { skip: NO_CHROMIUM }, async () => {
  const sender = await suite.server.createUser('Dropper');
  const channel = await createChannel(suite.server.owner, { principals: [sender.credentials.email] }, uniqueName('files'));
  const web = await suite.open(sender.credentials.email, `#narrow/channel/${channel.id}`);
  const page = web.page;
  await page.getByRole('button', { name: /^New message/ }).click();
  await page.getByRole('combobox', { name: 'Channel' }).fill(channel.name);
  await page.getByRole('combobox', { name: 'Topic' }).fill('files');

  // A file dragged from the desktop and dropped on the compose box.
  const dropped = await page.evaluateHandle(() => {
    const transfer = new (globalThis as unknown as PageGlobals).DataTransfer();
    transfer.items.add(new File(['the notes of Tuesday'], 'notes.txt', { type: 'text/plain' }));
    return transfer;
  });
  const composeForm = page.getByRole('form', { name: 'Compose' });
  await composeForm.dispatchEvent('dragover', { dataTransfer: dropped });
  await composeForm.dispatchEvent('drop', { dataTransfer: dropped });
  const box = messageBox(page);
  await waitUntil(async () => /^\[notes\.txt\]\(\/user_uploads\/\S+\)$/.test(await box.inputValue()), 'the dropped file is linked');

  // A picture pasted from the clipboard (a 2x2 red PNG).
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';
  await box.evaluate((textarea, base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const page = globalThis as unknown as PageGlobals;
    const transfer = new page.DataTransfer();
    transfer.items.add(new File([bytes], 'screenshot.png', { type: 'image/png' }));
    textarea.dispatchEvent(new page.ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, png);
  await waitUntil(async () => /\[screenshot\.png\]\(\/user_uploads\/\S+\)$/.test(await box.inputValue()), 'the pasted picture is linked');
  await box.press('Enter');

  const row = messageRow(page, 'notes.txt');
  await row.locator('.message_inline_image img').waitFor();
  const href = await row.getByRole('link', { name: 'notes.txt' }).getAttribute('href');
  assert.ok(href);
  assert.equal(await page.evaluate(async (url: string) => (await fetch(url)).text(), href), 'the notes of Tuesday');
  assert.deepEqual(web.problems, []);
});

test('Zulip\'s keyboard shortcuts select, reply, compose, search and go to the next unread topic', { skip: NO_CHROMIUM }, async () => {
  const reader = await suite.server.createUser('Keyboard Reader');
  const writer = await suite.server.createUser('Keyboard Writer');
  const channel = await createChannel(suite.server.owner, { principals: [reader.credentials.email, writer.credentials.email] }, uniqueName('keys'));
  for (const word of ['first', 'second', 'third']) await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'one', content: `${word} note` });
  await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'two', content: 'waiting in topic two' });
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}/topic/one`);
  const page = web.page;
  await messageRow(page, 'third note').waitFor();
  const selected = async () => (await page.locator('.message-row.selected .message-content').innerText()).trim();

  // The view opens on the first unread message; j, k and the arrows move the selection.
  await waitUntil(async () => (await selected()) === 'first note', 'the first unread message is selected');
  await page.keyboard.press('j');
  assert.equal(await selected(), 'second note');
  await page.keyboard.press('ArrowDown');
  assert.equal(await selected(), 'third note');
  await page.keyboard.press('k');
  assert.equal(await selected(), 'second note');
  await page.keyboard.press('ArrowUp');
  assert.equal(await selected(), 'first note');

  // r replies in the selected message's topic; Enter sends; Esc closes the empty box.
  const box = messageBox(page);
  await page.keyboard.press('r');
  await waitUntil(() => isFocused(box), 'the message box has the focus');
  assert.equal(await page.getByRole('combobox', { name: 'Topic' }).inputValue(), 'one');
  await page.keyboard.type('answered with r');
  await page.keyboard.press('Enter');
  await messageRow(page, 'answered with r').waitFor();
  await page.keyboard.press('Escape');
  await box.waitFor({ state: 'detached' });

  // Enter on a selected message replies too.
  await page.keyboard.press('k');
  await page.keyboard.press('Enter');
  await waitUntil(() => isFocused(box).catch(() => false), 'Enter opened the reply');
  await page.keyboard.press('Escape');
  await box.waitFor({ state: 'detached' });

  // c writes to the open topic, x a direct message.
  await page.keyboard.press('c');
  await box.waitFor();
  assert.equal(await page.getByRole('combobox', { name: 'Channel' }).inputValue(), channel.name);
  assert.equal(await page.getByRole('combobox', { name: 'Topic' }).inputValue(), 'one');
  await page.keyboard.press('Escape');
  await box.waitFor({ state: 'detached' });
  await page.keyboard.press('x');
  await page.getByRole('combobox', { name: 'Direct message recipients' }).waitFor();
  await page.keyboard.press('Escape');
  await box.waitFor({ state: 'detached' });

  // / goes to the search box; Esc leaves it.
  const search = page.getByRole('searchbox', { name: 'Search messages' });
  await page.keyboard.press('/');
  await waitUntil(() => isFocused(search), 'the search box has the focus');
  await page.keyboard.press('Escape');
  assert.ok(!(await isFocused(search)));

  // n opens the next topic with unread messages: the notice of the channel's creation, then topic two.
  await page.keyboard.press('n');
  await waitUntil(() => page.url().endsWith('/topic/channel.20events'), 'the channel events topic is open');
  await messageRow(page, 'channel created by').waitFor();
  await page.keyboard.press('n');
  await waitUntil(() => page.url().endsWith(`#narrow/channel/${channel.id}-${channel.name.replace(/ /g, '-')}/topic/two`), 'topic two is open');
  await messageRow(page, 'waiting in topic two').waitFor();
  assert.deepEqual(await feedTexts(page), ['waiting in topic two']);
  assert.deepEqual(web.problems, []);
});

test('the "New message" button says where the message will go: the topic, the channel or the people on the screen', { skip: NO_CHROMIUM }, async () => {
  const writer = await suite.server.createUser('Target Writer');
  const friend = await suite.server.createUser('Target Friend');
  const name = uniqueName('target');
  const { id } = await createChannel(suite.server.owner, { principals: [writer.credentials.email] }, name);
  const web = await suite.open(writer.credentials.email, `#narrow/channel/${id}/topic/plans`);
  const { page } = web;
  const button = page.getByRole('button', { name: /^New message/ });
  // What the button shows, without its key hint.
  const shown = async (locator = button) => (await locator.innerText()).replace(/\s+/g, ' ').replace(/ c$/, '').trim();
  await waitUntil(async () => (await shown()) === `New message to #${name} › plans`, 'the topic is named');
  await page.evaluate(`location.hash = '#narrow/channel/${id}'`);
  await waitUntil(async () => (await shown()) === `New message to #${name}`, 'the channel is named');
  await page.evaluate(`location.hash = '#narrow/dm/${friend.userId}'`);
  await waitUntil(async () => (await shown()) === 'New message to Target Friend', 'the person is named');
  await page.evaluate(`location.hash = '#feed'`);
  await waitUntil(async () => (await shown()) === 'New message', 'nowhere yet');

  // On a phone only the destination shows; the button's name still says what it does.
  const phone = await suite.open(writer.credentials.email, `#narrow/channel/${id}/topic/plans`, { viewport: { width: 390, height: 844 } });
  const phoneButton = phone.page.getByRole('button', { name: `New message to #${name} › plans` });
  await phoneButton.waitFor();
  const lead = (await phoneButton.getByText('New message to').boundingBox())!;
  assert.ok(lead.width <= 1 && lead.height <= 1, `"New message to" is not shown: ${JSON.stringify(lead)}`);
  assert.equal(await phoneButton.getByText(`#${name} › plans`).isVisible(), true);
  const box = (await phoneButton.boundingBox())!;
  assert.ok(box.x + box.width <= 390, JSON.stringify(box));
  assert.deepEqual([...web.problems, ...phone.problems], []);
});

test('r or Enter in an empty topic or conversation writes to it, as there is no message to reply to', { skip: NO_CHROMIUM }, async () => {
  const writer = await suite.server.createUser('Empty Writer');
  const friend = await suite.server.createUser('Empty Friend');
  const name = uniqueName('quiet');
  const { id } = await createChannel(suite.server.owner, { principals: [writer.credentials.email] }, name);
  const web = await suite.open(writer.credentials.email, `#narrow/channel/${id}/topic/first%20steps`);
  const { page } = web;
  await page.getByText('No messages here yet.').waitFor();
  await page.keyboard.press('r');
  await waitUntil(() => isFocused(messageBox(page)), 'the message box has the focus');
  assert.equal(await page.getByRole('combobox', { name: 'Channel' }).inputValue(), name);
  assert.equal(await page.getByRole('combobox', { name: 'Topic' }).inputValue(), 'first steps');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');

  await page.evaluate(`location.hash = '#narrow/dm/${friend.userId}'`);
  await page.getByText('No messages here yet.').waitFor();
  await page.keyboard.press('Enter');
  await waitUntil(() => isFocused(messageBox(page)), 'the message box has the focus for the conversation');
  await page.getByRole('button', { name: 'Remove Empty Friend' }).waitFor();
  assert.deepEqual(web.problems, []);
});

test('opening the compose box keeps the newest messages in sight', { skip: NO_CHROMIUM }, async () => {
  const writer = await suite.server.createUser('Bottom Writer');
  const name = uniqueName('long talk');
  const { id } = await createChannel(suite.server.owner, { principals: [writer.credentials.email] }, name);
  for (let i = 1; i <= 30; i++) await writer.post('/messages', { type: 'stream', to: id, topic: 'plans', content: `Plan number ${i}.` });
  // Sent through the API they are unread, as in Zulip; read, the view opens at the newest.
  await writer.post('/mark_all_as_read');
  for (const viewport of [undefined, { width: 390, height: 844 }]) {
    const { page, problems } = await suite.open(writer.credentials.email, `#narrow/channel/${id}/topic/plans`, { viewport });
    const newest = messageRow(page, 'Plan number 30.');
    await newest.waitFor();
    const scroller = page.locator('.message-scroller');
    const inSight = async () => {
      const [row, box] = [(await newest.boundingBox())!, (await scroller.boundingBox())!];
      return row.y + row.height <= box.y + box.height + 1;
    };
    await waitUntil(inSight, 'the newest message is in sight');
    await page.getByRole('button', { name: /^New message/ }).click();
    await messageBox(page).waitFor();
    await waitUntil(inSight, `the newest message is still in sight above the compose box (${viewport ? 'phone' : 'desktop'})`);
    assert.deepEqual(problems, []);
  }
});

test('text left in a closed compose box becomes a draft, which is restored, sent and gone', { skip: NO_CHROMIUM }, async () => {
  const writer = await suite.server.createUser('Draft Writer');
  const name = uniqueName('drafts');
  const { id } = await createChannel(suite.server.owner, { principals: [writer.credentials.email] }, name);
  const web = await suite.open(writer.credentials.email, `#narrow/channel/${id}`);
  const page = web.page;
  await page.getByRole('button', { name: /^New message/ }).click();
  await page.getByRole('combobox', { name: 'Channel' }).fill(name);
  await page.getByRole('combobox', { name: 'Topic' }).fill('plans');
  await messageBox(page).fill('half a thought\nand a second line');
  await page.getByRole('button', { name: 'Close the compose box' }).click();

  // Kept on the server, and counted in the sidebar.
  const stored = async () => (await writer.get('/drafts')).body.drafts as Array<{ id: number; type: string; to: number[]; topic: string; content: string }>;
  await waitUntil(async () => (await stored()).length === 1, 'the draft is stored');
  const [draft] = await stored();
  assert.deepEqual([draft.type, draft.to, draft.topic, draft.content], ['stream', [id], 'plans', 'half a thought\nand a second line']);
  const sidebar = page.getByRole('navigation', { name: 'Views, channels and direct messages' });
  await sidebar.getByRole('link', { name: 'Drafts 1 draft' }).click();
  const list = page.getByRole('region', { name: 'Drafts' });
  await list.getByText('half a thought').waitFor();

  // Restored: the compose box holds it again, in its conversation; changed and closed, the
  // same draft is updated; sent, it is gone.
  await list.getByRole('button', { name: `Restore the draft to #${name} › plans` }).click();
  await waitUntil(async () => (await messageBox(page).inputValue()) === 'half a thought\nand a second line', 'the draft is in the compose box');
  assert.equal(await page.getByRole('combobox', { name: 'Topic' }).inputValue(), 'plans');
  await messageBox(page).fill('a whole thought');
  await page.getByRole('button', { name: 'Close the compose box' }).click();
  await waitUntil(async () => (await stored())[0]?.content === 'a whole thought', 'the draft is updated');
  assert.equal((await stored()).length, 1);
  assert.equal((await stored())[0].id, draft.id);

  await sidebar.getByRole('link', { name: /^Drafts/ }).click();
  await list.getByRole('button', { name: /^Restore the draft/ }).click();
  await waitUntil(async () => (await messageBox(page).inputValue()) === 'a whole thought', 'the updated draft is in the compose box');
  await messageBox(page).press('Enter');
  await messageRow(page, 'a whole thought').waitFor();
  await waitUntil(async () => (await stored()).length === 0, 'the sent draft is deleted');
  await sidebar.getByRole('link', { name: 'Drafts', exact: true }).waitFor();

  // Deleting from the list.
  await writer.post('/drafts', { drafts: JSON.stringify([{ type: 'private', to: [suite.server.ownerId], topic: '', content: 'never mind', timestamp: 1700000000 }]) });
  await sidebar.getByRole('link', { name: /^Drafts/ }).click();
  await list.getByRole('button', { name: 'Delete the draft to You and Owner' }).click();
  await list.getByText('No drafts.', { exact: false }).waitFor();
  assert.deepEqual(await stored(), []);
  assert.deepEqual(web.problems, []);
});

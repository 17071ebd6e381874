import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { isFocused, messageRow, waitUntil, webSuite, type PageGlobals } from './support/web';

/**
 * Writing as a Zulip user does: the compose box opens where one is (c, x, New message), follows
 * the topics policy, formats with buttons and keys, takes files dropped anywhere, and offers
 * emoji by category and ranked as Zulip ranks them.
 */

const suite = webSuite();
const PHONE = { width: 390, height: 844 };

function messageBox(page: Page) {
  return page.getByRole('textbox', { name: 'Message', exact: true });
}

async function newestMessage(user: { get: (path: string, params: Record<string, unknown>) => Promise<{ body: any }> }, channelId: number) {
  const answer = await user.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'channel', operand: channelId }], apply_markdown: false });
  return answer.body.messages[0] as { content: string; subject: string };
}

test('New message, c and x start where one is, and Enter follows the topics policy', { skip: NO_CHROMIUM }, async () => {
  const ada = await suite.server.createUser('Ada Prefill');
  const bea = await suite.server.createUser('Bea Prefill');
  const name = uniqueName('Scotland');
  const channel = await createChannel(suite.server.owner, { principals: [ada.credentials.email, bea.credentials.email] }, name);
  await bea.post('/messages', { type: 'stream', to: channel.id, topic: 'weather', content: 'Rain again.' });

  // On a phone, inside #Scotland › weather, New message is for that topic, the cursor in the message.
  const phone = await suite.open(ada.credentials.email, `#narrow/channel/${channel.id}/topic/weather`, { viewport: PHONE });
  await messageRow(phone.page, 'Rain again.').waitFor();
  await phone.page.getByRole('button', { name: /^New message/ }).click();
  await waitUntil(() => isFocused(messageBox(phone.page)), 'the message has the focus');
  assert.equal(await phone.page.getByRole('combobox', { name: 'Channel' }).inputValue(), name);
  assert.equal(await phone.page.getByRole('combobox', { name: 'Topic' }).inputValue(), 'weather');
  await messageBox(phone.page).fill('Sunny here.');
  await phone.page.getByRole('button', { name: 'Send', exact: true }).click();
  await messageRow(phone.page, 'Sunny here.').waitFor();
  assert.deepEqual([(await newestMessage(ada, channel.id)).subject], ['weather']);
  // In a direct-message view, New message is for those people.
  await phone.page.getByRole('button', { name: 'Close the compose box' }).click();
  await phone.page.goto(`${suite.server.url}/#narrow/dm/${bea.userId}`);
  await phone.page.getByRole('button', { name: /^New message/ }).click();
  await phone.page.getByRole('button', { name: 'Remove Bea Prefill' }).waitFor();
  assert.deepEqual(phone.problems, []);

  // c in a channel view: the channel is filled in and the cursor is in the empty topic, which
  // shows the name the empty topic goes by.
  const web = await suite.open(ada.credentials.email, `#narrow/channel/${channel.id}`);
  const page = web.page;
  await messageRow(page, 'Rain again.').waitFor();
  await page.keyboard.press('c');
  const topic = page.getByRole('combobox', { name: 'Topic' });
  await waitUntil(() => isFocused(topic), 'the topic has the focus');
  assert.equal(await page.getByRole('combobox', { name: 'Channel' }).inputValue(), name);
  assert.equal(await topic.inputValue(), '');
  assert.equal(await topic.getAttribute('placeholder'), 'general chat');
  // Allowed by the organization: Enter sends to the empty topic, shown as "general chat".
  await messageBox(page).fill('Without a topic.');
  await messageBox(page).press('Enter');
  await messageRow(page, 'Without a topic.').waitFor();
  const sent = await newestMessage(ada, channel.id);
  assert.deepEqual([sent.content, sent.subject], ['Without a topic.', 'general chat']);

  // Topics required by the organization: refused with Zulip's words, the cursor back in the topic.
  assert.equal((await suite.server.owner.patch('/realm', { topics_policy: 'disable_empty_topic' })).status, 200);
  await waitUntil(async () => (await topic.getAttribute('placeholder')) === 'Topic', 'the realm event reached the page');
  await messageBox(page).fill('Still no topic.');
  await messageBox(page).press('Enter');
  await page.getByRole('status').getByText('Topics are required in this organization.').waitFor();
  await waitUntil(() => isFocused(topic), 'the topic has the focus again');
  assert.equal((await newestMessage(ada, channel.id)).content, 'Without a topic.');
  // A channel's own policy speaks for the channel.
  assert.equal((await suite.server.owner.patch('/realm', { topics_policy: 'allow_empty_topic' })).status, 200);
  assert.equal((await suite.server.owner.patch(`/streams/${channel.id}`, { topics_policy: 'disable_empty_topic' })).status, 200);
  await waitUntil(async () => (await topic.getAttribute('placeholder')) === 'Topic', 'the channel event reached the page');
  await messageBox(page).press('Enter');
  await page.getByRole('status').getByText('Sending messages to the general chat topic is not allowed in this channel.').waitFor();
  await topic.fill('forecast');
  await messageBox(page).press('Enter');
  await messageRow(page, 'Still no topic.').waitFor();
  assert.equal((await newestMessage(ada, channel.id)).subject, 'forecast');
  await page.keyboard.press('Escape');
  await messageBox(page).waitFor({ state: 'detached' });

  // A channel of the empty topic only takes no topic: the field is left out and the message goes there.
  const lounge = await createChannel(suite.server.owner, { principals: [ada.credentials.email], topics_policy: 'empty_topic_only' }, uniqueName('lounge'));
  await page.goto(`${suite.server.url}/#narrow/channel/${lounge.id}`);
  // The channel's creation reaches the page by event; c before that would be for no channel.
  await waitUntil(async () => (await page.title()).includes(lounge.name), 'the lounge is open');
  await page.keyboard.press('c');
  await waitUntil(async () => (await page.getByRole('combobox', { name: 'Channel' }).inputValue()) === lounge.name, 'the compose box is for the lounge');
  assert.ok(await topic.isDisabled());
  await messageBox(page).fill('Just chatting.');
  await messageBox(page).press('Enter');
  await messageRow(page, 'Just chatting.').waitFor();
  assert.equal((await newestMessage(ada, lounge.id)).subject, 'general chat');
  await page.keyboard.press('Escape');
  await messageBox(page).waitFor({ state: 'detached' });

  // x starts in the recipient field.
  await page.keyboard.press('x');
  await waitUntil(() => isFocused(page.getByRole('combobox', { name: 'Direct message recipients' })), 'the recipients have the focus');
  assert.deepEqual(web.problems, []);
});

test('formatting buttons and Ctrl+B, Ctrl+I, Ctrl+Shift+L wrap the selection as Zulip does', { skip: NO_CHROMIUM }, async () => {
  const writer = await suite.server.createUser('Format Writer');
  const channel = await createChannel(suite.server.owner, { principals: [writer.credentials.email] }, uniqueName('format'));
  const web = await suite.open(writer.credentials.email, `#narrow/channel/${channel.id}/topic/styles`);
  const page = web.page;
  await page.getByRole('button', { name: /^New message/ }).click();
  const box = messageBox(page);
  const select = (start: number, end: number) => box.evaluate((el, [a, b]) => (el as unknown as { setSelectionRange(a: number, b: number): void }).setSelectionRange(a, b), [start, end]);
  const selected = () => box.evaluate((el) => {
    const field = el as unknown as { value: string; selectionStart: number; selectionEnd: number };
    return field.value.slice(field.selectionStart, field.selectionEnd);
  });

  await box.fill('hello world');
  await select(6, 11);
  await page.getByRole('button', { name: 'Bold' }).click();
  assert.equal(await box.inputValue(), 'hello **world**');
  assert.equal(await selected(), 'world');
  // The same again takes it off; Ctrl+I makes it italic; Ctrl+Z undoes, as typing is undone.
  await box.press('Control+b');
  assert.equal(await box.inputValue(), 'hello world');
  await box.press('Control+i');
  assert.equal(await box.inputValue(), 'hello *world*');
  await box.press('Control+z');
  assert.equal(await box.inputValue(), 'hello world');
  // Ctrl+Shift+L makes a link of the selection, its URL selected to be typed over.
  await select(6, 11);
  await box.press('Control+Shift+L');
  assert.equal(await selected(), 'url');
  await page.keyboard.type('https://example.com');
  assert.equal(await box.inputValue(), 'hello [world](https://example.com)');

  // Blocks: quote, spoiler (its heading selected), code, math.
  await box.fill('');
  await page.getByRole('button', { name: 'Quote' }).click();
  assert.equal(await box.inputValue(), '```quote\n\n```');
  await page.keyboard.type('wise words');
  assert.equal(await box.inputValue(), '```quote\nwise words\n```');
  await box.fill('secret');
  await select(0, 6);
  await page.getByRole('button', { name: 'Spoiler' }).click();
  assert.equal(await box.inputValue(), '```spoiler Heading\nsecret\n```');
  assert.equal(await selected(), 'Heading');
  await box.fill('x = 1');
  await select(0, 5);
  await page.getByRole('button', { name: 'Code' }).click();
  assert.equal(await box.inputValue(), '`x = 1`');
  await box.fill('e^{i\\pi}');
  await select(0, 8);
  await page.getByRole('button', { name: 'Math (LaTeX)' }).click();
  assert.equal(await box.inputValue(), '$$e^{i\\pi}$$');
  await box.fill('');
  await page.getByRole('button', { name: 'Mention someone' }).click();
  await page.keyboard.type('Forma');
  await page.getByRole('option', { name: /^Format Writer/ }).waitFor();
  // Polls and to-do lists are made in dialogs of their own (test/web-actions.test.ts).
  await box.fill('');
  await page.getByRole('button', { name: 'Add a poll' }).click();
  await page.getByRole('dialog', { name: 'Create a poll' }).getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('dialog', { name: 'Create a poll' }).waitFor({ state: 'detached' });

  // A formatted message is sent as written and drawn by the server's Markdown.
  await box.fill('plain and bold');
  await select(10, 14);
  await box.press('Control+b');
  await box.press('Enter');
  await messageRow(page, 'plain and').locator('strong', { hasText: 'bold' }).waitFor();
  assert.equal((await newestMessage(writer, channel.id)).content, 'plain and **bold**');
  assert.deepEqual(web.problems, []);
});

test('a file dropped anywhere over the conversation opens the compose box there and is uploaded', { skip: NO_CHROMIUM }, async () => {
  const dropper = await suite.server.createUser('Page Dropper');
  const name = uniqueName('drops');
  const channel = await createChannel(suite.server.owner, { principals: [dropper.credentials.email] }, name);
  await dropper.post('/messages', { type: 'stream', to: channel.id, topic: 'photos', content: 'Here come the photos.' });
  const web = await suite.open(dropper.credentials.email, `#narrow/channel/${channel.id}/topic/photos`, { viewport: PHONE });
  const page = web.page;
  const row = messageRow(page, 'Here come the photos.');
  await row.waitFor();
  assert.equal(await messageBox(page).count(), 0);

  const transfer = await page.evaluateHandle(() => {
    const data = new (globalThis as unknown as PageGlobals).DataTransfer();
    data.items.add(new File(['a picture, in words'], 'loch.txt', { type: 'text/plain' }));
    return data;
  });
  await row.dispatchEvent('dragenter', { dataTransfer: transfer });
  await row.dispatchEvent('dragover', { dataTransfer: transfer });
  await page.getByText('Drop files to attach them to a message here').waitFor();
  await row.dispatchEvent('drop', { dataTransfer: transfer });
  await page.getByText('Drop files to attach them to a message here').waitFor({ state: 'detached' });
  const box = messageBox(page);
  await waitUntil(async () => /^\[loch\.txt\]\(\/user_uploads\/\S+\)$/.test(await box.inputValue().catch(() => '')), 'the dropped file is linked');
  assert.equal(await page.getByRole('combobox', { name: 'Channel' }).inputValue(), name);
  assert.equal(await page.getByRole('combobox', { name: 'Topic' }).inputValue(), 'photos');
  await box.press('Enter');
  await messageRow(page, 'loch.txt').waitFor();
  assert.deepEqual(web.problems, []);
});

test('emoji: the picker has categories, popular and recently used emoji, and :smi offers :smile: first', { skip: NO_CHROMIUM }, async () => {
  const writer = await suite.server.createUser('Emoji Writer');
  const channel = await createChannel(suite.server.owner, { principals: [writer.credentials.email] }, uniqueName('emoji'));
  const web = await suite.open(writer.credentials.email, `#narrow/channel/${channel.id}/topic/faces`);
  const page = web.page;
  const chunks: string[] = [];
  page.on('request', (request) => {
    if (/\/static\/web\/chunk-/.test(request.url())) chunks.push(request.url());
  });
  await page.getByRole('button', { name: /^New message/ }).click();
  const box = messageBox(page);

  // The typeahead ranks as Zulip does: popular emoji and names starting with the words first.
  await box.pressSequentially(':smi');
  const options = page.getByRole('listbox').getByRole('option');
  await options.first().waitFor();
  const offered = await options.allInnerTexts();
  assert.match(offered[0], /:smile:$/);
  assert.ok(offered.slice(1).every((text) => /:(\w+_)*smi\w*:$/.test(text)), offered.join(' | '));
  await box.press('Escape');
  await box.fill('');

  // The categories come with the picker, not the first view.
  assert.deepEqual(chunks, []);
  await page.getByRole('button', { name: 'Add emoji' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose an emoji' });
  const bar = picker.getByRole('toolbar', { name: 'Emoji categories' });
  await bar.getByRole('button', { name: 'Flags' }).waitFor();
  assert.equal(chunks.length, 1);
  assert.deepEqual(await bar.getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label'))), [
    'Popular',
    'Smileys & Emotion',
    'People & Body',
    'Animals & Nature',
    'Food & Drink',
    'Activities',
    'Travel & Places',
    'Objects',
    'Symbols',
    'Flags',
    'Custom',
  ]);
  const popular = picker.getByRole('group', { name: 'Popular' }).getByRole('button');
  assert.deepEqual(await popular.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label'))), ['+1', 'tada', 'smile', 'heart', 'working_on_it', 'octopus']);
  await picker.getByRole('group', { name: 'Flags' }).getByRole('button', { name: 'scotland' }).waitFor({ state: 'attached' });
  await bar.getByRole('button', { name: 'Flags' }).click();
  await picker.getByRole('group', { name: 'Flags' }).getByRole('button', { name: 'scotland' }).waitFor();
  // The arrow keys walk the grid; search ranks as the typeahead does; Enter takes the first.
  await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('octo');
  assert.equal(await picker.getByRole('group', { name: 'Search results' }).getByRole('button').first().getAttribute('aria-label'), 'octopus');
  await picker.getByRole('searchbox', { name: 'Search emoji' }).press('Enter');
  assert.equal(await box.inputValue(), ':octopus:');

  // Picked emoji are recently used, kept in this browser.
  await page.reload();
  await page.getByRole('button', { name: /^New message/ }).click();
  await page.getByRole('button', { name: 'Add emoji' }).click();
  const recent = page.getByRole('group', { name: 'Recently used' }).getByRole('button');
  await recent.first().waitFor();
  assert.deepEqual(await recent.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label'))), ['octopus']);
  await recent.first().focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await waitUntil(async () => (await messageBox(page).inputValue()).includes(':octopus:'), 'the recent emoji is inserted');
  assert.deepEqual(web.problems, []);
});

test('saved snippets: made from the message, inserted from a filtered list, edited and deleted, live in the person\'s other browser', { skip: NO_CHROMIUM }, async () => {
  const writer = await suite.server.createUser('Snippet Writer');
  const channel = await createChannel(suite.server.owner, { principals: [writer.credentials.email] }, uniqueName('snippets'));
  const web = await suite.open(writer.credentials.email, `#narrow/channel/${channel.id}/topic/replies`);
  const phone = await suite.open(writer.credentials.email, `#narrow/channel/${channel.id}/topic/replies`, { viewport: PHONE });
  const page = web.page;
  await page.getByRole('button', { name: /^New message/ }).click();
  const box = messageBox(page);
  await box.fill('Thanks, we will look at it this week.');

  // "Create a new saved snippet" starts from what the message holds; Save waits for a title.
  await page.getByRole('button', { name: 'Saved snippets' }).click();
  const panel = page.getByRole('dialog', { name: 'Saved snippets' });
  await panel.getByText('You have no saved snippets.').waitFor();
  await panel.getByRole('button', { name: 'Create a new saved snippet' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a new saved snippet' });
  assert.equal(await dialog.getByLabel('Content').inputValue(), 'Thanks, we will look at it this week.');
  assert.equal(await dialog.getByRole('button', { name: 'Save' }).isDisabled(), true);
  await dialog.getByLabel('Title').fill('Thanks');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  await waitUntil(() => isFocused(box), 'the message box has the focus back');
  const stored = async () => (await writer.get('/saved_snippets')).body.saved_snippets as Array<{ id: number; title: string; content: string }>;
  assert.deepEqual((await stored()).map((s) => [s.title, s.content]), [['Thanks', 'Thanks, we will look at it this week.']]);
  await writer.post('/saved_snippets', { title: 'Greeting', content: 'Hello everyone!' });

  // Both reach the phone; there a filter and Enter insert the one that matches.
  const phonePage = phone.page;
  await phonePage.getByRole('button', { name: /^New message/ }).click();
  await messageBox(phonePage).fill('Hi.');
  await phonePage.getByRole('button', { name: 'Saved snippets' }).click();
  const phonePanel = phonePage.getByRole('dialog', { name: 'Saved snippets' });
  await phonePanel.getByRole('button', { name: /^Greeting/ }).waitFor();
  await phonePanel.getByRole('button', { name: /^Thanks/ }).waitFor();
  await phonePanel.getByRole('searchbox', { name: 'Filter saved snippets' }).fill('hello');
  assert.equal(await phonePanel.getByRole('button', { name: /^Thanks/ }).count(), 0);
  await phonePage.keyboard.press('Enter');
  await phonePanel.waitFor({ state: 'detached' });
  assert.equal(await messageBox(phonePage).inputValue(), 'Hi. Hello everyone!');

  // Edited on the desktop: the phone's list says the new title.
  await page.getByRole('button', { name: 'Saved snippets' }).click();
  await panel.getByRole('button', { name: 'Edit Greeting' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit saved snippet' });
  await editor.getByLabel('Title').fill('Hello all');
  await editor.getByRole('button', { name: 'Save' }).click();
  await editor.waitFor({ state: 'detached' });
  await phonePage.getByRole('button', { name: 'Saved snippets' }).click();
  await phonePanel.getByRole('button', { name: /^Hello all/ }).waitFor();

  // Deleted after a question; a click in the list inserts at the cursor.
  await page.getByRole('button', { name: 'Saved snippets' }).click();
  await panel.getByRole('button', { name: 'Delete Thanks' }).click();
  await page.getByRole('dialog', { name: 'Delete saved snippet?' }).getByRole('button', { name: 'Delete' }).click();
  await phonePanel.getByRole('button', { name: /^Thanks/ }).waitFor({ state: 'detached' });
  assert.deepEqual((await stored()).map((s) => s.title), ['Hello all']);
  await box.fill('');
  await page.getByRole('button', { name: 'Saved snippets' }).click();
  await panel.getByRole('button', { name: /^Hello all/ }).click();
  assert.equal(await box.inputValue(), 'Hello everyone!');
  assert.deepEqual(web.problems, []);
  assert.deepEqual(phone.problems, []);
});

test('near the message length limit the compose box counts what is left; past it Send is off and Enter says why', { skip: NO_CHROMIUM }, async () => {
  const writer = await suite.server.createUser('Long Writer');
  const channel = await createChannel(suite.server.owner, { principals: [writer.credentials.email] }, uniqueName('long'));
  const web = await suite.open(writer.credentials.email, `#narrow/channel/${channel.id}/topic/essays`);
  const page = web.page;
  const max = (await writer.post('/register', { fetch_event_types: JSON.stringify(['realm']) })).body.max_message_length as number;
  await page.getByRole('button', { name: /^New message/ }).click();
  const box = messageBox(page);
  await box.fill('short');
  assert.equal(await page.locator('.compose-limit').count(), 0);
  // Emoji count as one character each, as the server counts.
  await box.fill('a'.repeat(max - 505) + '😀'.repeat(5));
  await page.getByRole('status', { name: '500 characters left' }).waitFor();
  await box.fill('a'.repeat(max + 5));
  await page.getByRole('status', { name: '5 characters too many' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled(), true);
  await box.press('Enter');
  await page.getByText(`Message length shouldn't be greater than ${max} characters.`).waitFor();
  assert.equal(await box.inputValue(), 'a'.repeat(max + 5), 'nothing was sent or lost');
  await box.fill('a'.repeat(max));
  await page.getByRole('status', { name: '0 characters left' }).waitFor();
  await box.press('Enter');
  await waitUntil(async () => (await newestMessage(writer, channel.id))?.content.length === max, 'the longest message is sent');
  assert.deepEqual(web.problems, []);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { sendRead, unreadIds } from './support/messages';
import { isFocused, messageRow, waitUntil, webSuite, type WebUser } from './support/web';

/**
 * Actions of the web client: Escape leading home, the edit history's word diff, the poll and
 * to-do dialogs of the compose box, Recent conversations marked read and paged past its first
 * batch, and `/` straight after the shortcuts overlay.
 */

const suite = webSuite();
type Person = Awaited<ReturnType<typeof suite.server.createUser>>;

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function channelWith(people: Person[], prefix: string): Promise<{ name: string; id: number }> {
  const name = uniqueName(prefix);
  const { id } = await createChannel(suite.server.owner, { principals: people.map((p) => p.credentials.email) }, name);
  return { name, id };
}

async function shot(web: WebUser, name: string): Promise<void> {
  await web.page.screenshot({ path: `/tmp/web-actions-${name}.png` });
}

test('Escape closes what is open first, one thing at a time; with nothing open it goes to the home view', { skip: NO_CHROMIUM }, async () => {
  const ada = await suite.server.createUser('Ada Escape');
  const channel = await channelWith([ada], 'escape');
  await sendRead(ada, channel.id, 'lamps', 'the lamps are lit');
  await ada.patch('/settings', { web_home_view: 'recent_topics' });
  for (const viewport of [DESKTOP, PHONE]) {
    const web = await suite.open(ada.credentials.email, `#narrow/channel/${channel.id}/topic/lamps`, { viewport });
    const { page } = web;
    await messageRow(page, 'the lamps are lit').waitFor();
    const inTopic = page.url();

    // The search box has the focus: Escape leaves it, and the topic stays.
    const search = page.getByRole('searchbox', { name: 'Search messages' });
    await search.click();
    await page.keyboard.press('Escape');
    await waitUntil(async () => !(await isFocused(search)), 'the search box is left');
    assert.equal(page.url(), inTopic);

    // The compose box is open: Escape closes it, and the topic stays.
    await page.keyboard.press('c');
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.waitFor();
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'detached' });
    assert.equal(page.url(), inTopic);

    // A message's actions menu is open: Escape closes it, and the topic stays.
    await page.keyboard.press('i');
    const menu = page.getByRole('menu', { name: 'More message actions' });
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    assert.equal(page.url(), inTopic);

    // The shortcuts overlay: Escape closes it, and the topic stays.
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    assert.equal(page.url(), inTopic);

    if (viewport === PHONE) {
      // At phone width the channels are a panel: Escape closes it first.
      await page.getByRole('button', { name: 'Show channels' }).click();
      await page.keyboard.press('Escape');
      await waitUntil(async () => (await page.getByRole('button', { name: 'Show channels' }).getAttribute('aria-expanded')) === 'false', 'the panel is closed');
      assert.equal(page.url(), inTopic);
    }

    // Nothing is open: Escape goes to the home view, Recent conversations.
    await page.keyboard.press('Escape');
    await page.getByRole('region', { name: 'Recent conversations' }).waitFor();
    assert.match(page.url(), /#recent$/);
    await shot(web, `escape-home-${viewport.width}`);
    assert.deepEqual(web.problems, []);
    await web.context.close();
  }

  // The setting that turns it off is followed.
  await ada.patch('/settings', { web_escape_navigates_to_home_view: false });
  const web = await suite.open(ada.credentials.email, `#narrow/channel/${channel.id}/topic/lamps`);
  await messageRow(web.page, 'the lamps are lit').waitFor();
  const inTopic = web.page.url();
  await web.page.keyboard.press('Escape');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(web.page.url(), inTopic);
  assert.deepEqual(web.problems, []);
});

test('the edit history marks the words inserted and deleted in each version, and the topic and channel a message moved between', { skip: NO_CHROMIUM }, async () => {
  const beatrice = await suite.server.createUser('Beatrice History');
  const benedick = await suite.server.createUser('Benedick History');
  const first = await channelWith([beatrice, benedick], 'history');
  const second = await channelWith([beatrice, benedick], 'elsewhere');
  const id = await sendRead(benedick, first.id, 'masks', 'I will go on the slightest errand now');
  assert.equal((await benedick.patch(`/messages/${id}`, { content: 'I will go on the **greatest** errand now, lady' })).status, 200);
  assert.equal((await benedick.patch(`/messages/${id}`, { topic: 'the masked ball', propagate_mode: 'change_one' })).status, 200);
  const moved = await suite.server.owner.patch(`/messages/${id}`, { stream_id: second.id, propagate_mode: 'change_one' });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));

  for (const viewport of [DESKTOP, PHONE]) {
    const web = await suite.open(beatrice.credentials.email, `#narrow/channel/${second.id}`, { viewport });
    const { page } = web;
    const row = messageRow(page, 'greatest');
    await row.click();
    await page.keyboard.press('i');
    await page.getByRole('menu', { name: 'More message actions' }).getByRole('menuitem', { name: 'View edit history' }).click();
    const history = page.getByRole('dialog', { name: 'Message edit history' });
    const entries = history.getByRole('listitem');
    await waitUntil(async () => (await entries.count()) === 4, 'four versions');
    // The first version as it was sent, with nothing marked.
    assert.equal(await entries.nth(0).locator('ins, del').count(), 0);
    // The edit: "slightest" deleted, "greatest" (in bold) and ", lady" inserted, in place.
    const edit = entries.nth(1);
    assert.match(await edit.innerText(), /^Edited by Benedick History/);
    assert.deepEqual(await edit.locator('.history-content del').allInnerTexts(), ['slightest']);
    assert.deepEqual(await edit.locator('.history-content ins').allInnerTexts(), ['greatest', ', lady']);
    assert.equal(await edit.locator('.history-content strong ins').innerText(), 'greatest');
    assert.equal((await edit.locator('.history-content').innerText()).replace(/\s+/g, ' '), 'I will go on the slightestgreatest errand now, lady');
    // The moves: the old topic and channel deleted, the new inserted; no content shown again.
    const topicMove = entries.nth(2);
    assert.match(await topicMove.innerText(), /^Moved by Benedick History/);
    assert.equal(await topicMove.locator('del').innerText(), 'masks');
    assert.equal(await topicMove.locator('ins').innerText(), 'the masked ball');
    assert.equal(await topicMove.locator('.history-content').count(), 0);
    const channelMove = entries.nth(3);
    assert.equal(await channelMove.locator('del').innerText(), `#${first.name}`);
    assert.equal(await channelMove.locator('ins').innerText(), `#${second.name}`);
    await shot(web, `history-${viewport.width}`);
    await page.keyboard.press('Escape');
    await history.waitFor({ state: 'detached' });
    assert.deepEqual(web.problems, []);
    await web.context.close();
  }
});

test('/ right after closing the shortcuts overlay opens the search box with its suggestions', { skip: NO_CHROMIUM }, async () => {
  const cleo = await suite.server.createUser('Cleo Slash');
  const channel = await channelWith([cleo], 'slash');
  await sendRead(cleo, channel.id, 'asps', 'a basket of figs');
  const web = await suite.open(cleo.credentials.email, `#narrow/channel/${channel.id}/topic/asps`);
  const { page } = web;
  await messageRow(page, 'a basket of figs').waitFor();
  const search = page.getByRole('searchbox', { name: 'Search messages' });
  const suggestions = page.getByRole('listbox', { name: 'Search suggestions' });
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  // Closed by Escape, by ? again and by its Close button: each time / goes straight to the box.
  for (const close of ['Escape', '?', 'button'] as const) {
    await page.keyboard.press('?');
    await help.waitFor();
    if (close === 'button') await help.getByRole('button', { name: 'Close' }).click();
    else await page.keyboard.press(close);
    await page.keyboard.press('/');
    await page.keyboard.type('sender:');
    await suggestions.getByRole('option').first().waitFor();
    await waitUntil(() => isFocused(search), `the box has the focus after closing with ${close}`);
    // The first time, after the open narrow's terms.
    assert.match(await search.inputValue(), close === 'Escape' ? / topic:asps sender:$/ : /^sender:$/);
    await help.waitFor({ state: 'detached' });
    await search.fill('');
    await page.keyboard.press('Escape');
    await waitUntil(async () => !(await isFocused(search)), 'the box is left');
  }
  assert.deepEqual(web.problems, []);
});

test('Recent conversations: a row\'s unread count marks it read, here and in the person\'s other browser; older conversations load past the first 1,000 messages', { skip: NO_CHROMIUM }, async () => {
  const viola = await suite.server.createUser('Viola Rows');
  const orsino = await suite.server.createUser('Orsino Rows');
  const channel = await channelWith([viola, orsino], 'rows');
  // Two old conversations, then a thousand messages of chatter, then the newest ones.
  await orsino.post('/messages', { type: 'stream', to: channel.id, topic: 'shipwreck', content: 'the first storm' });
  await orsino.post('/messages', { type: 'private', to: [viola.userId], content: 'an old word in private' });
  for (let i = 0; i < 1000; i += 25) {
    await Promise.all(Array.from({ length: 25 }, (_, j) => orsino.post('/messages', { type: 'stream', to: channel.id, topic: 'chatter', content: `chatter ${i + j}` })));
  }
  await viola.post('/mark_all_as_read');
  const music = [
    (await orsino.post('/messages', { type: 'stream', to: channel.id, topic: 'music', content: 'If music be the food of love' })).body.id as number,
    (await orsino.post('/messages', { type: 'stream', to: channel.id, topic: 'music', content: 'play on' })).body.id as number,
  ];
  const dm = (await orsino.post('/messages', { type: 'private', to: [viola.userId], content: 'a new word in private' })).body.id as number;
  assert.deepEqual(await unreadIds(viola), [...music, dm]);

  const here = await suite.open(viola.credentials.email, '#recent');
  const there = await suite.open(viola.credentials.email, '#recent', { viewport: PHONE });
  const list = (web: WebUser) => web.page.getByRole('list', { name: 'Conversations' });
  const row = (web: WebUser, name: string) => list(web).getByRole('listitem').filter({ has: web.page.getByRole('link', { name, exact: true }) });
  await row(here, 'music').getByRole('button', { name: 'Mark 2 messages as read' }).waitFor();
  await row(there, 'Orsino Rows').getByRole('button', { name: 'Mark 1 message as read' }).waitFor();
  await shot(here, 'recent-1280');
  await shot(there, 'recent-390');

  // The topic's count, pressed here: gone here and in the other browser; the server agrees.
  await row(here, 'music').getByRole('button', { name: 'Mark 2 messages as read' }).click();
  await row(there, 'music').getByRole('button').waitFor({ state: 'detached' });
  await row(here, 'music').getByRole('button').waitFor({ state: 'detached' });
  assert.deepEqual(await unreadIds(viola), [dm]);
  // The direct messages' count, pressed on the phone, by keyboard.
  await row(there, 'Orsino Rows').getByRole('button', { name: 'Mark 1 message as read' }).focus();
  await there.page.keyboard.press('Enter');
  await row(here, 'Orsino Rows').getByRole('button').waitFor({ state: 'detached' });
  assert.deepEqual(await unreadIds(viola), []);

  // The first batch holds the thousand latest messages; the shipwreck is older.
  const names = async () => list(here).locator('.recent-topic .name').allInnerTexts();
  assert.ok(!(await names()).includes('shipwreck'));
  const more = here.page.getByRole('button', { name: 'Load more conversations' });
  await more.scrollIntoViewIfNeeded();
  await shot(here, 'recent-more-1280');
  await more.click();
  await row(here, 'shipwreck').waitFor();
  // Everything is loaded: no more button. The old private word is the same conversation as the new.
  await more.waitFor({ state: 'detached' });
  assert.deepEqual((await names()).filter((n) => n === 'Orsino Rows' || n === 'shipwreck'), ['Orsino Rows', 'shipwreck']);
  assert.deepEqual(here.problems, []);
  assert.deepEqual(there.problems, []);
});

test('the poll and to-do buttons open dialogs whose question, options, title and tasks are written as the message', { skip: NO_CHROMIUM }, async () => {
  const maria = await suite.server.createUser('Maria Widgets');
  const channel = await channelWith([maria], 'widgets');
  await sendRead(maria, channel.id, 'plans', 'what shall we do');
  const newest = async () => (await maria.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: channel.id }]), apply_markdown: false })).body.messages[0].content as string;
  for (const [index, viewport] of [DESKTOP, PHONE].entries()) {
    const round = index + 1;
    const web = await suite.open(maria.credentials.email, `#narrow/channel/${channel.id}/topic/plans`, { viewport });
    const { page } = web;
    await messageRow(page, 'what shall we do').waitFor();
    await page.keyboard.press('c');
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.waitFor();

    // A poll: the question first (Add poll waits for it), options as they are typed, one removed.
    await page.getByRole('button', { name: 'Add a poll' }).click();
    const pollDialog = page.getByRole('dialog', { name: 'Create a poll' });
    const question = pollDialog.getByRole('textbox', { name: 'Question' });
    await waitUntil(() => isFocused(question), 'the question has the focus');
    const add = pollDialog.getByRole('button', { name: 'Add poll' });
    assert.equal(await add.getAttribute('aria-disabled'), 'true');
    await page.keyboard.type('Where do we sail?');
    assert.equal(await add.getAttribute('aria-disabled'), 'false');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Illyria');
    await pollDialog.getByRole('textbox', { name: 'Option 2' }).fill('Messaline');
    await pollDialog.getByRole('textbox', { name: 'Option 3' }).fill('Nowhere');
    // Filling the last row made a fourth.
    await pollDialog.getByRole('textbox', { name: 'Option 4' }).fill('Home');
    await pollDialog.getByRole('button', { name: 'Remove option 3' }).click();
    assert.equal(await pollDialog.getByRole('textbox', { name: 'Option 3' }).inputValue(), 'Home');
    await shot(web, `poll-dialog-${viewport.width}`);
    await page.keyboard.press('Enter');
    await pollDialog.waitFor({ state: 'detached' });
    assert.equal(await box.inputValue(), '/poll Where do we sail?\nIllyria\nMessaline\nHome');
    await waitUntil(() => isFocused(box), 'the message has the focus');
    await page.keyboard.press('Enter');
    // Sent, and drawn as a poll (one more than the round before).
    const polls = page.getByRole('group', { name: 'Poll: Where do we sail?' });
    await waitUntil(async () => (await polls.count()) === round, 'the poll is drawn');
    await polls.last().getByRole('button', { name: 'Messaline: 0 votes' }).waitFor();
    assert.equal(await newest(), '/poll Where do we sail?\nIllyria\nMessaline\nHome');

    // Only from an empty message, as in Zulip.
    if (!(await box.isVisible())) await page.keyboard.press('c');
    await box.fill('a word first');
    const todoButton = page.getByRole('button', { name: 'Add a to-do list' });
    assert.equal(await todoButton.getAttribute('aria-disabled'), 'true');
    await todoButton.focus();
    await page.keyboard.press('Enter');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await page.getByRole('dialog').count(), 0);
    await box.fill('');

    // Escape closes the dialog only: the compose box stays, and so does the view.
    await todoButton.click();
    const todoDialog = page.getByRole('dialog', { name: 'Create a to-do list' });
    await todoDialog.waitFor();
    const url = page.url();
    await page.keyboard.press('Escape');
    await todoDialog.waitFor({ state: 'detached' });
    assert.equal(page.url(), url);
    assert.ok(await box.isVisible());
    await waitUntil(() => isFocused(todoButton), 'the focus is back on the button');

    // A to-do list: a title (by default "Task list"), tasks with descriptions once named.
    await todoButton.click();
    const title = todoDialog.getByRole('textbox', { name: 'Title' });
    assert.equal(await title.inputValue(), 'Task list');
    await page.keyboard.type('Chores');
    await todoDialog.getByRole('textbox', { name: 'Task 1', exact: true }).fill('Sweep');
    await todoDialog.getByRole('textbox', { name: 'Description of task 1' }).fill('the hall');
    assert.ok(await todoDialog.getByRole('textbox', { name: 'Description of task 2' }).isDisabled());
    await todoDialog.getByRole('textbox', { name: 'Task 2', exact: true }).fill('Dust');
    await shot(web, `todo-dialog-${viewport.width}`);
    await todoDialog.getByRole('button', { name: 'Add to-do list' }).click();
    assert.equal(await box.inputValue(), '/todo Chores\nSweep: the hall\nDust');
    await box.press('Enter');
    const lists = page.getByRole('group', { name: 'To-do list: Chores' });
    await waitUntil(async () => (await lists.count()) === round, 'the to-do list is drawn');
    await lists.last().getByText('Dust').waitFor();
    assert.equal(await newest(), '/todo Chores\nSweep: the hall\nDust');
    assert.deepEqual(web.problems, []);
    await web.context.close();
  }
});

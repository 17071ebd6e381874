import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { feedTexts, messageRow, waitUntil, webSuite } from './support/web';

/** What people do to messages in the web client: react, star, mark unread, move and resolve topics. */

const suite = webSuite();

/** Two people subscribed to a new channel, each with the channel open in a browser. */
async function twoPeople(first: string, second: string) {
  const a = await suite.server.createUser(first);
  const b = await suite.server.createUser(second);
  const name = uniqueName('web');
  const { id } = await createChannel(suite.server.owner, { principals: [a.credentials.email, b.credentials.email] }, name);
  return { a, b, channel: { name, id } };
}

/** The topic visibility policies the server stored for a person, as [channel, topic, policy]. */
async function storedPolicies(user: Awaited<ReturnType<typeof suite.server.createUser>>): Promise<Array<[number, string, number]>> {
  const state = (await user.post('/register', { fetch_event_types: ['user_topic'] })).body;
  return state.user_topics.map((t: { stream_id: number; topic_name: string; visibility_policy: number }) => [t.stream_id, t.topic_name, t.visibility_policy]);
}

test('a reaction picked from the emoji picker reaches the other browser, and clicking it toggles it', { skip: NO_CHROMIUM }, async () => {
  const { a: ada, b: grace, channel } = await twoPeople('Ada Reacts', 'Grace Reacts');
  const sent = await grace.post('/messages', { type: 'stream', to: channel.id, topic: 'lunch', content: 'Lunch at noon?' });
  const adaWeb = await suite.open(ada.credentials.email, `#narrow/channel/${channel.id}`);
  const graceWeb = await suite.open(grace.credentials.email, `#narrow/channel/${channel.id}`);

  const row = messageRow(adaWeb.page, 'Lunch at noon?');
  await row.hover();
  await row.getByRole('button', { name: 'Add reaction' }).click();
  const picker = adaWeb.page.getByRole('dialog', { name: 'Choose an emoji' });
  await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('octo');
  // The server's emoji data names it; the picker shows the glyph.
  const octopus = picker.getByRole('button', { name: 'octopus', exact: true });
  await octopus.waitFor();
  assert.equal(await octopus.innerText(), '🐙');
  await octopus.click();
  await picker.waitFor({ state: 'detached' });

  const adaReaction = row.getByRole('button', { name: /^octopus: 1,/ });
  await adaReaction.waitFor();
  assert.equal(await adaReaction.getAttribute('aria-pressed'), 'true');
  const graceRow = messageRow(graceWeb.page, 'Lunch at noon?');
  await graceRow.getByRole('button', { name: 'octopus: 1, Ada Reacts' }).waitFor();

  // Grace adds hers by clicking the same reaction; Ada sees two.
  await graceRow.getByRole('button', { name: 'octopus: 1, Ada Reacts' }).click();
  await row.getByRole('button', { name: 'octopus: 2, You, Grace Reacts' }).waitFor();
  // Ada takes hers back; Grace sees only her own.
  await row.getByRole('button', { name: /^octopus: 2/ }).click();
  await graceRow.getByRole('button', { name: 'octopus: 1, You' }).waitFor();
  assert.equal(await row.getByRole('button', { name: /^octopus: 1/ }).getAttribute('aria-pressed'), 'false');

  const stored = await grace.get(`/messages/${sent.body.id}`);
  assert.deepEqual(
    stored.body.message.reactions.map((r: { emoji_name: string; emoji_code: string; user_id: number }) => [r.emoji_name, r.emoji_code, r.user_id]),
    [['octopus', '1f419', grace.userId]],
  );
  assert.deepEqual([...adaWeb.problems, ...graceWeb.problems], []);
});

test('a starred message is in the Starred view until it is unstarred', { skip: NO_CHROMIUM }, async () => {
  const reader = await suite.server.createUser('Star Gazer');
  const { id } = await createChannel(suite.server.owner, { principals: [reader.credentials.email] }, uniqueName('stars'));
  await reader.post('/messages', { type: 'stream', to: id, topic: 'sky', content: 'Orion is up tonight' });
  await reader.post('/messages', { type: 'stream', to: id, topic: 'sky', content: 'clouds later' });
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${id}`);

  const row = messageRow(web.page, 'Orion is up tonight');
  await row.hover();
  await row.getByRole('button', { name: 'Star', exact: true }).click();
  await row.getByRole('button', { name: 'Unstar' }).waitFor();

  const views = web.page.getByRole('navigation', { name: 'Views, channels and direct messages' });
  await views.getByRole('link', { name: /^Starred/ }).click();
  await waitUntil(() => web.page.url().endsWith('#narrow/is/starred'), 'the Starred view is open');
  await web.page.getByRole('heading', { name: 'Starred messages' }).waitFor();
  await messageRow(web.page, 'Orion is up tonight').waitFor();
  assert.deepEqual(await feedTexts(web.page), ['Orion is up tonight']);

  const starred = messageRow(web.page, 'Orion is up tonight');
  await starred.hover();
  await starred.getByRole('button', { name: 'Unstar' }).click();
  await starred.getByRole('button', { name: 'Star', exact: true }).waitFor();
  // Opened again, the view is empty; the server agrees.
  await web.page.reload();
  await web.page.getByText('No messages here yet.').waitFor();
  const onServer = await reader.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand: 'starred' }] });
  assert.equal(onServer.body.messages.length, 0);
  assert.deepEqual(web.problems, []);
});

test('marking a message unread brings the count back, and it stays unread while in view', { skip: NO_CHROMIUM }, async () => {
  const { a: reader, b: writer, channel } = await twoPeople('Unread Reader', 'Unread Writer');
  await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'news', content: 'first news' });
  const second = await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'news', content: 'second news' });
  // Welcome Bot's greeting is read first, so that the title counts the channel's messages alone.
  await reader.post('/mark_all_as_read');
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}`);
  const sidebar = web.page.getByRole('navigation', { name: 'Views, channels and direct messages' });
  await messageRow(web.page, 'second news').waitFor();
  await sidebar.getByLabel(`unread messages in ${channel.name}`).waitFor({ state: 'detached' });

  const row = messageRow(web.page, 'second news');
  await row.hover();
  await row.getByRole('button', { name: 'Mark as unread' }).click();
  await sidebar.getByLabel(`1 unread messages in ${channel.name}`).waitFor();
  await waitUntil(async () => (await web.page.title()).startsWith('(1) '), 'the title counts 1 unread');
  // Still in view, it is not marked read again behind the reader's back, even when the window
  // gains focus.
  await web.page.evaluate(() => (globalThis as unknown as EventTarget).dispatchEvent(new Event('focus')));
  await new Promise((resolve) => setTimeout(resolve, 800));
  await sidebar.getByLabel(`1 unread messages in ${channel.name}`).waitFor();
  const flags = await reader.get(`/messages/${second.body.id}`);
  assert.ok(!flags.body.message.flags.includes('read'));
  assert.deepEqual(web.problems, []);
});

test('moving a topic and resolving it with one click reach the other person', { skip: NO_CHROMIUM }, async () => {
  const { a: mover, b: watcher, channel } = await twoPeople('Topic Mover', 'Topic Watcher');
  await watcher.post('/messages', { type: 'stream', to: channel.id, topic: 'pLans', content: 'the plan is simple' });
  await mover.post('/messages', { type: 'stream', to: channel.id, topic: 'pLans', content: 'agreed' });
  const topicHash = (topic: string) => `#narrow/channel/${channel.id}/topic/${encodeURIComponent(topic).replace(/%/g, '.')}`;
  const moverWeb = await suite.open(mover.credentials.email, topicHash('pLans'));
  const watcherWeb = await suite.open(watcher.credentials.email, topicHash('pLans'));
  await messageRow(watcherWeb.page, 'agreed').waitFor();

  // The mover moves the topic from someone else's message.
  const row = messageRow(moverWeb.page, 'the plan is simple');
  await row.hover();
  await row.getByRole('button', { name: 'Move' }).click();
  const editor = moverWeb.page.getByRole('form', { name: 'Move message' });
  await editor.getByRole('textbox', { name: 'Topic' }).fill('plans for May');
  await editor.getByRole('button', { name: 'Save' }).click();

  // Both views follow the topic to its new name, with every message.
  for (const page of [moverWeb.page, watcherWeb.page]) {
    await page.locator('.recipient-topic', { hasText: 'plans for May' }).first().waitFor();
    await page.getByRole('heading', { name: new RegExp(`› plans for May$`) }).waitFor();
    await page.locator('.message-content', { hasText: 'This topic was moved here from' }).waitFor();
    assert.deepEqual((await feedTexts(page)).slice(0, 2), ['the plan is simple', 'agreed']);
  }

  // One click on the recipient bar resolves the topic, as in Zulip: "✔ " before its name (the
  // bar's buttons come with the pointer over it).
  await moverWeb.page.locator('.recipient-bar').first().hover();
  await moverWeb.page.getByRole('button', { name: 'Mark as resolved' }).first().click();
  await watcherWeb.page.locator('.recipient-topic', { hasText: '✔ plans for May' }).first().waitFor();
  await watcherWeb.page.getByRole('button', { name: 'Mark as unresolved' }).first().waitFor();
  const topics = await watcher.get(`/users/me/${channel.id}/topics`);
  assert.ok(topics.body.topics.some((t: { name: string }) => t.name === '✔ plans for May'), JSON.stringify(topics.body.topics));
  // The notification bot says so in the topic, which both see.
  await watcherWeb.page.locator('.message-content', { hasText: 'has marked this topic as resolved' }).waitFor();

  // And again to unresolve it.
  await watcherWeb.page.getByRole('button', { name: 'Mark as unresolved' }).first().click();
  await moverWeb.page.getByRole('heading', { name: /› plans for May$/ }).waitFor();
  await moverWeb.page.locator('.recipient-bar').first().hover();
  await moverWeb.page.getByRole('button', { name: 'Mark as resolved' }).first().waitFor();
  assert.deepEqual([...moverWeb.problems, ...watcherWeb.problems], []);
});

test('muting a topic from its recipient bar takes it out of the counts, the inbox and the combined feed', { skip: NO_CHROMIUM }, async () => {
  const { a: reader, b: talker, channel } = await twoPeople('Topic Muter', 'Topic Talker');
  await talker.post('/messages', { type: 'stream', to: channel.id, topic: 'noisy', content: 'the first noise' });
  // The channel's creation notice is read too, so the counts below are the new messages'.
  await reader.post('/mark_all_as_read');
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}/topic/noisy`);
  await messageRow(web.page, 'the first noise').waitFor();

  await web.page.locator('.recipient-bar').first().hover();
  await web.page.getByRole('button', { name: 'Mute topic' }).first().click();
  await web.page.getByRole('button', { name: 'Unmute topic' }).first().waitFor();
  assert.deepEqual(await storedPolicies(reader), [[channel.id, 'noisy', 1]]);

  // New messages in the muted topic count nowhere; those in another topic do.
  await web.page.goto(`${suite.server.url}/#inbox`);
  await web.page.getByRole('region', { name: 'Inbox' }).waitFor();
  await talker.post('/messages', { type: 'stream', to: channel.id, topic: 'noisy', content: 'more noise' });
  await talker.post('/messages', { type: 'stream', to: channel.id, topic: 'noisy', content: 'even more noise' });
  await talker.post('/messages', { type: 'stream', to: channel.id, topic: 'calm', content: 'a calm word' });
  const inbox = web.page.getByRole('region', { name: 'Inbox' });
  await inbox.getByRole('link', { name: /^calm/ }).waitFor();
  assert.equal(await inbox.getByRole('link', { name: /^noisy/ }).count(), 0);
  const sidebar = web.page.getByRole('navigation', { name: 'Views, channels and direct messages' });
  await sidebar.getByLabel(`1 unread messages in ${channel.name}`).waitFor();
  await sidebar.getByLabel('1 unread messages', { exact: true }).waitFor();
  // `n` goes past the muted topic's older unread messages to the next topic worth reading.
  await web.page.keyboard.press('n');
  await web.page.getByRole('heading', { name: /› calm$/ }).waitFor();

  // The combined feed leaves the muted topic out.
  await sidebar.getByRole('link', { name: 'Combined feed' }).click();
  await messageRow(web.page, 'a calm word').waitFor();
  assert.equal(await messageRow(web.page, 'noise').count(), 0);

  // Unmuted elsewhere (another client), the topic's unread messages count again.
  await reader.post('/user_topics', { stream_id: channel.id, topic: 'noisy', visibility_policy: 0 });
  await sidebar.getByRole('link', { name: 'Inbox' }).click();
  await web.page.getByRole('region', { name: 'Inbox' }).getByRole('link', { name: /^noisy/ }).waitFor();
  assert.deepEqual(web.problems, []);
});

test('a channel muted from the channel browser counts only the topics unmuted in it', { skip: NO_CHROMIUM }, async () => {
  const { a: reader, b: talker, channel } = await twoPeople('Channel Muter', 'Channel Talker');
  await reader.post('/mark_all_as_read');
  const web = await suite.open(reader.credentials.email, '#channels');
  const browser = web.page.getByRole('region', { name: 'Channels' });
  await browser.getByRole('button', { name: `Mute ${channel.name}` }).click();
  await browser.getByRole('button', { name: `Unmute ${channel.name}` }).waitFor();
  const stored = (await reader.get('/users/me/subscriptions')).body.subscriptions.find((s: { stream_id: number }) => s.stream_id === channel.id);
  assert.equal(stored.is_muted, true);

  const sidebar = web.page.getByRole('navigation', { name: 'Views, channels and direct messages' });
  await sidebar.getByRole('link', { name: `${channel.name} (muted)` }).waitFor();
  await talker.post('/messages', { type: 'stream', to: channel.id, topic: 'chatter', content: 'chatter in a muted channel' });
  await talker.post('/messages', { type: 'stream', to: channel.id, topic: 'wanted', content: 'the one topic worth reading' });
  await web.page.goto(`${suite.server.url}/#narrow/channel/${channel.id}/topic/wanted`);
  const bar = web.page.locator('.recipient-bar', { hasText: 'wanted' });
  // In a muted channel every topic starts muted; unmuting one marks it unmuted (policy 2).
  await bar.getByRole('button', { name: 'Unmute topic' }).click();
  await bar.getByRole('button', { name: 'Mute topic' }).waitFor();
  assert.deepEqual(await storedPolicies(reader), [[channel.id, 'wanted', 2]]);
  // The unread message of the muted channel's other topic counts nowhere.
  await sidebar.getByRole('link', { name: 'Inbox' }).click();
  const inbox = web.page.getByRole('region', { name: 'Inbox' });
  await inbox.getByText('You have no unread messages.').waitFor();
  await talker.post('/messages', { type: 'stream', to: channel.id, topic: 'wanted', content: 'more of what is wanted' });
  await inbox.getByRole('link', { name: /^wanted/ }).waitFor();
  assert.equal(await inbox.getByRole('link', { name: /^chatter/ }).count(), 0);
  assert.deepEqual(web.problems, []);
});

test('a followed topic counts even in a muted channel, and is:followed finds it', { skip: NO_CHROMIUM }, async () => {
  const { a: reader, b: talker, channel } = await twoPeople('Topic Follower', 'Topic Poster');
  await reader.post('/mark_all_as_read');
  await reader.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: channel.id, property: 'is_muted', value: true }] });
  await talker.post('/messages', { type: 'stream', to: channel.id, topic: 'kept', content: 'a topic worth following' });
  await talker.post('/messages', { type: 'stream', to: channel.id, topic: 'other', content: 'a topic left muted' });
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}/topic/kept`);
  const bar = web.page.locator('.recipient-bar', { hasText: 'kept' });
  await bar.hover();
  await bar.getByRole('button', { name: 'Follow topic' }).click();
  await bar.getByRole('button', { name: 'Unfollow topic' }).waitFor();
  // A followed topic is not muted, though its channel is.
  await bar.getByRole('button', { name: 'Mute topic' }).waitFor();
  assert.deepEqual(await storedPolicies(reader), [[channel.id, 'kept', 3]]);

  const search = web.page.getByRole('searchbox', { name: 'Search messages' });
  await search.fill('is:followed');
  await search.press('Enter');
  await waitUntil(() => web.page.url().endsWith('#narrow/is/followed'), 'the URL is the followed topics');
  await messageRow(web.page, 'a topic worth following').waitFor();
  // A new message in the followed topic joins the view live, unlike the muted topic's.
  await talker.post('/messages', { type: 'stream', to: channel.id, topic: 'kept', content: 'followed and shown' });
  await messageRow(web.page, 'followed and shown').waitFor();
  assert.equal(await messageRow(web.page, 'a topic left muted').count(), 0);
  // Unread, it counts in the Inbox; the muted topic's does not. (Messages shown in a view may be
  // read there, so these arrive once the Inbox is open.)
  await web.page.goto(`${suite.server.url}/#inbox`);
  const inbox = web.page.getByRole('region', { name: 'Inbox' });
  await inbox.waitFor();
  await talker.post('/messages', { type: 'stream', to: channel.id, topic: 'other', content: 'muted and not counted' });
  await talker.post('/messages', { type: 'stream', to: channel.id, topic: 'kept', content: 'followed and counted' });
  await inbox.getByRole('link', { name: /^kept/ }).waitFor();
  assert.equal(await inbox.getByRole('link', { name: /^other/ }).count(), 0);
  assert.deepEqual(web.problems, []);
});

test('code shows in colour, and a message of nothing but emoji shows them enlarged', { skip: NO_CHROMIUM }, async () => {
  const reader = await suite.server.createUser('Code Reader');
  const { id } = await createChannel(suite.server.owner, { principals: [reader.credentials.email] }, uniqueName('code'));
  await reader.post('/messages', { type: 'stream', to: id, topic: 't', content: '```python\ndef speak(): pass\n```' });
  await reader.post('/messages', { type: 'stream', to: id, topic: 't', content: ':tada: :octopus:' });
  await reader.post('/messages', { type: 'stream', to: id, topic: 't', content: 'party :tada:' });
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${id}`);

  // Each runs in the page, where the DOM's getComputedStyle is.
  type Styled = { getComputedStyle(e: unknown): { color: string; fontSize: string } };
  const code = messageRow(web.page, 'def speak').locator('.codehilite');
  const colour = (selector: string) => code.locator(selector).first().evaluate((element) => (globalThis as unknown as Styled).getComputedStyle(element).color);
  assert.notEqual(await colour('.k'), await colour('.nf'), 'a keyword and a function name differ');
  assert.notEqual(await colour('.k'), await code.evaluate((element) => (globalThis as unknown as Styled).getComputedStyle(element).color), 'a keyword is coloured');

  const size = (text: string) => messageRow(web.page, text).locator('.emoji').first().evaluate((element) => parseFloat((globalThis as unknown as Styled).getComputedStyle(element).fontSize));
  const alone = await size('🎉 🐙');
  const inText = await size('party');
  assert.ok(alone >= 1.8 * inText, `emoji alone ${alone}px, in text ${inText}px`);
  assert.deepEqual(web.problems, []);
});

test('a message collapsed from its menu is collapsed in the person\'s other browser too; Show more and `-` bring it back', { skip: NO_CHROMIUM }, async () => {
  const { a: reader, b: writer, channel } = await twoPeople('Collapse Reader', 'Collapse Writer');
  const sent = await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'minutes', content: 'A report nobody needs to see again' });
  await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'minutes', content: 'A short note after it' });
  const desk = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}`);
  const laptop = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}`);
  const text = 'A report nobody needs to see again';

  const row = messageRow(desk.page, text);
  await row.hover();
  await row.getByRole('button', { name: 'More message actions' }).click();
  await desk.page.getByRole('menu', { name: 'More message actions' }).getByRole('menuitem', { name: 'Collapse message' }).click();
  // Collapsed: the content goes, the sender and "Show more" stay, in both of the person's browsers.
  const collapsedIn = (page: typeof desk.page) =>
    page.locator(`[data-message-id="${sent.body.id}"]`).getByRole('button', { name: 'Show more' });
  await collapsedIn(desk.page).waitFor();
  await collapsedIn(laptop.page).waitFor();
  assert.equal(await desk.page.getByText(text).isVisible(), false);
  assert.equal(await laptop.page.getByText(text).isVisible(), false);
  assert.ok((await reader.get(`/messages/${sent.body.id}`)).body.message.flags.includes('collapsed'));
  // The menu now offers to expand it.
  await row.hover();
  await row.getByRole('button', { name: 'More message actions' }).click();
  await desk.page.getByRole('menu', { name: 'More message actions' }).getByRole('menuitem', { name: 'Expand message' }).waitFor();
  await desk.page.keyboard.press('Escape');

  // Show more on the laptop expands it everywhere.
  await collapsedIn(laptop.page).click();
  await laptop.page.getByText(text).waitFor();
  await desk.page.getByText(text).waitFor();
  await waitUntil(async () => !(await reader.get(`/messages/${sent.body.id}`)).body.message.flags.includes('collapsed'), 'the flag is taken off');

  // `-` on the selected message collapses it, and again expands it.
  await laptop.page.getByText(text).click();
  await laptop.page.keyboard.press('-');
  await collapsedIn(laptop.page).waitFor();
  await collapsedIn(desk.page).waitFor();
  await laptop.page.keyboard.press('-');
  await laptop.page.getByText(text).waitFor();
  await desk.page.getByText(text).waitFor();
  assert.deepEqual(desk.problems, []);
  assert.deepEqual(laptop.problems, []);
});

test('read receipts list by name who has read a message, leave out who keeps them private, and follow the organization\'s setting', { skip: NO_CHROMIUM }, async () => {
  const { a: author, b: reader, channel } = await twoPeople('Receipts Author', 'Receipts Reader');
  const privateReader = await suite.server.createUser('Receipts Private');
  await suite.server.owner.post(`/users/me/subscriptions`, { subscriptions: [{ name: channel.name }], principals: [privateReader.credentials.email] });
  await privateReader.patch('/settings', { send_read_receipts: false });
  const sent = await author.post('/messages', { type: 'stream', to: channel.id, topic: 'receipts', content: 'Who has seen this?' });
  await reader.post('/messages/flags', { messages: [sent.body.id], op: 'add', flag: 'read' });
  await privateReader.post('/messages/flags', { messages: [sent.body.id], op: 'add', flag: 'read' });

  const web = await suite.open(author.credentials.email, `#narrow/channel/${channel.id}`);
  const row = messageRow(web.page, 'Who has seen this?');
  await row.hover();
  await row.getByRole('button', { name: 'More message actions' }).click();
  await web.page.getByRole('menu', { name: 'More message actions' }).getByRole('menuitem', { name: 'View read receipts' }).click();
  const dialog = web.page.getByRole('dialog', { name: 'Read receipts' });
  const readers = dialog.getByRole('list', { name: 'Read by' });
  await readers.waitFor();
  // As the server answers: the reader who shares receipts, not the one who keeps them private.
  const answer = await author.get(`/messages/${sent.body.id}/read_receipts`);
  assert.ok(answer.body.user_ids.includes(reader.userId));
  assert.ok(!answer.body.user_ids.includes(privateReader.userId));
  const names = await readers.getByRole('listitem').allInnerTexts();
  assert.ok(names.map((n) => n.trim()).includes('Receipts Reader'), `listed: ${names.join(', ')}`);
  assert.ok(!names.map((n) => n.trim()).includes('Receipts Private'));
  assert.match(await dialog.innerText(), new RegExp(`read by ${answer.body.user_ids.length} (person|people):`));
  await web.page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });

  // With receipts turned off, the menu stops offering them once the change reaches the page
  // (waited for: pressing Shift+V before the event arrives would rightly ask the server, which
  // refuses), and Shift+V on the selected message says they are off.
  await suite.server.owner.patch('/realm', { enable_read_receipts: false });
  await row.hover();
  await row.getByRole('button', { name: 'More message actions' }).click();
  const menu = web.page.getByRole('menu', { name: 'More message actions' });
  await menu.getByRole('menuitem', { name: 'Copy link to message' }).waitFor();
  await menu.getByRole('menuitem', { name: 'View read receipts' }).waitFor({ state: 'detached' });
  await web.page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  await row.click();
  await web.page.keyboard.press('Shift+V');
  await dialog.getByText('Read receipts are disabled for this organization.').waitFor();
  // Shift+V again closes it, as in Zulip.
  await web.page.keyboard.press('Shift+V');
  await dialog.waitFor({ state: 'detached' });
  await suite.server.owner.patch('/realm', { enable_read_receipts: true });
  assert.deepEqual(web.problems, []);
});

test('a /me message shows as its sender\'s status, and one sender\'s messages share a header all day', { skip: NO_CHROMIUM }, async () => {
  const { a: reader, b: writer, channel } = await twoPeople('Status Reader', 'Status Writer');
  const first = await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'day', content: 'Morning, everyone.' });
  // Moved back half an hour (less just after midnight: the same day, in the browser's time
  // zone, which is the machine's): still one header, as Zulip groups a sender within a day.
  const now = Math.floor(Date.now() / 1000);
  const sinceMidnight = now - Math.floor(new Date(new Date().setHours(0, 0, 0, 0)).getTime() / 1000);
  const gap = Math.min(30 * 60, sinceMidnight - 5);
  suite.server.stoa.db.prepare('UPDATE messages SET date_sent = ? WHERE id = ?').run(now - Math.max(gap, 0), first.body.id);
  await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'day', content: 'Coffee is ready.' });
  const me = await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'day', content: '/me is off to **lunch**' });
  await writer.post('/messages', { type: 'stream', to: channel.id, topic: 'day', content: 'Back in an hour.' });
  assert.equal((await writer.get(`/messages/${me.body.id}`)).body.message.is_me_message, true);
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}/topic/day`);
  await messageRow(web.page, 'Back in an hour.').waitFor();

  // Headers: the first message's, the status line's, and the one after it.
  const headers = web.page.locator('.message-row .message-header');
  const names = await headers.allInnerTexts();
  assert.equal(names.length, 3, `headers: ${names.join(' | ')}`);
  assert.match(names[0], /^Status Writer/);
  assert.match(names[1], /^Status Writer\s+is off to lunch/);
  assert.equal(await headers.nth(1).locator('strong').innerText(), 'lunch');
  assert.match(names[2], /^Status Writer/);
  // The status is not repeated below as "/me …".
  assert.equal(await web.page.getByText('/me is off').count(), 0);
  assert.deepEqual(web.problems, []);
});

test('past the organization\'s edit time limit, one\'s own message is offered to move, not to edit, as in Zulip', { skip: NO_CHROMIUM }, async () => {
  const { a: author, b: other, channel } = await twoPeople('Limit Author', 'Limit Other');
  const fresh = await author.post('/messages', { type: 'stream', to: channel.id, topic: 'limits', content: 'Written just now' });
  const old = await author.post('/messages', { type: 'stream', to: channel.id, topic: 'limits', content: 'Written long ago' });
  const oldDm = await author.post('/messages', { type: 'private', to: JSON.stringify([other.userId]), content: 'A direct message long ago' });
  const twoHoursAgo = Math.floor(Date.now() / 1000) - 2 * 3600;
  for (const id of [old.body.id, oldDm.body.id]) suite.server.stoa.db.prepare('UPDATE messages SET date_sent = ? WHERE id = ?').run(twoHoursAgo, id);
  const before = (await suite.server.owner.post('/register', { fetch_event_types: JSON.stringify(['realm']) })).body.realm_message_content_edit_limit_seconds as number | null;
  await suite.server.owner.patch('/realm', { message_content_edit_limit_seconds: 3600 });
  try {
    const web = await suite.open(author.credentials.email, `#narrow/channel/${channel.id}/topic/limits`);
    const { page } = web;
    const menuFor = async (text: string) => {
      const row = messageRow(page, text);
      await row.hover();
      await row.getByRole('button', { name: 'More message actions' }).click();
      return page.getByRole('menu', { name: 'More message actions' });
    };
    // Within the limit: edit, with the text.
    let menu = await menuFor('Written just now');
    await menu.getByRole('menuitem', { name: 'Edit message' }).click();
    await page.getByRole('form', { name: 'Edit message' }).getByRole('textbox', { name: 'Message content' }).waitFor();
    await page.keyboard.press('Escape');
    // Past it: move only, the topic and no text.
    menu = await menuFor('Written long ago');
    assert.equal(await menu.getByRole('menuitem', { name: 'Edit message' }).count(), 0);
    await menu.getByRole('menuitem', { name: 'Move message' }).click();
    const mover = page.getByRole('form', { name: 'Move message' });
    await mover.getByRole('textbox', { name: 'Topic' }).waitFor();
    assert.equal(await mover.getByRole('textbox', { name: 'Message content' }).count(), 0);
    await page.keyboard.press('Escape');
    await mover.waitFor({ state: 'detached' });
    // ← in the empty compose box does nothing when one's latest message is past the limit.
    await messageRow(page, 'Written long ago').click();
    await page.keyboard.press('ArrowLeft');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await page.getByRole('form', { name: /^(Edit|Move) message$/ }).count(), 0);
    // A direct message past it: `e` shows its source.
    await page.evaluate((hash) => ((globalThis as unknown as { location: { hash: string } }).location.hash = hash), `#narrow/dm/${other.userId}`);
    await messageRow(page, 'A direct message long ago').click();
    await page.keyboard.press('e');
    await page.getByRole('dialog', { name: 'Message source' }).getByText('A direct message long ago').waitFor();
    assert.equal(fresh.status, 200);
    assert.deepEqual(web.problems, []);
  } finally {
    await suite.server.owner.patch('/realm', { message_content_edit_limit_seconds: before === null ? JSON.stringify('unlimited') : before });
  }
});

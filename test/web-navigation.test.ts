import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { sendRead, unreadIds } from './support/messages';
import { feedTexts, isFocused, messageRow, waitUntil, webSuite, type WebUser } from './support/web';

/**
 * Finding one's way in the web client: the sidebar's topics, marking many messages read, search
 * with suggestions, Recent conversations and the home view, keyboard shortcuts, and the actions
 * of a message's menu.
 */

const suite = webSuite();
type Person = Awaited<ReturnType<typeof suite.server.createUser>>;

async function channelWith(people: Person[], prefix = 'nav'): Promise<{ name: string; id: number }> {
  const name = uniqueName(prefix);
  const { id } = await createChannel(suite.server.owner, { principals: people.map((p) => p.credentials.email) }, name);
  return { name, id };
}

function sidebar(web: WebUser) {
  return web.page.getByRole('navigation', { name: 'Views, channels and direct messages' });
}

function countIn(web: WebUser, label: RegExp) {
  return sidebar(web).getByLabel(label);
}

test('the sidebar shows eight recent topics, and "more topics" shows all of them with a filter', { skip: NO_CHROMIUM }, async () => {
  const ada = await suite.server.createUser('Ada Topics');
  const channel = await channelWith([ada]);
  for (let i = 1; i <= 16; i++) await sendRead(ada, channel.id, `topic ${String(i).padStart(2, '0')}`, `note ${i}`);
  const web = await suite.open(ada.credentials.email, `#narrow/channel/${channel.id}`);
  const topicList = sidebar(web).getByRole('list', { name: `Topics in ${channel.name}` });
  await topicList.getByRole('link', { name: 'topic 16' }).waitFor();
  assert.equal(await topicList.getByRole('link').count(), 8, 'the eight most recent topics');
  assert.equal(await topicList.getByRole('link', { name: 'topic 08' }).count(), 0);

  await sidebar(web).getByRole('button', { name: /more topics/ }).click();
  await topicList.getByRole('link', { name: 'topic 01' }).waitFor();
  assert.equal(await topicList.getByRole('link').count(), 17, 'every topic of the channel, its creation notice\'s too');
  const filter = sidebar(web).getByRole('searchbox', { name: 'Filter topics' });
  await waitUntil(() => filter.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement), 'the filter has the focus');
  await filter.fill('topic 1');
  await waitUntil(async () => (await topicList.getByRole('link').count()) === 7, 'the filter keeps topics 10 to 16');
  await topicList.getByRole('link', { name: 'topic 03' }).waitFor({ state: 'detached' });

  await sidebar(web).getByRole('button', { name: 'back to channels' }).click();
  await waitUntil(async () => (await topicList.getByRole('link').count()) === 8, 'back to the recent eight');
  assert.deepEqual(web.problems, []);
});

test('an older link naming a channel (`#narrow/stream/NAME/topic/T`) opens that channel\'s topic at its ID address', { skip: NO_CHROMIUM }, async () => {
  const ada = await suite.server.createUser('Ada Oldlinks');
  const channel = await channelWith([ada], 'oldlink');
  await sendRead(ada, channel.id, 'castle', 'The castle gate is open.');
  const named = channel.name.replace(/ /g, '.20');
  const web = await suite.open(ada.credentials.email, `#narrow/stream/${named}/topic/castle`);
  const { page } = web;
  await messageRow(page, 'The castle gate is open.').waitFor();
  await waitUntil(async () => (await page.getByRole('heading', { level: 1 }).innerText()) === `#${channel.name} › castle`, 'the heading names the channel and topic');
  assert.ok(page.url().endsWith(`#narrow/channel/${channel.id}-${channel.name.replace(/ /g, '-')}/topic/castle`), page.url());
  // The sidebar shows the channel open, with its topics.
  await sidebar(web).getByRole('list', { name: `Topics in ${channel.name}` }).getByRole('link', { name: 'castle' }).waitFor();
  assert.equal(await sidebar(web).locator('a[aria-current="page"]').filter({ hasText: channel.name }).count(), 1);
  assert.deepEqual(web.problems, []);
});

test('"Mark all messages as read" for a topic, a channel and everything: counts fall here and in another browser of the same person', { skip: NO_CHROMIUM }, async () => {
  const reader = await suite.server.createUser('Reader Marks');
  const writer = await suite.server.createUser('Writer Marks');
  const first = await channelWith([reader, writer]);
  const second = await channelWith([reader, writer]);
  await reader.post('/mark_all_as_read');
  await sendRead(writer, first.id, 'alpha', 'alpha one');
  await sendRead(writer, first.id, 'alpha', 'alpha two');
  await sendRead(writer, first.id, 'beta', 'beta one');
  await sendRead(writer, second.id, 'gamma', 'gamma one');
  const gamma2 = await sendRead(writer, second.id, 'gamma', 'gamma two');
  const here = await suite.open(reader.credentials.email, '#inbox');
  const there = await suite.open(reader.credentials.email, '#inbox');
  // The channel is opened (so its topics show) at another message, not one of those counted.
  await here.page.goto(`${suite.server.url}/#narrow/channel/${first.id}/topic/none`);
  await countIn(here, new RegExp(`^2 unread messages in alpha$`)).waitFor();

  await sidebar(here).getByRole('button', { name: 'Topic menu for alpha' }).click();
  await here.page.getByRole('menuitem', { name: 'Mark all messages as read' }).click();
  await countIn(here, /unread messages in alpha$/).waitFor({ state: 'detached' });
  await countIn(here, new RegExp(`^1 unread messages in ${first.name}$`)).waitFor();
  await countIn(there, new RegExp(`^1 unread messages in ${first.name}$`)).waitFor();

  await sidebar(here).getByRole('button', { name: `Channel menu for ${second.name}` }).click();
  await here.page.getByRole('menuitem', { name: 'Mark all messages as read' }).click();
  await countIn(there, new RegExp(`unread messages in ${second.name}$`)).waitFor({ state: 'detached' });
  assert.equal((await unreadIds(reader)).length, 1, 'only beta is left');
  assert.ok(!(await unreadIds(reader)).includes(gamma2));

  // Everything: the person is asked first, and Cancel leaves the counts.
  await sidebar(here).getByRole('button', { name: 'Views menu' }).click();
  await here.page.getByRole('menuitem', { name: 'Mark all messages as read' }).click();
  const question = here.page.getByRole('dialog', { name: 'Mark all messages as read?' });
  await question.getByRole('button', { name: 'Cancel' }).click();
  await question.waitFor({ state: 'detached' });
  assert.equal((await unreadIds(reader)).length, 1);
  await sidebar(here).getByRole('button', { name: 'Views menu' }).click();
  await here.page.getByRole('menuitem', { name: 'Mark all messages as read' }).click();
  await question.getByRole('button', { name: 'Mark all as read' }).click();
  await countIn(there, /^1 unread messages$/).waitFor({ state: 'detached' });
  await countIn(here, /^1 unread messages$/).waitFor({ state: 'detached' });
  assert.deepEqual(await unreadIds(reader), []);
  assert.deepEqual(here.problems, []);
  assert.deepEqual(there.problems, []);
});

test('search suggests operators, people by name, channels and topics; names find people; phrases keep their quotes; matches are marked; the title says what was searched', { skip: NO_CHROMIUM }, async () => {
  const othello = await suite.server.createUser('Othello Searchable');
  const iago = await suite.server.createUser('Iago Searcher');
  const channel = await channelWith([othello, iago], 'search');
  await sendRead(othello, channel.id, 'castle walls', 'The handkerchief was lost near the castle.');
  await sendRead(iago, channel.id, 'harbour', 'A ship arrives at the harbour.');
  await sendRead(iago, channel.id, 'castle walls', 'Handkerchief? What handkerchief?');
  const web = await suite.open(iago.credentials.email, '#feed');
  const { page } = web;
  const search = page.getByRole('searchbox', { name: 'Search messages' });
  const suggestions = page.getByRole('listbox', { name: 'Search suggestions' });

  // Operators first, then a person by name.
  await search.click();
  await suggestions.getByRole('option', { name: /^sender:/ }).waitFor();
  await search.fill('sender:othello sea');
  await suggestions.getByRole('option', { name: 'Sent by Othello Searchable' }).waitFor();
  // A channel by part of its name, then the topics of that channel.
  await search.fill(`channel:${channel.name.slice(0, 5)}`);
  await suggestions.getByRole('option', { name: `Channel #${channel.name}` }).click();
  await waitUntil(() => page.url().endsWith(`#narrow/channel/${channel.id}-${channel.name.replace(/ /g, '-')}`), 'the channel is open');
  // `/` puts the cursor after the open narrow's terms, ready for another.
  await page.keyboard.press('/');
  await page.keyboard.type('topic:cas');
  await suggestions.getByRole('option', { name: 'Topic castle walls' }).waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await waitUntil(() => page.url().endsWith('/topic/castle.20walls'), 'the topic is open');
  // The view (and its heading) changes when the topic's messages have come.
  await waitUntil(async () => (await page.getByRole('heading', { level: 1 }).innerText()) === `#${channel.name} › castle walls`, 'the topic is shown');

  // A person by name, as typed without choosing a suggestion.
  await search.fill('sender:"Othello Searchable"');
  await search.press('Enter');
  await waitUntil(() => page.url().includes(`#narrow/sender/${othello.userId}-`), 'the sender narrow by ID').catch(async (err) => {
    await page.screenshot({ path: '/tmp/wn-fail3.png' });
    throw new Error(`${(err as Error).message} ${page.url()}`);
  });
  await messageRow(page, 'The handkerchief was lost').waitFor();
  assert.deepEqual(await feedTexts(page), ['The handkerchief was lost near the castle.']);
  assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Messages sent by Othello Searchable');
  assert.equal(await search.inputValue(), `sender:${othello.credentials.email}`);
  // No one of that name: a plain sentence, and no request the server refuses.
  await search.fill('sender:Nobody');
  await search.press('Enter');
  await page.getByRole('alert').filter({ hasText: 'No one called “Nobody” was found.' }).waitFor();

  // A phrase keeps its quotes in the box and in the URL; the matches are marked.
  await search.fill('"what handkerchief"');
  await search.press('Enter');
  await waitUntil(() => page.url().endsWith('#narrow/search/.22what.20handkerchief.22'), 'the phrase in the URL');
  await messageRow(page, 'What handkerchief?').waitFor();
  assert.deepEqual(await feedTexts(page), ['Handkerchief? What handkerchief?']);
  assert.equal(await search.inputValue(), '"what handkerchief"');
  assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Search results');
  await page.reload();
  await messageRow(page, 'What handkerchief?').waitFor();
  assert.equal(await search.inputValue(), '"what handkerchief"');

  await search.fill('handkerchief');
  await search.press('Enter');
  await messageRow(page, 'The handkerchief was lost').waitFor();
  const marked = await page.locator('.message-content .highlight').allInnerTexts();
  assert.deepEqual(marked.map((t) => t.toLowerCase()), ['handkerchief', 'handkerchief', 'handkerchief']);
  assert.deepEqual(web.problems, []);
});

test('Recent conversations lists topics and direct messages by activity with filters, live; it can be the home view', { skip: NO_CHROMIUM }, async () => {
  const viola = await suite.server.createUser('Viola Recent');
  const orsino = await suite.server.createUser('Orsino Recent');
  const channel = await channelWith([viola, orsino], 'recent');
  await viola.post('/mark_all_as_read');
  await sendRead(orsino, channel.id, 'music', 'If music be the food of love');
  await sendRead(viola, channel.id, 'letters', 'I left no ring with her');
  await orsino.post('/messages', { type: 'private', to: [viola.userId], content: 'a word in private' });
  const web = await suite.open(viola.credentials.email, '#recent');
  const { page } = web;
  const list = page.getByRole('list', { name: 'Conversations' });
  const rows = list.getByRole('listitem');
  await rows.first().waitFor();
  const names = async () => (await list.locator('.recent-topic .name').allInnerTexts());
  await waitUntil(async () => (await names()).length >= 3, 'three conversations');
  assert.deepEqual((await names()).slice(0, 3), ['Orsino Recent', 'letters', 'music']);
  // The count is a button of its own beside the topic's link (it marks the topic read).
  await rows.filter({ has: page.getByRole('link', { name: 'music', exact: true }) }).getByRole('button', { name: 'Mark 1 message as read' }).waitFor();
  await rows.filter({ hasText: 'music' }).getByLabel('Participants: Orsino Recent').waitFor();

  await page.getByRole('button', { name: 'Participated' }).click();
  await waitUntil(async () => JSON.stringify(await names()) === JSON.stringify(['letters']), 'only where Viola wrote');
  await page.getByRole('button', { name: 'Participated' }).click();
  await page.getByRole('button', { name: 'Unread' }).click();
  await waitUntil(async () => JSON.stringify(await names()) === JSON.stringify(['Orsino Recent', 'music']), 'only unread ones');
  await page.getByRole('button', { name: 'Unread' }).click();

  // A new message moves its topic to the top, with the new sender among the participants.
  await sendRead(viola, channel.id, 'music', 'Then play on');
  await waitUntil(async () => (await names())[0] === 'music', 'music is the latest');
  await rows.filter({ hasText: 'music' }).getByLabel('Participants: Viola Recent, Orsino Recent').waitFor();

  // Muted topics show only with "Include muted".
  await viola.post('/user_topics', { stream_id: channel.id, topic: 'letters', visibility_policy: 1 });
  await waitUntil(async () => !(await names()).includes('letters'), 'the muted topic is left out');
  await page.getByRole('button', { name: 'Include muted' }).click();
  await waitUntil(async () => (await names()).includes('letters'), 'the muted topic is included');

  // The home view, chosen in the personal settings, is what the bare address opens.
  await page.goto(`${suite.server.url}/#settings/preferences`);
  const home = page.getByRole('combobox', { name: 'Home view' });
  assert.equal(await home.inputValue(), 'inbox');
  await home.selectOption('recent');
  await waitUntil(async () => {
    const settings = (await viola.post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings;
    return settings.web_home_view === 'recent_topics' || settings.web_home_view === 'recent';
  }, 'the server keeps the choice');
  await page.goto(`${suite.server.url}/`);
  await page.getByRole('region', { name: 'Recent conversations' }).waitFor();
  assert.match(await page.title(), /^(\(\d+\) )?Recent conversations/);
  assert.deepEqual(web.problems, []);
});

test('in the inbox and in Recent conversations the arrow keys and j/k go from conversation to conversation, and Enter opens one', { skip: NO_CHROMIUM }, async () => {
  const reader = await suite.server.createUser('Row Reader');
  const writer = await suite.server.createUser('Row Writer');
  const { name, id } = await channelWith([reader, writer], 'rows');
  for (const topic of ['apples', 'pears']) await writer.post('/messages', { type: 'stream', to: id, topic, content: `About ${topic}.` });
  const web = await suite.open(reader.credentials.email, '#inbox');
  const { page } = web;
  const inbox = page.getByRole('region', { name: 'Inbox' });
  await inbox.getByRole('link', { name: /pears/ }).waitFor();
  const focused = () => page.evaluate<string>("document.activeElement?.textContent?.trim() ?? ''");
  // The first press reaches the first row; then down, down and back up.
  await page.keyboard.press('ArrowDown');
  const rows = await inbox.locator('[data-row-link]').allTextContents();
  assert.equal(await focused(), rows[0].trim());
  const channelRow = rows.findIndex((text) => text.trim() === `#${name}`);
  assert.ok(channelRow >= 0, JSON.stringify(rows));
  for (let i = 0; i < channelRow + 2; i++) await page.keyboard.press('j');
  await page.keyboard.press('k');
  assert.match(await focused(), /^apples/);
  await page.keyboard.press('Enter');
  await page.waitForURL(/topic\/apples$/);
  await messageRow(page, 'About apples.').waitFor();

  await page.evaluate(`location.hash = '#recent'`);
  const recent = page.getByRole('list', { name: 'Conversations' });
  await recent.getByRole('link', { name: 'pears' }).waitFor();
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), (await recent.locator('[data-row-link]').first().textContent())?.trim());
  const topics = (await recent.locator('[data-row-link]').allTextContents()).map((t) => t.trim());
  for (let i = 0; i < topics.indexOf('pears'); i++) await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), 'pears');
  await page.keyboard.press('Enter');
  await page.waitForURL(/topic\/pears$/);
  await messageRow(page, 'About pears.').waitFor();

  // Shift+M on a topic's row mutes it, as in Zulip's lists, which then leave it out.
  const policy = async () => {
    const state = (await reader.post('/register', { fetch_event_types: JSON.stringify(['user_topic']) })).body;
    return (state.user_topics as Array<{ stream_id: number; topic_name: string; visibility_policy: number }>).find((t) => t.stream_id === id && t.topic_name === 'pears')?.visibility_policy ?? 0;
  };
  await page.evaluate(`location.hash = '#recent'`);
  await recent.getByRole('link', { name: 'pears' }).focus();
  await page.keyboard.press('M');
  await waitUntil(async () => (await policy()) === 1, 'pears is muted');
  await recent.getByRole('link', { name: 'pears' }).waitFor({ state: 'detached' });
  await reader.post('/user_topics', { stream_id: id, topic: 'pears', visibility_policy: 0 });
  assert.deepEqual(web.problems, []);
});

test('keyboard: ? lists the shortcuts, and R > e Ctrl+S + i M Home and n work on the selected message', { skip: NO_CHROMIUM }, async () => {
  const kate = await suite.server.createUser('Kate Keys');
  const petruchio = await suite.server.createUser('Petruchio Keys');
  const channel = await channelWith([kate, petruchio], 'keys');
  await sendRead(kate, channel.id, 'shrew', 'my own words');
  const his = await sendRead(petruchio, channel.id, 'shrew', 'Good morrow, **Kate**');
  const web = await suite.open(kate.credentials.email, `#narrow/channel/${channel.id}/topic/shrew`);
  const { page } = web;
  const row = messageRow(page, 'Good morrow');
  await row.waitFor();
  await page.locator('.message-row.selected', { hasText: 'Good morrow' }).waitFor();

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await help.getByText('Quote and reply').waitFor();
  // The keys of the image viewer and of the compose box are listed too, each group whole on the screen.
  for (const group of ['The basics', 'Moving among messages', 'The selected message', 'Going to a view', 'Writing a message']) assert.ok(await help.getByRole('region', { name: group }).isVisible(), group);
  assert.ok(await help.getByText('View the images in the message').isVisible());
  // Zulip 10.2's meanings: * opens the starred messages, Ctrl+S stars.
  const keyOf = async (what: string) => (await help.locator('dl > div', { has: page.getByText(what, { exact: true }) }).locator('kbd').innerText()).trim();
  assert.equal(await keyOf('Starred messages'), '*');
  assert.equal(await keyOf('Star or unstar'), 'Ctrl+S');
  const groups = (await help.locator('.shortcut-groups').boundingBox())!;
  const last = (await help.getByText('In an empty box: edit your latest message').boundingBox())!;
  assert.ok(last.y + last.height <= groups.y + groups.height && last.x + last.width <= groups.x + groups.width, 'the last key is in sight without scrolling');
  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'detached' });

  // Ctrl+S stars, + reacts with a thumbs up.
  await page.keyboard.press('Control+s');
  await row.getByRole('button', { name: 'Unstar' }).waitFor();
  await page.keyboard.press('+');
  await row.getByRole('button', { name: /^\+1: 1/ }).waitFor();
  const fetched = (await kate.get(`/messages/${his}`)).body.message;
  assert.ok(fetched.flags.includes('starred'));
  assert.deepEqual(fetched.reactions.map((r: { emoji_name: string }) => r.emoji_name), ['+1']);

  // > quotes the message in a reply; R writes to its author directly.
  await page.keyboard.press('>');
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await waitUntil(async () => (await box.inputValue()).includes('Good morrow, **Kate**'), 'the quote is in the compose box');
  const quote = await box.inputValue();
  assert.match(quote, new RegExp(`^@_\\*\\*Petruchio Keys\\|${petruchio.userId}\\*\\* \\[said\\]\\(.*/near/${his}\\):\\n\`\`\`quote\\nGood morrow, \\*\\*Kate\\*\\*\\n\`\`\`\\n$`));
  await box.fill('');
  await page.keyboard.press('Escape');
  await box.waitFor({ state: 'detached' });
  await page.keyboard.press('R');
  await page.getByRole('combobox', { name: 'Direct message recipients' }).waitFor();
  await page.getByText('Petruchio Keys', { exact: false }).first().waitFor();
  // Escape closes the compose box (a second one would go to the home view).
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Direct message recipients' }).waitFor({ state: 'detached' });

  // Home selects the first message; e edits one's own.
  await page.locator('.message-scroller').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Home');
  await page.locator('.message-row.selected', { hasText: 'my own words' }).waitFor();
  await page.keyboard.press('e');
  await page.getByRole('form', { name: 'Edit message' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('form', { name: 'Edit message' }).waitFor({ state: 'detached' });

  // i opens the message's actions menu.
  await page.keyboard.press('i');
  await page.getByRole('menu', { name: 'More message actions' }).getByRole('menuitem', { name: 'View message source' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('menu', { name: 'More message actions' }).waitFor({ state: 'detached' });

  // M mutes the topic.
  await page.locator('.message-scroller').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('M');
  await page.locator('.recipient-bar').getByRole('button', { name: 'Unmute topic' }).waitFor();
  const state = (await kate.post('/register', { fetch_event_types: ['user_topic'] })).body;
  assert.deepEqual(state.user_topics.map((t: { topic_name: string; visibility_policy: number }) => [t.topic_name, t.visibility_policy]), [['shrew', 1]]);

  // Tooltips name only keys that work.
  await row.hover();
  assert.equal(await row.getByRole('button', { name: 'Reply', exact: true }).getAttribute('title'), 'Reply (r)');
  assert.equal(await row.getByRole('button', { name: 'Unstar' }).getAttribute('title'), 'Unstar (Ctrl+S)');
  assert.deepEqual(web.problems, []);
});

test('keyboard: I t a * P d go to the views, s and z between a message\'s conversation and its channel, N to a followed topic, w and Ctrl+K to the filters, Ctrl+[ home', { skip: NO_CHROMIUM }, async () => {
  const rosa = await suite.server.createUser('Rosa Views');
  const orlando = await suite.server.createUser('Orlando Views');
  await rosa.post('/mark_all_as_read');
  const channel = await channelWith([rosa, orlando], 'views');
  const starred = await sendRead(orlando, channel.id, 'forest', 'Under the greenwood tree');
  await sendRead(orlando, channel.id, 'forest', 'Who loves to lie with me');
  await rosa.post('/messages/flags', { messages: JSON.stringify([starred]), op: 'add', flag: 'starred' });
  await orlando.post('/messages', { type: 'private', to: JSON.stringify([rosa.userId]), content: 'A letter on a tree' });
  await rosa.post('/mark_all_as_read');
  // Unread: first in a topic not followed, then in a followed one; Shift+N passes the first.
  await orlando.post('/messages', { type: 'stream', to: channel.id, topic: 'court', content: 'News from court' });
  await orlando.post('/messages', { type: 'stream', to: channel.id, topic: 'verses', content: 'Hang there, my verse' });
  await rosa.post('/user_topics', { stream_id: channel.id, topic: 'verses', visibility_policy: 3 });
  const web = await suite.open(rosa.credentials.email, `#narrow/channel/${channel.id}/topic/forest`);
  const { page } = web;
  const title = page.locator('h1.narrow-title');
  await messageRow(page, 'Who loves').waitFor();
  await page.locator('.message-row.selected', { hasText: 'Who loves' }).waitFor();

  // Shift+N: the followed topic with unread messages, past an older unread one that is not followed.
  await page.keyboard.press('N');
  await page.waitForURL(/topic\/verses$/);
  await messageRow(page, 'Hang there').waitFor();

  // Letters with a modifier they do not name do nothing, nor do keys typed in a text box.
  await page.keyboard.press('Alt+t');
  const search = page.locator('input[aria-label="Search messages"]');
  await search.click();
  await page.keyboard.type('ta');
  assert.match(page.url(), /topic\/verses$/);
  await search.fill('');
  await page.keyboard.press('Escape');
  assert.equal(await isFocused(search), false);
  assert.match(page.url(), /topic\/verses$/);

  await page.keyboard.press('I');
  await page.waitForURL(/#inbox$/);
  await page.getByRole('region', { name: 'Inbox' }).waitFor();
  await page.keyboard.press('t');
  await page.waitForURL(/#recent$/);
  await page.getByRole('list', { name: 'Conversations' }).waitFor();
  await page.keyboard.press('a');
  await page.waitForURL(/#feed$/);
  await waitUntil(async () => (await title.innerText()) === 'Combined feed', 'the combined feed');
  await page.keyboard.press('*');
  await page.waitForURL(/is\/starred$/);
  await waitUntil(async () => (await title.innerText()) === 'Starred messages', 'the starred messages');
  await messageRow(page, 'Under the greenwood tree').waitFor();
  assert.equal(await page.locator('.message-row:not(.local-echo)').count(), 1);
  await page.keyboard.press('P');
  await page.waitForURL(/is\/dm$/);
  await messageRow(page, 'A letter on a tree').waitFor();
  await page.keyboard.press('d');
  await page.waitForURL(/#drafts$/);
  await page.getByRole('main', { name: 'Drafts' }).waitFor();
  // d again closes the drafts, back where one was.
  await page.keyboard.press('d');
  await page.waitForURL(/is\/dm$/);

  // z: the starred message in its topic, around it; s from there to the topic, and from the topic to its channel.
  await page.keyboard.press('*');
  await messageRow(page, 'Under the greenwood tree').waitFor();
  await page.locator('.message-row.selected', { hasText: 'Under the greenwood tree' }).waitFor();
  await page.keyboard.press('z');
  await page.waitForURL(new RegExp(`topic/forest/near/${starred}$`));
  await messageRow(page, 'Who loves').waitFor();
  await page.locator('.message-row.selected', { hasText: 'Under the greenwood tree' }).waitFor();
  await page.keyboard.press('s');
  await page.waitForURL(/topic\/forest$/);
  await waitUntil(async () => (await title.innerText()).endsWith('forest'), 'the topic');
  await page.locator('.message-row.selected').waitFor();
  await page.keyboard.press('s');
  await page.waitForURL(new RegExp(`channel/${channel.id}-[^/]*$`));
  await waitUntil(async () => (await title.innerText()) === `#${channel.name}`, 'the channel');
  // In the channel, s goes to the selected message's topic.
  await page.locator('.message-row.selected').waitFor();
  await page.keyboard.press('s');
  await page.waitForURL(/topic\/(forest|court|verses)$/);

  // Ctrl+K searches as / does; w finds a person.
  await page.keyboard.press('Control+k');
  await waitUntil(() => page.evaluate("document.activeElement?.getAttribute('aria-label') === 'Search messages'"), 'the search box has the focus');
  await page.keyboard.press('Escape');
  await page.keyboard.press('w');
  const filter = page.getByRole('searchbox', { name: 'Filter people' });
  await waitUntil(() => isFocused(filter), 'the people filter has the focus');
  await page.keyboard.type('Orlando');
  await page.getByRole('complementary', { name: 'People' }).getByText('Orlando Views').waitFor();
  await page.keyboard.press('Escape');

  // Ctrl+[ goes home even when Escape is set not to.
  await page.waitForURL(/topic\/(forest|court|verses)$/);
  const here = page.url();
  await rosa.patch('/settings', { web_escape_navigates_to_home_view: false });
  await page.waitForTimeout(1000);
  await page.keyboard.press('Escape');
  assert.equal(page.url(), here);
  await page.keyboard.press('Control+BracketLeft');
  await page.waitForURL(/#inbox$/);
  assert.deepEqual(web.problems, []);
});

test('keyboard on the selected message: Ctrl+S stars even while writing, = and : react, @ replies mentioning, u shows the card, m moves, H shows the history, U marks unread, ← edits, Alt+P previews', { skip: NO_CHROMIUM }, async () => {
  const viola = await suite.server.createUser('Viola Selected');
  const orsino = await suite.server.createUser('Orsino Selected');
  await viola.post('/mark_all_as_read');
  const channel = await channelWith([viola, orsino], 'selected');
  const mine = await sendRead(viola, channel.id, 'music', 'If music be the food of love');
  const his = await sendRead(orsino, channel.id, 'music', 'Play on');
  const last = await sendRead(orsino, channel.id, 'music', 'Give me excess of it');
  assert.equal((await orsino.post(`/messages/${his}/reactions`, { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' })).status, 200);
  assert.equal((await orsino.patch(`/messages/${his}`, { content: 'Play on, play on' })).status, 200);
  const web = await suite.open(viola.credentials.email, `#narrow/channel/${channel.id}/topic/music`);
  const { page } = web;
  const row = messageRow(page, 'Play on, play on');
  await row.waitFor();
  await messageRow(page, 'Give me excess').waitFor();
  await page.keyboard.press('End');
  await page.locator('.message-row.selected', { hasText: 'Give me excess' }).waitFor();
  await page.keyboard.press('k');
  await page.locator('.message-row.selected', { hasText: 'Play on, play on' }).waitFor();

  // = adds one's vote to the first reaction, and takes it back.
  await page.keyboard.press('=');
  await row.getByRole('button', { name: /^tada: 2/, pressed: true }).waitFor();
  await page.keyboard.press('=');
  await row.getByRole('button', { name: /^tada: 1/, pressed: false }).waitFor();
  // : opens the emoji picker for the message; Escape closes it.
  await page.keyboard.press(':');
  const picker = row.getByRole('dialog', { name: 'Choose an emoji' });
  await picker.waitFor();
  await page.keyboard.press('Escape');
  await picker.waitFor({ state: 'detached' });

  // H: the edit history; u: the sender's card.
  await page.keyboard.press('H');
  const history = page.getByRole('dialog', { name: 'Message edit history' });
  await history.getByText(/Edited by Orsino Selected/).waitFor();
  await page.keyboard.press('Escape');
  await history.waitFor({ state: 'detached' });
  await page.keyboard.press('u');
  const card = page.getByRole('dialog', { name: 'Orsino Selected' });
  await card.waitFor();
  await page.keyboard.press('Escape');
  await card.waitFor({ state: 'detached' });

  // @ replies in the topic, starting with a mention of the sender; Ctrl+S stars from the compose box too.
  await page.keyboard.press('@');
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await waitUntil(async () => (await box.inputValue()) === '@**Orsino Selected** ', 'the mention');
  assert.equal(await page.getByRole('combobox', { name: 'Topic' }).inputValue(), 'music');
  // The box takes the focus in the frame after it opens: typing before that would be a key.
  await waitUntil(() => isFocused(box), 'the message box has the focus');
  await page.keyboard.type('t');
  assert.equal(await box.inputValue(), '@**Orsino Selected** t', 'a letter typed is text, not a shortcut');
  await page.keyboard.press('Control+s');
  await row.getByRole('button', { name: 'Unstar', pressed: true }).waitFor();
  assert.ok((await viola.get(`/messages/${his}`)).body.message.flags.includes('starred'));
  await page.keyboard.press('Control+s');
  await row.getByRole('button', { name: 'Star', pressed: false }).waitFor();
  // Alt+P shows the preview and goes back to writing.
  await page.keyboard.press('Alt+p');
  const preview = page.getByRole('region', { name: 'Preview' });
  await preview.getByText('@Orsino Selected').waitFor();
  await page.keyboard.press('Alt+p');
  await preview.waitFor({ state: 'detached' });
  await waitUntil(() => isFocused(box), 'the message field has the focus again');
  await box.fill('');

  // ← in the empty compose box edits one's latest message in the view.
  await page.keyboard.press('ArrowLeft');
  const editor = page.getByRole('form', { name: 'Edit message' });
  await editor.getByRole('textbox', { name: 'Message content' }).waitFor();
  await waitUntil(async () => (await editor.getByRole('textbox', { name: 'Message content' }).inputValue()) === 'If music be the food of love', 'the raw text');
  await page.locator('.message-row.selected', { has: editor }).waitFor();
  await page.keyboard.press('Escape');
  await editor.waitFor({ state: 'detached' });
  if (await box.isVisible()) await page.keyboard.press('Escape');
  await box.waitFor({ state: 'detached' });

  // U: from the selected message on, unread again; the count shows it.
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.locator('.message-row.selected', { hasText: 'Give me excess' }).waitFor();
  // Everything of the topic has been seen (the notices of the new channel are elsewhere).
  await waitUntil(async () => !(await unreadIds(viola)).some((id) => [mine, his, last].includes(id)), 'the topic read');
  await page.keyboard.press('U');
  await waitUntil(async () => (await unreadIds(viola)).includes(last), 'the last message unread again');
  // The topic's count in the sidebar says so (the channel's own notice of its creation is another topic's).
  await countIn(web, /^1 unread messages? in music$/).waitFor();
  assert.equal(await messageRow(page, 'Give me excess').locator('xpath=self::*[contains(@class, "unread")]').count(), 1, 'shown unread');

  // m: the move editor, the topic field in hand.
  await page.keyboard.press('k');
  await page.locator('.message-row.selected', { hasText: 'Play on, play on' }).waitFor();
  await page.keyboard.press('m');
  const mover = page.getByRole('form', { name: 'Move message' });
  const topic = mover.getByRole('textbox', { name: 'Topic' });
  await waitUntil(() => isFocused(topic), 'the topic field has the focus');
  await topic.fill('more music');
  await topic.press('Enter');
  await mover.waitFor({ state: 'detached' });
  await waitUntil(async () => (await viola.get(`/messages/${his}`)).body.message.subject === 'more music', 'the message moved');
  assert.equal((await unreadIds(viola)).includes(mine), false);
  assert.deepEqual(web.problems, []);
});

test('the last message\'s actions menu opens upwards, whole within the feed, when there is no room below', { skip: NO_CHROMIUM }, async () => {
  const reader = await suite.server.createUser('Menu Reader');
  const { id } = await channelWith([reader], 'menus');
  for (let i = 1; i <= 20; i++) await reader.post('/messages', { type: 'stream', to: id, topic: 'long', content: `Line ${i}.` });
  await reader.post('/mark_all_as_read');
  const web = await suite.open(reader.credentials.email, `#narrow/channel/${id}/topic/long`);
  const { page } = web;
  await messageRow(page, 'Line 20.').waitFor();
  await page.keyboard.press('End');
  await page.keyboard.press('i');
  const menu = page.getByRole('menu', { name: 'More message actions' });
  await menu.waitFor();
  const [box, feed] = [(await menu.boundingBox())!, (await page.locator('.message-scroller').boundingBox())!];
  assert.ok(box.y >= feed.y && box.y + box.height <= feed.y + feed.height + 1, `menu ${JSON.stringify(box)} within the feed ${JSON.stringify(feed)}`);
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  assert.deepEqual(web.problems, []);
});

test('on a touch screen, tooltips and buttons show no key hints', { skip: NO_CHROMIUM }, async () => {
  const touch = await suite.server.createUser('Touch Person');
  const channel = await channelWith([touch], 'touch');
  await sendRead(touch, channel.id, 'phone', 'tapped, not typed');
  const context = await suite.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  try {
    const page = await context.newPage();
    await page.goto(`${suite.server.url}/login#narrow/channel/${channel.id}`);
    await page.getByLabel('Email').fill(touch.credentials.email);
    await page.getByLabel('Password').fill('secret-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    const row = messageRow(page, 'tapped, not typed');
    await row.click();
    const reply = row.getByRole('button', { name: 'Reply', exact: true });
    assert.equal(await reply.getAttribute('title'), 'Reply');
    assert.equal(await row.getByRole('button', { name: 'Edit' }).getAttribute('title'), 'Edit');
    assert.equal(await page.locator('.compose-closed kbd').first().isVisible(), false);
  } finally {
    await context.close();
  }
});

test('message actions: quote and reply, reply to the author, view source, edit history with what changed, mark as unread from here', { skip: NO_CHROMIUM }, async () => {
  const { a: hero, b: claudio, channel } = await (async () => {
    const a = await suite.server.createUser('Hero Actions');
    const b = await suite.server.createUser('Claudio Actions');
    // Welcome Bot's greeting is read first, so that the unread counts below are the channel's.
    await a.post('/mark_all_as_read');
    return { a, b, channel: await channelWith([a, b], 'actions') };
  })();
  const first = await sendRead(claudio, channel.id, 'wedding', 'First, *plainly*');
  await sendRead(claudio, channel.id, 'wedding', 'Second');
  await sendRead(claudio, channel.id, 'wedding', 'Third');
  assert.equal((await claudio.patch(`/messages/${first}`, { content: 'First, *plainly* said' })).status, 200);
  const moved = await claudio.patch(`/messages/${first}`, { topic: 'the wedding', propagate_mode: 'change_one' });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  const web = await suite.open(hero.credentials.email, `#narrow/channel/${channel.id}`);
  const { page } = web;
  const row = messageRow(page, 'First, plainly said');
  await row.waitFor({ timeout: 5000 }).catch(async (err) => {
    await page.screenshot({ path: '/tmp/wn-fail7.png' });
    throw err;
  });
  const openMenu = async () => {
    await row.hover();
    await row.getByRole('button', { name: 'More message actions' }).click();
    return page.getByRole('menu', { name: 'More message actions' });
  };

  // The source is the Markdown.
  await (await openMenu()).getByRole('menuitem', { name: 'View message source' }).click();
  const source = page.getByRole('dialog', { name: 'Message source' });
  assert.equal(await source.locator('pre').innerText(), 'First, *plainly* said');
  await source.getByRole('button', { name: 'Close' }).click();

  // The history: sent, the content edited, the topic moved.
  await (await openMenu()).getByRole('menuitem', { name: 'View edit history' }).click();
  const history = page.getByRole('dialog', { name: 'Message edit history' });
  const entries = history.getByRole('listitem');
  await waitUntil(async () => (await entries.count()) === 3, 'three versions');
  assert.match(await entries.nth(0).innerText(), /Sent by Claudio Actions[\s\S]*First, plainly$/);
  assert.match(await entries.nth(1).innerText(), /Edited by Claudio Actions[\s\S]*First, plainly said$/);
  assert.match(await entries.nth(2).innerText(), /Moved by Claudio Actions[\s\S]*Topic: wedding → the wedding/);
  await page.keyboard.press('Escape');
  await history.waitFor({ state: 'detached' });

  // Quote and reply from the menu.
  await (await openMenu()).getByRole('menuitem', { name: 'Quote and reply' }).click();
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await waitUntil(async () => (await box.inputValue()).includes('```quote\nFirst, *plainly* said\n```'), 'the quote');
  assert.equal(await page.getByRole('combobox', { name: 'Topic' }).inputValue(), 'the wedding');
  await box.fill('');
  await page.keyboard.press('Escape');

  // Everything from the second message on becomes unread again; the count says so.
  await waitUntil(async () => (await unreadIds(hero)).length === 0, 'all read by seeing them');
  const second = messageRow(page, 'Second');
  await second.hover();
  await second.getByRole('button', { name: 'More message actions' }).click();
  await page.getByRole('menu', { name: 'More message actions' }).getByRole('menuitem', { name: 'Mark as unread from here' }).click();
  // Second, Third, and the notice of the move that came after them.
  let unreadNow: number[] = [];
  await waitUntil(async () => (unreadNow = await unreadIds(hero)).length === 3, 'second, third and the notice unread').catch((err) => {
    throw new Error(`${(err as Error).message}: ${JSON.stringify(unreadNow)}`);
  });
  await countIn(web, new RegExp(`^3 unread messages in ${channel.name}$`)).waitFor();
  assert.equal(unreadNow.includes(first), false);

  // Reply to the author: a direct message to Claudio.
  await row.hover();
  await row.getByRole('button', { name: 'More message actions' }).click();
  await page.getByRole('menuitem', { name: 'Reply to the author in a direct message' }).click();
  await page.getByRole('combobox', { name: 'Direct message recipients' }).waitFor();
  await page.locator('.compose').getByText('Claudio Actions').first().waitFor();
  assert.deepEqual(web.problems, []);
});

test('keyboard: < forwards the selected message, Ctrl+. goes to where the compose box is addressed, Shift+A and Shift+D cycle the sidebar\'s channels', { skip: NO_CHROMIUM }, async () => {
  const viola = await suite.server.createUser('Viola Forwards');
  const sebastian = await suite.server.createUser('Sebastian Forwards');
  // Names that sort together among the person's channels: first, second, third.
  const prefix = uniqueName('cycle');
  const channels: Array<{ name: string; id: number }> = [];
  for (const suffix of ['a', 'b', 'c']) {
    const name = `${prefix}-${suffix}`;
    const { id } = await createChannel(suite.server.owner, { principals: [viola.credentials.email, sebastian.credentials.email] }, name);
    channels.push({ name, id });
  }
  const sent = await sebastian.post('/messages', { type: 'stream', to: channels[0].id, topic: 'shipwreck', content: 'I was **saved** from the sea.' });
  const web = await suite.open(viola.credentials.email, `#narrow/channel/${channels[0].id}/topic/shipwreck`);
  const { page } = web;
  await page.locator('.message-row.selected', { hasText: 'saved from the sea' }).waitFor();

  // <: a message of nothing but the quote, to the same place, the channel field in hand.
  await page.keyboard.press('<');
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await waitUntil(async () => (await box.inputValue()).includes('I was **saved** from the sea.'), 'the quote');
  const quote = await box.inputValue();
  assert.match(quote, new RegExp(`^@_\\*\\*Sebastian Forwards\\|${sebastian.userId}\\*\\* \\[said\\]\\(.*/near/${sent.body.id}\\):\\n\`\`\`quote\\nI was \\*\\*saved\\*\\* from the sea\\.\\n\`\`\`\\n$`));
  const channelField = page.getByRole('combobox', { name: 'Channel' });
  await waitUntil(() => isFocused(channelField), 'the channel field has the focus');
  // Forwarded to the third channel, under a topic of its own; Ctrl+. goes there.
  await channelField.fill(channels[2].name);
  const topicField = page.getByRole('combobox', { name: 'Topic' });
  await topicField.fill('news');
  await box.focus();
  await page.keyboard.press('Control+.');
  await page.waitForURL(new RegExp(`channel/${channels[2].id}-[^/]*/topic/news$`));
  await page.keyboard.press('Enter');
  await messageRow(page, 'saved from the sea').waitFor();
  const forwarded = await viola.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: channels[2].id }]), apply_markdown: false });
  assert.equal(forwarded.body.messages[0].content, quote.trimEnd());
  assert.equal(forwarded.body.messages[0].subject, 'news');

  // Shift+D and Shift+A: the next and previous channel in the sidebar, from a channel's view.
  await page.keyboard.press('Escape');
  await goToChannel(page, channels[0]);
  // Each view is awaited as drawn, not only as addressed: a key must act on the view on screen.
  await page.keyboard.press('D');
  await channelShown(page, channels[1]);
  await page.keyboard.press('D');
  await channelShown(page, channels[2]);
  await page.keyboard.press('A');
  await channelShown(page, channels[1]);
  // Nothing from a view that is not a channel's.
  await page.keyboard.press('I');
  await page.waitForURL(/#inbox$/);
  await page.getByRole('region', { name: 'Inbox' }).waitFor();
  await page.keyboard.press('D');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.match(page.url(), /#inbox$/);
  assert.deepEqual(web.problems, []);
});

/** Waits until a channel's view is the one drawn, at its address (the address may change first). */
async function channelShown(page: WebUser['page'], channel: { id: number; name: string }): Promise<void> {
  await page.waitForURL(new RegExp(`channel/${channel.id}(-[^/]*)?$`));
  await page.locator('h1.narrow-title', { hasText: new RegExp(`^#${channel.name}$`) }).waitFor();
}

/** Opens a channel's view by its address, and waits until it is drawn. */
async function goToChannel(page: WebUser['page'], channel: { id: number; name: string }): Promise<void> {
  await page.evaluate((id) => ((globalThis as unknown as { location: { hash: string } }).location.hash = `#narrow/channel/${id}`), channel.id);
  await channelShown(page, channel);
}

test('q filters the sidebar\'s channels (in their panel on a phone); Enter opens the first left, Esc clears the filter', { skip: NO_CHROMIUM }, async () => {
  const olivia = await suite.server.createUser('Olivia Filters');
  const orchard = await channelWith([olivia], 'orchard');
  const harbour = await channelWith([olivia], 'harbour');
  for (const viewport of [undefined, { width: 390, height: 844 }]) {
    const web = await suite.open(olivia.credentials.email, '#inbox', { viewport });
    const { page } = web;
    const channels = sidebar(web).locator('ul.channels');
    await channels.getByText(orchard.name).waitFor();
    await page.keyboard.press('q');
    const filter = page.getByRole('searchbox', { name: 'Filter channels' });
    await waitUntil(() => isFocused(filter), 'the filter has the focus');
    await page.keyboard.type('HARB');
    await channels.getByText(orchard.name).waitFor({ state: 'detached' });
    assert.equal(await channels.getByText(harbour.name).isVisible(), true);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`channel/${harbour.id}(-[^/]*)?$`));
    // Esc empties the filter and hides it: every channel is back.
    if (viewport) await page.getByRole('button', { name: 'Show channels' }).click();
    await filter.focus();
    await page.keyboard.press('Escape');
    await filter.waitFor({ state: 'detached' });
    await channels.getByText(orchard.name).waitFor();
    // g: the menu at the top right, its first item in hand.
    await page.keyboard.press('g');
    await page.getByRole('menuitem', { name: 'Personal settings' }).waitFor();
    await waitUntil(async () => (await page.evaluate(`document.activeElement?.getAttribute('role')`)) === 'menuitem', 'a menu item has the focus');
    await page.keyboard.press('Escape');
    await page.getByRole('menuitem', { name: 'Personal settings' }).waitFor({ state: 'detached' });
    assert.deepEqual(web.problems, []);
  }
});

test('a channel\'s view is headed by its description and its subscriber count, both live', { skip: NO_CHROMIUM }, async () => {
  const maria = await suite.server.createUser('Maria Header');
  const toby = await suite.server.createUser('Toby Header');
  const channel = await channelWith([maria], 'header');
  await suite.server.owner.patch(`/streams/${channel.id}`, { description: 'Plans for **twelfth night**' });
  const web = await suite.open(maria.credentials.email, `#narrow/channel/${channel.id}/topic/revels`);
  const { page } = web;
  const description = page.locator('.narrow-header .narrow-description');
  await description.getByText('twelfth night').waitFor();
  assert.equal(await description.locator('strong').innerText(), 'twelfth night');
  const count = async () => (await suite.server.owner.get(`/streams/${channel.id}/members`)).body.subscribers.length as number;
  const label = (n: number) => `${n} ${n === 1 ? 'subscriber' : 'subscribers'}`;
  const subscribers = page.locator('.narrow-header .narrow-subscribers');
  const before = await count();
  assert.equal(await subscribers.getAttribute('aria-label'), label(before));

  // Someone joins, the description changes: the header follows without a reload.
  await suite.server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [toby.credentials.email] });
  await page.locator(`.narrow-header .narrow-subscribers[aria-label="${label(before + 1)}"]`).waitFor();
  await suite.server.owner.patch(`/streams/${channel.id}`, { description: 'Plans for the revels' });
  await description.getByText('Plans for the revels').waitFor();
  await suite.server.owner.delete('/users/me/subscriptions', { subscriptions: [channel.name], principals: [toby.credentials.email] });
  await page.locator(`.narrow-header .narrow-subscribers[aria-label="${label(before)}"]`).waitFor();
  // The count leads to the channel's subscribers.
  await subscribers.click();
  await page.waitForURL(new RegExp(`#channels/${channel.id}/[^/]+/subscribers$`));
  assert.deepEqual(web.problems, []);
});

test('the menu opens the help: message formatting, each example as the server renders it, the search filters and the keyboard shortcuts beside them', { skip: NO_CHROMIUM }, async () => {
  const viola = await suite.server.createUser('Viola Formats');
  await channelWith([viola], 'formats');
  const web = await suite.open(viola.credentials.email, '#inbox');
  const { page } = web;
  await page.getByRole('button', { name: 'Personal menu' }).click();
  await page.getByRole('menuitem', { name: 'Message formatting' }).click();
  const help = page.getByRole('dialog', { name: 'Message formatting' });
  await help.getByRole('row', { name: 'Bold' }).locator('strong').getByText('bold').waitFor();
  await help.getByRole('row', { name: 'Mentioning someone (notifies them)' }).getByText('@Viola Formats').waitFor();
  await help.getByRole('row', { name: 'A numbered list' }).locator('ol > li').first().waitFor();
  await help.getByRole('tab', { name: 'Search filters' }).click();
  await page.getByRole('dialog', { name: 'Search filters' }).getByText('is:starred').waitFor();
  await page.getByRole('dialog', { name: 'Search filters' }).getByRole('tab', { name: 'Keyboard shortcuts' }).click();
  await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByText('Quote and reply').waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  assert.deepEqual(web.problems, []);
});

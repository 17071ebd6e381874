import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { seriousViolations } from './support/axe';
import { NO_CHROMIUM } from './support/chromium';
import { waitUntil, webSuite } from './support/web';

/**
 * The web client for people using a screen reader or a keyboard: every control has a name,
 * the page has landmarks, the messages are a feed of articles read as sender, time and text,
 * and axe-core finds nothing serious or critical on the main screens in either theme.
 */

const web = webSuite();

interface AxNode {
  nodeId: string;
  ignored: boolean;
  role?: { value: string };
  name?: { value: string };
  childIds?: string[];
}

/** The page's accessibility tree as Chromium gives it to screen readers. */
async function accessibilityTree(page: Page): Promise<{ nodes: AxNode[]; textOf: (node: AxNode) => string }> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
  await cdp.detach();
  const byId = new Map(nodes.map((node) => [node.nodeId, node]));
  const textOf = (node: AxNode): string =>
    node.role?.value === 'StaticText' ? (node.name?.value ?? '') : (node.childIds ?? []).map((id) => byId.get(id)).filter((n) => n !== undefined).map(textOf).join(' ');
  return { nodes: nodes.filter((node) => !node.ignored), textOf };
}

const NAMED_ROLES = new Set(['button', 'link', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'menuitem', 'option', 'slider', 'spinbutton', 'switch', 'tab', 'listbox', 'menu', 'dialog', 'alertdialog', 'feed', 'article', 'region', 'form', 'navigation', 'complementary', 'search']);

/** A channel with three messages and its ID, and a person subscribed to it. */
async function channelWithMessages(person: { credentials: { email: string } }): Promise<{ name: string; id: number }> {
  const name = uniqueName('a11y');
  await createChannel(web.server.owner, { principals: [person.credentials.email] }, name);
  const id = (await web.server.owner.get('/get_stream_id', { stream: name })).body.stream_id as number;
  for (let i = 0; i < 3; i++) {
    await web.server.owner.post('/messages', { type: 'stream', to: name, topic: 'plans', content: `Plan number **${i}** with a [link](https://example.com/${i})` });
  }
  return { name, id };
}

async function open(email: string, hash: string): Promise<Page> {
  return (await web.open(email, hash)).page;
}

test('every control has a name, the landmarks are there, and the messages are a feed read as sender, time and text', { skip: NO_CHROMIUM }, async () => {
  const ada = await web.server.createUser('Ada Lovelace');
  // An administrator, who sees the organization's settings pages too.
  await web.server.owner.patch(`/users/${ada.userId}`, { role: 200 });
  const channel = await channelWithMessages(ada);
  const page = await open(ada.credentials.email, `#narrow/channel/${channel.id}`);
  await page.locator('.message-row').nth(2).waitFor();
  await page.getByRole('button', { name: /^New message/ }).click();
  await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor();

  const { nodes, textOf } = await accessibilityTree(page);
  const unnamed = nodes.filter((n) => NAMED_ROLES.has(n.role?.value ?? '') && !n.name?.value.trim()).map((n) => n.role?.value);
  assert.deepEqual(unnamed, [], 'controls and landmarks without a name');
  const roles = new Set(nodes.map((n) => n.role?.value));
  for (const landmark of ['banner', 'navigation', 'main', 'complementary', 'search', 'form']) assert.ok(roles.has(landmark), `a ${landmark} landmark`);

  const feed = nodes.find((n) => n.role?.value === 'feed');
  assert.equal(feed?.name?.value, 'Messages');
  const articles = nodes.filter((n) => n.role?.value === 'article');
  for (const article of articles) assert.match(article.name?.value ?? '', /^.+, \d{1,2}:\d{2}/, 'named by sender and time');
  const plans = articles.filter((article) => textOf(article).includes('Plan number'));
  assert.equal(plans.length, 3);
  plans.forEach((article, i) => {
    assert.match(textOf(article), new RegExp(`Plan number\\s+${i}\\s+with a\\s+link`), 'the message text is read inside its article');
  });
  assert.match(textOf(plans[0]), new RegExp(`^#\\s*${channel.name}\\s+plans\\b`), 'the first of a conversation starts with its channel and topic');
  assert.ok(nodes.some((n) => n.role?.value === 'status'), 'a polite status region for arrivals');
});

test('focus: the compose box takes it and Escape gives it back; the personal menu works from the keyboard', { skip: NO_CHROMIUM }, async () => {
  const ada = await web.server.createUser('Ada Lovelace');
  // An administrator, who sees the organization's settings pages too.
  await web.server.owner.patch(`/users/${ada.userId}`, { role: 200 });
  const channel = await channelWithMessages(ada);
  const page = await open(ada.credentials.email, `#narrow/channel/${channel.id}`);
  await page.locator('.message-row').nth(2).waitFor();
  const focused = () => page.evaluate(`(() => { const el = document.activeElement; return el ? (el.getAttribute('aria-label') || el.textContent || el.tagName).trim() : ''; })()`);
  const focusedClass = () => page.evaluate(`document.activeElement ? document.activeElement.className : ''`) as Promise<string>;

  const newMessage = page.getByRole('button', { name: /^New message/ });
  await newMessage.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor();
  // In a channel view the topic comes first, as in Zulip.
  assert.equal(await focused(), 'Topic', 'opening the compose box puts the focus in it');
  await page.keyboard.press('Escape');
  await newMessage.waitFor();
  await waitUntil(async () => (await focusedClass()).includes('compose-open-button'), 'the focus is back on the New message button');

  // `c` from a selected message, then Escape: back to that message.
  await page.locator('.message-row').nth(1).click();
  await page.keyboard.press('c');
  await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor();
  assert.equal(await focused(), 'Topic');
  await page.keyboard.press('Escape');
  await waitUntil(async () => (await focusedClass()).includes('selected'), 'the focus is back on the selected message');

  await page.getByRole('button', { name: 'Personal menu' }).click();
  await page.getByRole('menu', { name: 'Personal menu' }).waitFor();
  // Setting a status comes first, as in Zulip's personal menu.
  assert.equal(await focused(), 'Set a status', 'the first item takes the focus');
  await page.keyboard.press('ArrowDown');
  assert.notEqual(await focused(), 'Set a status');
  await page.keyboard.press('End');
  assert.equal(await focused(), 'Log out');
  await page.keyboard.press('Escape');
  assert.equal(await page.getByRole('menu').count(), 0);
  assert.equal(await focused(), 'Personal menu', 'Escape gives the focus back to the menu button');
});

test('a message arriving in the open view is told politely, arrivals within a second as one sentence', { skip: NO_CHROMIUM }, async () => {
  const ada = await web.server.createUser('Ada Lovelace');
  // An administrator, who sees the organization's settings pages too.
  await web.server.owner.patch(`/users/${ada.userId}`, { role: 200 });
  const channel = await channelWithMessages(ada);
  const page = await open(ada.credentials.email, `#narrow/channel/${channel.id}`);
  await page.locator('.message-row').nth(2).waitFor();
  const status = page.getByRole('status').filter({ hasText: /./ });
  await web.server.owner.post('/messages', { type: 'stream', to: channel.name, topic: 'plans', content: 'Lunch at **noon**?' });
  await page.getByRole('status').filter({ hasText: 'Lunch at noon?' }).waitFor();
  assert.match(await status.first().innerText(), /: Lunch at noon\?$/);
  // Sent together, so that they arrive within the second even on a busy machine (one after
  // another, each send could take longer than that).
  await Promise.all(['one', 'two', 'three'].map((word) => web.server.owner.post('/messages', { type: 'stream', to: channel.name, topic: 'plans', content: word })));
  await page.getByRole('status').filter({ hasText: /^3 new messages from / }).waitFor();
});

test('axe finds nothing serious or critical on the main screens, light and dark', { skip: NO_CHROMIUM }, async () => {
  const ada = await web.server.createUser('Ada Lovelace');
  // An administrator, who sees the organization's settings pages too.
  await web.server.owner.patch(`/users/${ada.userId}`, { role: 200 });
  const channel = await channelWithMessages(ada);
  await web.server.owner.post('/messages', { type: 'private', to: JSON.stringify([ada.userId]), content: 'A direct word' });
  // An edited message, whose history marks the words changed.
  const edited = (await web.server.owner.post('/messages', { type: 'stream', to: channel.id, topic: 'plans', content: 'A plan to change' })).body.id;
  await web.server.owner.patch(`/messages/${edited}`, { content: 'A plan that changed' });
  // An administrator, who also sees the organization's settings pages.
  await web.server.owner.patch(`/users/${ada.userId}`, { role: 200 });
  // A bot and a group, so that their settings pages list something.
  await ada.post('/bots', { full_name: 'Ada Bot', short_name: 'adabot', bot_type: 2 });
  await web.server.owner.post('/user_groups/create', { name: 'Analysts', description: 'Engines', members: JSON.stringify([ada.userId]) });
  // A profile field naming people, filled in, so that the profile page shows its person picker.
  const mentorField = (await web.server.owner.post('/realm/profile_fields', { name: 'Mentor', field_type: 6 })).body.id as number;
  await ada.patch('/users/me/profile_data', { data: [{ id: mentorField, value: [web.server.ownerId] }] });
  const page = await open(ada.credentials.email, `#narrow/channel/${channel.id}`);
  await page.locator('.message-row').nth(2).waitFor();
  const found: string[] = [];
  const check = async (what: string) => {
    for (const violation of await seriousViolations(page)) found.push(`${what}: ${violation}`);
  };
  for (const theme of ['light', 'dark']) {
    await page.evaluate(`document.documentElement.setAttribute('data-theme', '${theme}')`);
    await page.evaluate(`location.hash = '#narrow/channel/${channel.id}'`);
    await page.locator('.message-row').nth(2).waitFor();
    await page.locator('.message-row').nth(1).click();
    await check(`${theme} chat view, a message selected`);
    await page.getByRole('button', { name: 'Add reaction' }).first().click();
    await page.getByRole('dialog', { name: 'Choose an emoji' }).getByRole('button').first().waitFor();
    await check(`${theme} emoji picker`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'More message actions' }).first().click();
    await check(`${theme} message actions menu`);
    await page.getByRole('menuitem', { name: 'View message source' }).click();
    await page.getByRole('dialog', { name: 'Message source' }).locator('pre').waitFor();
    await check(`${theme} message source`);
    await page.keyboard.press('Escape');
    await page.locator('.message-row', { hasText: 'A plan that changed' }).click();
    await page.keyboard.press('i');
    await page.getByRole('menuitem', { name: 'View edit history' }).click();
    await page.getByRole('dialog', { name: 'Message edit history' }).locator('ins').first().waitFor();
    await check(`${theme} edit history`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await check(`${theme} keyboard shortcuts`);
    await page.keyboard.press('Escape');
    // The suggestions are what is checked here; `/` itself is pinned by the keyboard test.
    await page.getByRole('searchbox', { name: 'Search messages' }).fill('sender:');
    await page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('option').first().waitFor();
    await check(`${theme} search suggestions`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /^New message/ }).click();
    await check(`${theme} compose box`);
    await page.getByRole('button', { name: 'Add a to-do list' }).click();
    await page.getByRole('dialog', { name: 'Create a to-do list' }).getByRole('textbox', { name: 'Task 1', exact: true }).fill('A task');
    await check(`${theme} to-do dialog`);
    await page.keyboard.press('Escape');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Later, perhaps.');
    await page.getByRole('button', { name: 'Schedule message' }).click();
    await check(`${theme} schedule menu`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add emoji' }).click();
    await page.getByRole('toolbar', { name: 'Emoji categories' }).getByRole('button', { name: 'Flags' }).waitFor();
    await check(`${theme} emoji picker of the compose box`);
    await page.keyboard.press('Escape');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('');
    await page.getByRole('button', { name: 'Personal menu' }).click();
    await check(`${theme} personal menu`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Personal menu' }).click();
    await page.getByRole('menuitem', { name: 'Set a status' }).click();
    await page.getByRole('dialog', { name: 'Set a status' }).waitFor();
    await check(`${theme} status dialog`);
    await page.keyboard.press('Escape');
    await page.getByRole('complementary', { name: 'People' }).getByRole('button', { name: /^User card of / }).first().click();
    await page.getByRole('button', { name: 'View full profile' }).waitFor();
    await check(`${theme} user card`);
    await page.getByRole('button', { name: 'View full profile' }).click();
    await page.getByRole('button', { name: 'Close', exact: true }).waitFor();
    await check(`${theme} full profile`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Close the compose box' }).click();
    // A screen loaded when opened names a text of its own to wait for.
    for (const [screen, hash, ready, drawn] of [
      ['settings', '#settings/profile', 'Personal settings', 'Add a person to Mentor'],
      ['preferences', '#settings/preferences', 'Personal settings', 'Time format'],
      ['notifications', '#settings/notifications', 'Personal settings', 'Followed topics'],
      ['alert words', '#settings/alert-words', 'Personal settings', 'New alert word'],
      ['uploaded files', '#settings/uploaded-files', 'Personal settings', 'The organization’s uploads use'],
      ['muted users', '#settings/muted-users', 'Personal settings'],
      ['channel browser', '#channels', 'Channels'],
      ['inbox', '#inbox', 'Inbox'],
      ['scheduled messages', '#scheduled', 'Scheduled messages'],
      ['recent conversations', '#recent', 'Recent conversations'],
      ['channel settings', `#channels/${channel.id}/x/general`, channel.name],
      ['personal channel settings', `#channels/${channel.id}/x/personal`, channel.name],
      ['channel subscribers', `#channels/${channel.id}/x/subscribers`, channel.name],
      ['default channels', '#organization/default-channels-list', 'Organization settings'],
      ['organization users', '#organization/users', 'Organization settings'],
      ['your bots', '#settings/your-bots', 'Personal settings'],
      ['bots', '#organization/bot-list-admin', 'Organization settings'],
      ['user groups', '#organization/user-groups-admin', 'Organization settings'],
      ['your groups', '#groups/your', 'Organization settings', 'Analysts'],
      ['organization profile', '#organization/organization-profile', 'Organization settings'],
      ['organization settings', '#organization/organization-settings', 'Organization settings'],
      ['organization permissions', '#organization/organization-permissions', 'Organization settings'],
      ['custom emoji', '#organization/emoji-settings', 'Organization settings'],
      ['linkifiers', '#organization/linkifier-settings', 'Organization settings'],
      ['code playgrounds', '#organization/playground-settings', 'Organization settings'],
      ['custom profile fields', '#organization/profile-field-settings', 'Organization settings'],
      ['invitations', '#organization/invites-list-admin', 'Organization settings'],
      ['account and privacy', '#settings/account-and-privacy', 'Personal settings'],
      ['deactivated users', '#organization/deactivated-users-admin', 'Organization settings'],
      ['data exports', '#organization/data-exports-admin', 'Organization settings'],
    ] as Array<[string, string, string, string?]>) {
      await page.evaluate(`location.hash = '${hash}'`);
      await page.getByRole('heading', { level: 1, name: ready }).waitFor();
      if (drawn) await page.getByText(drawn).first().waitFor();
      await check(`${theme} ${screen}`);
    }
  }
  // A member sees the organization's pages read-only.
  const member = await web.server.createUser('Max Member');
  const memberPage = await open(member.credentials.email, '#organization/organization-permissions');
  await memberPage.getByText('Only administrators of the organization can change these settings.').waitFor();
  for (const theme of ['light', 'dark']) {
    await memberPage.evaluate(`document.documentElement.setAttribute('data-theme', '${theme}')`);
    for (const violation of await seriousViolations(memberPage)) found.push(`${theme} read-only organization permissions: ${violation}`);
  }
  const login = await web.browser.newPage({ colorScheme: 'dark' });
  await login.goto(`${web.server.url}/login`);
  await login.getByRole('button', { name: 'Log in' }).waitFor();
  for (const violation of await seriousViolations(login)) found.push(`login (dark): ${violation}`);
  await login.emulateMedia({ colorScheme: 'light' });
  for (const violation of await seriousViolations(login)) found.push(`login (light): ${violation}`);
  await login.close();
  assert.deepEqual(found, []);
});

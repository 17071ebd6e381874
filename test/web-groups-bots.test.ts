import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { OWNER_EMAIL, OWNER_PASSWORD, readZuliprc } from './support/server';
import { waitUntil, webSuite } from './support/web';

/** The user groups page and the bot settings (with the integration URL builder) in the web client. */

const suite = webSuite();
const DESKTOP = { width: 1280, height: 800 };
// A 2x2 red PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
const PHONE = { width: 390, height: 844 };

function settingsPage(page: Page) {
  return page.locator('.settings-page');
}

async function groupByName(name: string) {
  const groups = (await suite.server.owner.get('/user_groups')).body.user_groups as Array<Record<string, any>>;
  return groups.find((g) => g.name === name);
}

test('user groups: created, edited, joined and deactivated in the browser, live for a member watching on a phone', { skip: NO_CHROMIUM }, async () => {
  const alice = await suite.server.createUser('Alice Groupie');
  const watcher = await suite.server.createUser('Wanda Watcher');
  const admin = await suite.open(OWNER_EMAIL, '#inbox', { password: OWNER_PASSWORD, viewport: DESKTOP });
  const member = await suite.open(watcher.credentials.email, '#inbox', { viewport: PHONE });

  // A member reaches the page from the settings' menu (on a phone, its drop-down), though it is the organization's.
  await member.page.getByRole('button', { name: 'Personal menu' }).click();
  await member.page.getByRole('menuitem', { name: 'Personal settings' }).click();
  await member.page.getByRole('combobox', { name: 'Settings page' }).selectOption({ label: 'User groups' });
  const memberList = member.page.getByRole('list', { name: 'User groups' });
  await memberList.waitFor();

  await admin.page.evaluate(`location.hash = '#organization/user-groups-admin'`);
  const page = settingsPage(admin.page);
  await page.getByRole('button', { name: 'Create user group' }).click();
  const form = page.getByRole('form', { name: 'New user group' });
  await form.getByLabel('Name', { exact: true }).fill('Design team');
  await form.getByLabel('Description').fill('People who draw');
  await form.getByLabel('Add a member').fill('Alice Groupie');
  await form.getByRole('button', { name: 'Add', exact: true }).first().click();
  await form.getByRole('list', { name: 'Members of the new group' }).getByText('Alice Groupie').waitFor();
  await admin.page.screenshot({ path: '/tmp/groups-create-desktop.png' });
  await form.getByRole('button', { name: 'Create', exact: true }).click();

  // The creator sees it opened; the member sees it arrive.
  await page.getByRole('region', { name: 'Group Design team' }).waitFor();
  const details = page.locator('.group-details');
  await memberList.getByRole('button', { name: /Design team/ }).waitFor();
  let stored = await groupByName('Design team');
  assert.equal(stored?.description, 'People who draw');
  const ownerId = (await suite.server.owner.get('/users/me')).body.user_id as number;
  assert.deepEqual([...stored!.members].sort((a, b) => a - b), [ownerId, alice.userId].sort((a, b) => a - b));

  // Renamed and described again: the member's list follows.
  await details.getByLabel('Group name').fill('Design crew');
  await details.getByRole('textbox', { name: 'Description' }).fill('People who draw and paint');
  await details.getByRole('button', { name: 'Save name and description' }).click();
  await memberList.getByRole('button', { name: /Design crew/ }).getByText('People who draw and paint').waitFor();

  // The member is added; their list says so at once.
  await details.getByLabel('Add a member').fill(watcher.credentials.email);
  await details.getByLabel('Add a member').press('Enter');
  await memberList.getByRole('button', { name: /Design crew/ }).getByText(/you are a member/).waitFor();

  // A subgroup.
  const inner = (await suite.server.owner.post('/user_groups/create', { name: 'Illustrators', description: '', members: [alice.userId] })).body.group_id as number;
  await details.getByLabel('Add a subgroup').selectOption({ label: 'Illustrators' });
  await details.getByRole('button', { name: 'Add', exact: true }).last().click();
  await details.getByRole('list', { name: 'Subgroups' }).getByText('Illustrators').waitFor();
  await waitUntil(async () => ((await groupByName('Design crew'))?.direct_subgroup_ids ?? []).includes(inner), 'the subgroup is stored');

  // A permission: only administrators may join from now on.
  await details.getByLabel('Who can join').selectOption({ label: 'Administrators' });
  const administrators = (await groupByName('role:administrators'))!.id;
  await waitUntil(async () => (await groupByName('Design crew'))?.can_join_group === administrators, 'can_join_group is stored');
  await admin.page.screenshot({ path: '/tmp/groups-details-desktop.png' });

  // The member opens it: the permissions read as words, and they may leave it.
  await memberList.getByRole('button', { name: /Design crew/ }).click();
  const memberDetails = settingsPage(member.page).getByRole('region', { name: 'Group Design crew' });
  await memberDetails.getByText('Who can join').waitFor();
  assert.equal(await memberDetails.getByRole('combobox', { name: 'Who can join' }).count(), 0, 'no choice for a member who may not administer it');
  await member.page.screenshot({ path: '/tmp/groups-member-phone.png', fullPage: true });
  await memberDetails.getByRole('button', { name: 'Leave group' }).click();
  await details.getByRole('list', { name: /Members/ }).getByText('Wanda Watcher').waitFor({ state: 'detached' });
  assert.ok(!(await groupByName('Design crew'))!.members.includes(watcher.userId));

  // Deactivated: gone from the member's list, back when reactivated.
  await details.getByRole('button', { name: 'Deactivate group' }).click();
  await admin.page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
  await memberList.getByRole('button', { name: /Design crew/ }).waitFor({ state: 'detached' });
  assert.equal(await groupByName('Design crew'), undefined, 'no longer among the active groups');
  // Its page stays open, saying so; deactivated groups can be listed again.
  await details.getByText('This group is deactivated.').waitFor();
  await page.getByLabel('Show deactivated groups').check();
  await page.getByRole('button', { name: /Design crew/ }).getByText(/deactivated/).waitFor();
  await admin.page.screenshot({ path: '/tmp/groups-deactivated-desktop.png' });
  await details.getByRole('button', { name: 'Reactivate group' }).click();
  await memberList.getByRole('button', { name: /Design crew/ }).waitFor();
  stored = (await suite.server.owner.get('/user_groups', { include_deactivated_groups: true })).body.user_groups.find((g: any) => g.name === 'Design crew');
  assert.equal(stored?.deactivated, false);
  assert.deepEqual([...admin.problems, ...member.problems], []);
});

test('bots: created, keyed, downloaded, given an integration URL that works, edited, deactivated and reactivated', { skip: NO_CHROMIUM }, async () => {
  const maker = await suite.server.createUser('Mia Maker');
  const channel = await createChannel(maker, {}, uniqueName('builds'));
  const web = await suite.open(maker.credentials.email, '#settings/your-bots', { viewport: DESKTOP });
  const admin = await suite.open(OWNER_EMAIL, '#organization/bot-list-admin', { password: OWNER_PASSWORD, viewport: PHONE });
  const page = settingsPage(web.page);

  await page.getByRole('button', { name: 'Add a new bot' }).click();
  const dialog = web.page.getByRole('dialog', { name: 'Add a new bot' });
  await dialog.getByLabel('Bot type').selectOption({ label: 'Incoming webhook' });
  await dialog.getByLabel('Name', { exact: true }).fill('Build Bot');
  await dialog.getByLabel('Username').fill('builds');
  await web.page.screenshot({ path: '/tmp/bots-create-desktop.png' });
  await dialog.getByRole('button', { name: 'Create bot' }).click();
  const card = page.getByRole('listitem', { name: 'Build Bot' });
  await card.waitFor();
  // The administrator watching every bot sees it come.
  await settingsPage(admin.page).getByRole('listitem', { name: 'Build Bot' }).getByText(/owned by Mia Maker/).waitFor();

  const bot = (await maker.get('/users')).body.members.find((u: any) => u.full_name === 'Build Bot');
  assert.equal(bot.bot_type, 2);
  assert.equal(bot.bot_owner_id, maker.userId);
  const keyOf = async () => (await maker.get(`/bots/${bot.user_id}/api_key`)).body.api_key as string;

  // The key, shown and made anew.
  await card.getByRole('button', { name: 'Show API key of Build Bot' }).click();
  const keyField = card.getByRole('textbox', { name: 'API key of Build Bot' });
  assert.equal(await keyField.inputValue(), await keyOf());
  const oldKey = await keyOf();
  await card.getByRole('button', { name: 'Regenerate key' }).click();
  await web.page.getByRole('dialog').getByRole('button', { name: 'Make a new key' }).click();
  await waitUntil(async () => (await keyField.inputValue()) !== oldKey, 'the new key is shown');
  assert.equal(await keyField.inputValue(), await keyOf());

  // A zuliprc file, as Zulip's tools read it.
  const [download] = await Promise.all([web.page.waitForEvent('download'), card.getByRole('button', { name: 'Download zuliprc of Build Bot' }).click()]);
  assert.equal(download.suggestedFilename(), 'zuliprc');
  const zuliprc = readZuliprc((await download.path())!);
  assert.equal(zuliprc.email, bot.email);
  assert.equal(zuliprc.key, await keyOf());
  assert.equal(zuliprc.site, suite.server.url);
  assert.match(readFileSync((await download.path())!, 'utf8'), /^\[api\]\n/);

  // The integration URL builder: GitHub, to the channel, one topic, only pushes.
  await card.getByRole('button', { name: 'Integration URL for Build Bot' }).click();
  const builder = web.page.getByRole('dialog', { name: 'Integration URL for Build Bot' });
  const copy = builder.getByRole('button', { name: 'Copy URL' });
  assert.equal(await copy.isDisabled(), true);
  await builder.getByLabel('Integration').selectOption({ label: 'GitHub' });
  await builder.getByLabel('Where to send its messages').selectOption({ label: `#${channel.name}` });
  await builder.getByLabel('Send all its messages to one topic').check();
  assert.equal(await copy.isDisabled(), true, 'a topic must be given once asked for');
  await builder.getByLabel('Topic', { exact: true }).fill('CI news');
  await builder.getByLabel('Only these branches (comma-separated)').fill('main');
  await builder.getByLabel('Send only some events').check();
  await builder.getByLabel('push_commits').check();
  await web.page.screenshot({ path: '/tmp/bots-url-builder-desktop.png' });
  assert.equal(await copy.isDisabled(), false);
  const url = new URL(await builder.getByLabel('URL').inputValue());
  assert.equal(url.pathname, '/api/v1/external/github');
  assert.equal(url.searchParams.get('api_key'), await keyOf());
  assert.equal(url.searchParams.get('stream'), String(channel.id));
  assert.equal(url.searchParams.get('topic'), 'CI news');
  assert.equal(url.searchParams.get('branches'), 'main');
  assert.deepEqual(JSON.parse(url.searchParams.get('only_events')!), ['push_commits']);
  // The URL works: a push to main lands in the topic; one to another branch does not.
  const push = (branch: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'push' },
      body: JSON.stringify({
        ref: `refs/heads/${branch}`,
        created: false,
        deleted: false,
        forced: false,
        compare: 'https://github.com/o/r/compare/a...b',
        sender: { login: 'octo' },
        pusher: { name: 'octo' },
        repository: { name: 'r', full_name: 'o/r', html_url: 'https://github.com/o/r' },
        commits: [{ id: 'abcdef1234567', message: `Fix the ${branch} build`, url: 'https://github.com/o/r/commit/abcdef1', author: { name: 'octo', username: 'octo' } }],
        head_commit: { id: 'abcdef1234567' },
      }),
    });
  assert.equal((await push('main')).status, 200);
  assert.equal((await push('feature')).status, 200);
  const messages = (await maker.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: channel.id }]) })).body.messages;
  const fromBot = messages.filter((m: any) => m.sender_id === bot.user_id);
  assert.deepEqual(fromBot.map((m: any) => [m.subject, m.content.includes('main build')]), [['CI news', true]]);
  await builder.getByRole('button', { name: 'Close', exact: true }).first().click();

  // Edited: the new name everywhere.
  await card.getByRole('button', { name: 'Edit Build Bot' }).click();
  const edit = web.page.getByRole('dialog', { name: 'Edit Build Bot' });
  await edit.getByLabel('Name', { exact: true }).fill('Builder Bot');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  const renamed = page.getByRole('listitem', { name: 'Builder Bot' });
  await renamed.waitFor();
  await settingsPage(admin.page).getByRole('listitem', { name: 'Builder Bot' }).waitFor();

  // Deactivated, then reactivated by its owner.
  await renamed.getByRole('button', { name: 'Deactivate Builder Bot' }).click();
  await web.page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
  await page.getByRole('region', { name: 'Deactivated bots' }).getByRole('listitem', { name: 'Builder Bot' }).waitFor();
  assert.equal((await maker.get(`/users/${bot.user_id}`)).body.user.is_active, false);
  await renamed.getByRole('button', { name: 'Reactivate Builder Bot' }).click();
  await page.getByRole('region', { name: 'Active bots' }).getByRole('listitem', { name: 'Builder Bot' }).waitFor();
  assert.equal((await maker.get(`/users/${bot.user_id}`)).body.user.is_active, true);
  await admin.page.screenshot({ path: '/tmp/bots-admin-phone.png', fullPage: true });
  assert.deepEqual([...web.problems, ...admin.problems], []);
});

test('bots: an outgoing webhook bot keeps its endpoint and format; a phone shows the bot list whole', { skip: NO_CHROMIUM }, async () => {
  const maker = await suite.server.createUser('Otto Outgoing');
  const web = await suite.open(maker.credentials.email, '#settings/your-bots', { viewport: PHONE });
  const page = settingsPage(web.page);
  await page.getByRole('button', { name: 'Add a new bot' }).click();
  const dialog = web.page.getByRole('dialog', { name: 'Add a new bot' });
  await dialog.getByLabel('Bot type').selectOption({ label: 'Outgoing webhook' });
  await dialog.getByLabel('Name', { exact: true }).fill('Echo Bot');
  await dialog.getByLabel('Username').fill('echo');
  await dialog.getByLabel('Endpoint URL').fill('https://bots.example.com/echo');
  await dialog.getByLabel('Message format').selectOption({ label: 'Slack-compatible' });
  await dialog.getByLabel('Avatar (optional)').setInputFiles({ name: 'echo.png', mimeType: 'image/png', buffer: PNG });
  await web.page.screenshot({ path: '/tmp/bots-create-phone.png' });
  await dialog.getByRole('button', { name: 'Create bot' }).click();
  const card = page.getByRole('listitem', { name: 'Echo Bot' });
  await card.getByText('Endpoint: https://bots.example.com/echo').waitFor();
  const administered = (await maker.post('/register', { fetch_event_types: JSON.stringify(['realm_bot']) })).body.realm_bots as Array<Record<string, any>>;
  const stored = administered.find((b) => b.services?.[0]?.base_url === 'https://bots.example.com/echo')!;
  assert.equal(stored.services[0].interface, 2);
  // The avatar came with it (the picture is stored just after the account is announced): the
  // card shows the uploaded picture, not a made-up one.
  const plain = (await maker.post('/bots', { full_name: 'Plain Bot', short_name: 'plain' })).body;
  const plainVersion = (await maker.get(`/users/${plain.user_id}`)).body.user.avatar_version as number;
  const account = async () => (await maker.get(`/users/${stored.user_id}`)).body.user;
  await waitUntil(async () => (await account()).avatar_version > plainVersion, 'the uploaded avatar is stored');
  const avatarPath = new URL((await account()).avatar_url, suite.server.url).pathname;
  await waitUntil(async () => new URL((await card.locator('img').first().getAttribute('src'))!, suite.server.url).pathname === avatarPath, 'the card shows it');

  // Its zuliprc carries the token the bot's requests are signed with.
  const [download] = await Promise.all([web.page.waitForEvent('download'), card.getByRole('button', { name: 'Download zuliprc of Echo Bot' }).click()]);
  assert.equal(readZuliprc((await download.path())!).token, stored.services[0].token);

  // The endpoint changes from the edit dialog.
  await card.getByRole('button', { name: 'Edit Echo Bot' }).click();
  const edit = web.page.getByRole('dialog', { name: 'Edit Echo Bot' });
  assert.equal(await edit.getByLabel('Endpoint URL').inputValue(), 'https://bots.example.com/echo');
  await edit.getByLabel('Endpoint URL').fill('https://bots.example.com/echo2');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await card.getByText('Endpoint: https://bots.example.com/echo2').waitFor();
  // Nothing is wider than the phone.
  const overflow = await web.page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  assert.equal(overflow, 0);
  await web.page.screenshot({ path: '/tmp/bots-list-phone.png', fullPage: true });
  assert.deepEqual(web.problems, []);
});

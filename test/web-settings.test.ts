import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import type { Client } from './support/client';
import { OWNER_EMAIL, OWNER_PASSWORD } from './support/server';
import { waitUntil, webSuite, type PageGlobals } from './support/web';

/** Settings in the web client: one's own, the channel browser, and the organization's. */

const suite = webSuite();

/** The person's settings as the server keeps them (what a new page would be given). */
async function storedSettings(client: Client) {
  const answer = await client.post('/register', { fetch_event_types: ['user_settings'] });
  return answer.body.user_settings as Record<string, unknown>;
}

function people(page: Page) {
  return page.getByRole('complementary', { name: 'People' });
}

// A 2x2 red PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

test('one changes one\'s name and avatar in the personal settings (the password: web-users-account)', { skip: NO_CHROMIUM }, async () => {
  const person = await suite.server.createUser('Pat Before');
  const watcher = await suite.server.createUser('Watching Wendy');
  const web = await suite.open(person.credentials.email, '#inbox');
  const watcherWeb = await suite.open(watcher.credentials.email, '#inbox');
  await people(watcherWeb.page).getByText('Pat Before').waitFor();

  // The personal menu leads to the settings.
  await web.page.getByRole('button', { name: 'Personal menu' }).click();
  await web.page.getByRole('menuitem', { name: 'Personal settings' }).click();
  const settings = web.page.getByRole('region', { name: 'Personal settings' });
  await settings.getByLabel('Full name').fill('Pat After');
  await settings.getByRole('button', { name: 'Save name' }).click();
  await settings.getByRole('status').getByText('Name saved.').waitFor();
  await people(watcherWeb.page).getByText('Pat After').waitFor();

  const avatar = settings.getByRole('img', { name: 'Your avatar' });
  const before = await avatar.getAttribute('src');
  await settings.getByLabel('Upload a new avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await waitUntil(async () => (await avatar.getAttribute('src')) !== before, 'the new avatar is shown');
  await waitUntil(() => avatar.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0), 'the new avatar has loaded');
  const me = await person.get('/users/me');
  assert.equal(new URL(me.body.avatar_url, suite.server.url).pathname, new URL((await avatar.getAttribute('src'))!, suite.server.url).pathname);

  assert.deepEqual([...web.problems, ...watcherWeb.problems], []);
});

test('the theme and the notification settings are kept on the server, and notifications come', { skip: NO_CHROMIUM }, async () => {
  const person = await suite.server.createUser('Theo Theme');
  const friend = await suite.server.createUser('Fran Friend');
  const web = await suite.open(person.credentials.email, '#settings/preferences');
  const html = web.page.locator('html');
  assert.equal(await html.getAttribute('data-theme'), 'light');

  const settings = web.page.getByRole('region', { name: 'Personal settings' });
  await settings.getByRole('radio', { name: 'Dark' }).check();
  await waitUntil(async () => (await html.getAttribute('data-theme')) === 'dark', 'the page is dark');
  await waitUntil(async () => (await storedSettings(person)).color_scheme === 2, 'the server keeps the dark theme');
  // Another browser (light system, nothing stored locally) shows the chosen theme.
  const elsewhere = await suite.open(person.credentials.email, '#inbox');
  await waitUntil(async () => (await elsewhere.page.locator('html').getAttribute('data-theme')) === 'dark', 'the other browser is dark');

  // Following the system follows it as it changes.
  await settings.getByRole('radio', { name: 'Follow the system' }).check();
  await waitUntil(async () => (await html.getAttribute('data-theme')) === 'light', 'the page follows the light system');
  await web.page.emulateMedia({ colorScheme: 'dark' });
  await waitUntil(async () => (await html.getAttribute('data-theme')) === 'dark', 'the page follows the system to dark');
  await web.page.emulateMedia({ colorScheme: 'light' });
  await waitUntil(async () => (await elsewhere.page.locator('html').getAttribute('data-theme')) === 'light', 'the other browser follows too');

  // Desktop notifications: the browser allows them; the page records what it shows.
  await web.context.grantPermissions(['notifications'], { origin: suite.server.url });
  // Given as text: the test runner's transpiler would add helpers to a function that the page lacks.
  await web.context.addInitScript({
    content: `
      window.shownNotifications = [];
      window.Notification = new Proxy(window.Notification, {
        construct: (target, args) => {
          window.shownNotifications.push(args[0] + ': ' + ((args[1] && args[1].body) || ''));
          return Reflect.construct(target, args);
        },
        get: (target, key) => Reflect.get(target, key),
      });`,
  });
  await web.page.goto(`${suite.server.url}/#settings/notifications`);
  await web.page.reload();
  const desktop = settings.getByRole('checkbox', { name: 'Desktop: Direct messages, mentions and alert words' });
  const sound = settings.getByRole('checkbox', { name: 'Sound: Direct messages, mentions and alert words' });
  assert.ok(await desktop.isChecked());
  assert.ok(await sound.isChecked());
  const shown = () => web.page.evaluate(() => (globalThis as unknown as PageGlobals).shownNotifications);

  await friend.post('/messages', { type: 'direct', to: [person.userId], content: 'Are you there?' });
  await waitUntil(async () => (await shown()).length === 1, 'a notification is shown');
  assert.deepEqual(await shown(), ['Fran Friend (Direct message): Are you there?']);

  await sound.uncheck();
  await desktop.uncheck();
  await waitUntil(async () => {
    const stored = await storedSettings(person);
    return stored.enable_sounds === false && stored.enable_desktop_notifications === false;
  }, 'the server keeps the notification settings');
  await friend.post('/messages', { type: 'direct', to: [person.userId], content: 'Hello?' });
  await web.page.getByRole('navigation').getByLabel('2 unread messages from Fran Friend').waitFor();
  assert.equal((await shown()).length, 1);
  // After a reload the boxes are as the server keeps them.
  await web.page.reload();
  await desktop.waitFor();
  assert.ok(!(await desktop.isChecked()));
  assert.ok(!(await sound.isChecked()));
  assert.deepEqual([...web.problems, ...elsewhere.problems], []);
});

test('the channel browser subscribes, unsubscribes, and creates a private channel with its first subscribers, then opens it', { skip: NO_CHROMIUM }, async () => {
  const person = await suite.server.createUser('Channel Browser');
  const outsider = await suite.server.createUser('Channel Outsider');
  const invitee = await suite.server.createUser('Channel Invitee');
  const existing = await createChannel(suite.server.owner, {}, uniqueName('open house'));
  const web = await suite.open(person.credentials.email, '#inbox');
  const sidebar = web.page.getByRole('navigation', { name: 'Views, channels and direct messages' });
  await sidebar.getByRole('link', { name: 'Browse channels' }).click();
  const browserRegion = web.page.getByRole('region', { name: 'Channels' });

  const row = browserRegion.getByRole('listitem').filter({ hasText: existing.name });
  await row.getByRole('button', { name: 'Subscribe' }).click();
  await sidebar.getByRole('link', { name: existing.name }).waitFor();
  await row.getByRole('button', { name: 'Unsubscribe' }).click();
  await sidebar.getByRole('link', { name: existing.name }).waitFor({ state: 'detached' });
  await row.getByRole('button', { name: 'Subscribe' }).waitFor();

  // The tabs sort the channels by subscription.
  const tab = (label: string) => browserRegion.getByRole('group', { name: 'Which channels' }).getByRole('button', { name: label, exact: true });
  await tab('Subscribed').click();
  await row.waitFor({ state: 'detached' });
  await tab('Not subscribed').click();
  await row.getByRole('button', { name: 'Subscribe' }).waitFor();
  await tab('All channels').click();

  // A new channel is made behind its button, which the form replaces with Cancel until it is made.
  const name = uniqueName('secret garden');
  const form = browserRegion.getByRole('form', { name: 'Create a channel' });
  assert.equal(await form.count(), 0, 'the form waits behind its button');
  await browserRegion.getByRole('button', { name: 'Create a channel' }).click();
  // A name taken is refused in the page, not turned into a subscription.
  await form.getByLabel('Name').fill(existing.name.toUpperCase());
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await web.page.getByText(`A channel named “${existing.name.toUpperCase()}” already exists.`).waitFor();
  await browserRegion.getByRole('button', { name: 'Cancel' }).click();
  await form.waitFor({ state: 'detached' });
  await browserRegion.getByRole('button', { name: 'Create a channel' }).click();
  // The name is focused as the form opens: typed without a click.
  await form.getByLabel('Name').waitFor();
  await web.page.keyboard.type(name);
  assert.equal(await form.getByLabel('Name').inputValue(), name);
  await form.getByLabel('Description').fill('Only for the gardeners');
  // Who can access it, offered as the channel's settings offer it.
  for (const label of ['Public', 'Private, shared history', 'Private, protected history']) assert.equal(await form.getByRole('radio', { name: new RegExp(`^${label}\\b`) }).count(), 1, label);
  assert.equal(await form.getByRole('radio', { name: /^Web-public/ }).count(), 0, 'web-public only where the organization allows it');
  await form.getByRole('radio', { name: /^Private, protected history/ }).check();
  // Its first subscribers: oneself, and whoever is added (Enter in the field adds, not sends).
  const toAdd = form.getByRole('list', { name: 'Subscribers to add' });
  assert.deepEqual((await toAdd.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()), ['Channel Browser (you) Leave out']);
  await form.getByLabel('Add a person or a group').fill(`Channel Invitee <${invitee.credentials.email}>`);
  await form.getByLabel('Add a person or a group').press('Enter');
  await toAdd.getByRole('listitem').filter({ hasText: 'Channel Invitee' }).waitFor();
  assert.equal(await form.count(), 1, 'Enter in the field did not send the form');
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  // The creator is taken to the new channel, as in Zulip.
  let created: { stream_id: number; invite_only: boolean; history_public_to_subscribers: boolean; description: string } | undefined;
  await waitUntil(async () => {
    created = (await suite.server.owner.get('/streams', { include_all: true })).body.streams.find((c: { name: string }) => c.name === name);
    return created !== undefined && web.page.url().includes(`#narrow/channel/${created.stream_id}-`);
  }, 'the page opens the new channel');
  assert.ok(created);
  await web.page.getByRole('heading', { name }).first().waitFor();
  assert.equal(created.invite_only, true);
  assert.equal(created.history_public_to_subscribers, false);
  assert.equal(created.description, 'Only for the gardeners');
  const subscribers = await suite.server.owner.get(`/streams/${created.stream_id}/members`);
  assert.deepEqual([...subscribers.body.subscribers].sort((x: number, y: number) => x - y), [person.userId, invitee.userId].sort((x, y) => x - y));
  assert.equal(await sidebar.getByRole('link', { name }).locator('.channel-swatch svg').count(), 1, 'a private channel has the lock icon');
  await sidebar.getByRole('link', { name: 'Browse channels' }).click();
  await browserRegion.getByRole('listitem').filter({ hasText: name }).getByText('Only for the gardeners').waitFor();
  assert.equal(await form.count(), 0, 'the form is closed once the channel is made');
  // Someone not invited does not see it in their channel browser.
  const outsiderWeb = await suite.open(outsider.credentials.email, '#channels');
  await outsiderWeb.page.getByRole('region', { name: 'Channels' }).getByText(existing.name).waitFor();
  assert.equal(await outsiderWeb.page.getByText(name).count(), 0);
  // Where only administrators may create channels, a member is not offered it (live).
  const createButton = outsiderWeb.page.getByRole('button', { name: 'Create a channel' });
  await createButton.waitFor();
  const administrators = suite.server.groupId('role:administrators');
  const members = suite.server.groupId('role:members');
  const restrict = (group: number) => suite.server.owner.patch('/realm', { can_create_public_channel_group: { new: group }, can_create_private_channel_group: { new: group } });
  assert.equal((await restrict(administrators)).status, 200);
  try {
    await createButton.waitFor({ state: 'detached' });
  } finally {
    await restrict(members);
  }
  assert.deepEqual([...web.problems, ...outsiderWeb.problems], []);
});

test('an administrator manages invitation links, roles, the organization name and deactivations, seen live', { skip: NO_CHROMIUM }, async () => {
  const member = await suite.server.createUser('Morgan Member');
  const leaver = await suite.server.createUser('Lee Leaver');
  const owner = await suite.open(OWNER_EMAIL, '#organization/invites-list-admin', { password: OWNER_PASSWORD });
  const memberWeb = await suite.open(member.credentials.email, '#inbox');
  const leaverWeb = await suite.open(leaver.credentials.email, '#inbox');
  const settings = owner.page.getByRole('region', { name: 'Organization settings' });

  // An invitation link, then revoked.
  await settings.getByRole('button', { name: 'Create invitation link' }).click();
  const link = settings.getByRole('textbox', { name: 'Invitation link' });
  await link.waitFor();
  assert.equal(await link.count(), 1);
  assert.equal((await suite.server.owner.get('/invites')).body.invites.length, 1);
  const pending = settings.getByRole('region', { name: 'Pending invitations' });
  await pending.getByRole('listitem').getByRole('button', { name: /^Revoke/ }).click();
  await pending.getByRole('listitem').getByRole('button', { name: 'Revoke it' }).click();
  await link.waitFor({ state: 'detached' });
  assert.equal((await suite.server.owner.get('/invites')).body.invites.length, 0);

  // A member made an administrator finds the organization's settings in their menu at once.
  await settings.getByRole('link', { name: 'Users', exact: true }).click();
  await settings.getByRole('combobox', { name: 'Role of Morgan Member' }).selectOption('Administrator');
  await waitUntil(async () => (await suite.server.owner.get(`/users/${member.userId}`)).body.user.role === 200, 'the server has the new role');
  await memberWeb.page.getByRole('button', { name: 'Personal menu' }).click();
  await memberWeb.page.getByRole('menuitem', { name: 'Organization settings' }).waitFor();
  await memberWeb.page.keyboard.press('Escape');

  // A new name for the organization reaches everyone's page.
  await settings.getByRole('link', { name: 'Organization profile' }).click();
  const orgName = settings.getByLabel('Organization name');
  await orgName.fill('The Renamed Guild');
  await settings.getByRole('button', { name: 'Save profile' }).click();
  await memberWeb.page.getByRole('link', { name: 'The Renamed Guild' }).waitFor();
  await waitUntil(async () => (await memberWeb.page.title()).endsWith('· The Renamed Guild'), 'the title has the new name');

  // Deactivating asks first, then ends the person's session: their page goes to the login.
  await settings.getByRole('link', { name: 'Users', exact: true }).click();
  await settings.getByRole('button', { name: 'Deactivate Lee Leaver' }).click();
  await settings.getByRole('group', { name: 'Deactivate Lee Leaver?' }).getByRole('button', { name: 'Yes, deactivate' }).click();
  await settings.getByRole('list', { name: 'Users' }).getByRole('button', { name: 'Lee Leaver', exact: true }).waitFor({ state: 'detached' });
  await waitUntil(() => new URL(leaverWeb.page.url()).pathname === '/login', 'the deactivated person is sent to the login page', 20_000);
  await people(memberWeb.page).getByText('Lee Leaver').waitFor({ state: 'detached' });
  assert.deepEqual([...owner.problems, ...memberWeb.problems], []);
  // The deactivated page's refused requests are expected; nothing else went wrong in it.
  assert.deepEqual(
    leaverWeb.problems.filter((p) => !/^401 /.test(p)),
    [],
  );
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { OWNER_EMAIL, OWNER_PASSWORD } from './support/server';
import { openSettingsPage, waitUntil, webSuite, type WebUser } from './support/web';

/**
 * The rest of "people and the organization" in the web client: deactivating one's own account,
 * organization pages read-only for members, Zulip's #groups addresses, a bot's owner and
 * default channels, profile fields naming people, and a page told its person was deactivated.
 */

const suite = webSuite();
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SIZES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

function settingsRegion(page: Page, name: 'Personal settings' | 'Organization settings') {
  return page.getByRole('region', { name });
}

/** A deactivated page's refused requests are what tells it; anything else is a problem. */
function problemsBesidesDeactivation(web: WebUser): string[] {
  return web.problems.filter((problem) => !/^401 /.test(problem));
}

async function userRow(userId: number) {
  return (await suite.server.owner.get(`/users/${userId}`, { include_custom_profile_fields: true })).body.user as Record<string, any>;
}

for (const [size, viewport] of SIZES) {
  test(`at ${size} a member deactivates their own account after confirming, and the only owner may not`, { skip: NO_CHROMIUM }, async () => {
    const owner = await suite.open(OWNER_EMAIL, '#settings/account-and-privacy', { password: OWNER_PASSWORD, viewport });
    const ownerPage = settingsRegion(owner.page, 'Personal settings');
    const ownerButton = ownerPage.getByRole('button', { name: 'Deactivate account' });
    await ownerButton.waitFor();
    assert.equal(await ownerButton.isDisabled(), true, 'the only owner cannot leave');
    await ownerPage.getByText(/only owner/).waitFor();

    const leaver = await suite.server.createUser(`Lea Leaving ${size}`);
    const web = await suite.open(leaver.credentials.email, '#settings/account-and-privacy', { viewport });
    const page = settingsRegion(web.page, 'Personal settings');
    const button = page.getByRole('button', { name: 'Deactivate account' });
    await button.scrollIntoViewIfNeeded();
    await button.click();
    const dialog = web.page.getByRole('dialog', { name: 'Deactivate your account?' });
    await dialog.waitFor();
    await web.page.screenshot({ path: `/tmp/people-rest-deactivate-${size}.png` });
    // Cancel is the safe default; nothing happens.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await userRow(leaver.userId)).is_active, true);

    await button.click();
    await web.page.getByRole('dialog', { name: 'Deactivate your account?' }).getByRole('button', { name: 'Deactivate my account' }).click();
    await waitUntil(() => new URL(web.page.url()).pathname === '/login', 'the page leaves for the login page');
    await web.page.getByRole('alert').getByText(/Your account has been deactivated/).waitFor();
    assert.equal((await userRow(leaver.userId)).is_active, false);
    // The old session no longer works, and says why.
    const refused = await web.page.evaluate(`fetch('/json/users/me').then((r) => r.json())`);
    assert.equal((refused as { code: string }).code, 'USER_DEACTIVATED');
    assert.deepEqual([...owner.problems, ...problemsBesidesDeactivation(web)], []);
  });

  test(`at ${size} a member sees the organization's pages read-only, listed in their menu`, { skip: NO_CHROMIUM }, async () => {
    const member = await suite.server.createUser(`Rhea Reader ${size}`);
    const web = await suite.open(member.credentials.email, '#inbox', { viewport });
    await web.page.getByRole('button', { name: 'Personal menu' }).click();
    await web.page.getByRole('menuitem', { name: 'Organization settings' }).click();
    const page = settingsRegion(web.page, 'Organization settings');
    await page.getByText('Only administrators of the organization can change these settings.').waitFor();
    const name = page.getByRole('textbox', { name: 'Organization name' });
    await name.waitFor();
    assert.equal(await name.inputValue(), (await suite.server.owner.get('/server_settings')).body.realm_name);
    assert.equal(await name.isDisabled(), true);

    // The menu (on a phone, its drop-down) lists the pages Zulip shows members, and not the administrators' own.
    const offered =
      size === 'desktop'
        ? await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link').allInnerTexts()
        : await page.getByRole('combobox', { name: 'Settings page' }).locator('option').allInnerTexts();
    for (const label of ['Organization profile', 'Organization settings', 'Organization permissions', 'Custom emoji', 'Linkifiers', 'Users', 'Bots', 'User groups', 'Default channels']) {
      assert.ok(offered.includes(label), `${label} is offered`);
    }
    for (const label of ['Custom profile fields', 'Deactivated users', 'Data exports', 'Code playgrounds']) assert.ok(!offered.includes(label), `${label} is not`);

    // Each page shows its values, with no control that works.
    await openSettingsPage(page, 'Organization permissions');
    await page.locator('#settings-page-title', { hasText: 'Organization permissions' }).waitFor();
    const permissions = page.locator('fieldset.read-only-page');
    await permissions.locator('select').first().waitFor();
    assert.equal(await permissions.locator('select:enabled, input:enabled, textarea:enabled').count(), 0);
    await web.page.screenshot({ path: `/tmp/people-rest-readonly-${size}.png` });

    await openSettingsPage(page, 'Users');
    await page.getByText(`Rhea Reader ${size}`).first().waitFor();
    assert.equal(await page.locator('fieldset.read-only-page').locator('select:enabled, button:enabled').count(), 0, 'no role or deactivation for members');

    await openSettingsPage(page, 'Linkifiers');
    await page.getByRole('form', { name: 'Add a linkifier' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Add linkifier' }).isDisabled(), true);
    // What members may not see at all still gives them their own settings.
    await web.page.evaluate(`location.hash = '#organization/data-exports-admin'`);
    await settingsRegion(web.page, 'Personal settings').getByLabel('Full name').waitFor();
    assert.deepEqual(web.problems, []);
  });
}

test('#groups addresses open the user-group screens, as in Zulip, and the old address still works', { skip: NO_CHROMIUM }, async () => {
  const member = await suite.server.createUser('Gil Grouped');
  const mine = uniqueName('Readers');
  const other = uniqueName('Writers');
  const mineId = (await suite.server.owner.post('/user_groups/create', { name: mine, description: 'They read', members: [member.userId] })).body.group_id as number;
  await suite.server.owner.post('/user_groups/create', { name: other, description: 'They write', members: [suite.server.ownerId] });

  for (const [size, viewport] of SIZES) {
    const web = await suite.open(member.credentials.email, '#groups/your', { viewport });
    const page = settingsRegion(web.page, 'Organization settings');
    const list = page.getByRole('list', { name: 'User groups' });
    await list.getByRole('button', { name: new RegExp(mine) }).waitFor();
    assert.equal(await list.getByRole('button', { name: new RegExp(other) }).count(), 0, '#groups/your lists only one\'s own groups');
    assert.equal(await page.getByRole('link', { name: 'Your groups' }).getAttribute('aria-current'), 'page');

    await page.getByRole('link', { name: 'All groups' }).click();
    await waitUntil(() => web.page.url().endsWith('#groups/all'), 'the address is #groups/all');
    await list.getByRole('button', { name: new RegExp(other) }).waitFor();

    // Opening a group gives its address; its members tab brings the members into view.
    await list.getByRole('button', { name: new RegExp(mine) }).click();
    await page.getByRole('region', { name: `Group ${mine}` }).waitFor();
    await waitUntil(() => new URL(web.page.url()).hash.startsWith(`#groups/${mineId}/`), 'the address names the group');
    await web.page.evaluate(`location.hash = '#groups/${mineId}/${mine}/members'`);
    const members = page.getByRole('list', { name: /Members/ });
    await members.getByText('Gil Grouped').waitFor();
    await waitUntil(() => members.isVisible(), 'the members are in view');
    await web.page.screenshot({ path: `/tmp/people-rest-groups-${size}.png` });

    // Back returns to the list; the old address still opens the page.
    await web.page.goBack();
    await waitUntil(() => web.page.url().endsWith('#groups/all') || !web.page.url().includes('/members'), 'back leaves the members tab');
    await web.page.evaluate(`location.hash = '#organization/user-groups-admin'`);
    await list.getByRole('button', { name: new RegExp(other) }).waitFor();
    assert.deepEqual(web.problems, []);
  }

  // #groups/new opens the creation form for those who may create groups.
  const admin = await suite.open(OWNER_EMAIL, '#groups/new', { password: OWNER_PASSWORD, viewport: DESKTOP });
  await settingsRegion(admin.page, 'Organization settings').getByRole('form', { name: 'New user group' }).waitFor();
  assert.deepEqual(admin.problems, []);
});

test('a bot’s owner and default channels are changed in its settings', { skip: NO_CHROMIUM }, async () => {
  const maker = await suite.server.createUser('Bea Botmaker');
  const heir = await suite.server.createUser('Hal Heir');
  const outbox = await createChannel(maker, {}, uniqueName('outbox'));
  const inbox = await createChannel(maker, {}, uniqueName('inbox'));
  const made = await maker.post('/bots', { full_name: 'Relay Bot', short_name: 'relay', bot_type: 1 });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  const botId = made.body.user_id as number;
  const realmBot = async () =>
    ((await suite.server.owner.post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots as Array<Record<string, any>>).find((b) => b.user_id === botId)!;

  for (const [size, viewport] of SIZES) {
    const web = await suite.open(maker.credentials.email, '#settings/your-bots', { viewport });
    const page = settingsRegion(web.page, 'Personal settings');
    await page.getByRole('button', { name: 'Edit Relay Bot' }).click();
    const dialog = web.page.getByRole('dialog', { name: 'Edit Relay Bot' });
    await dialog.getByLabel('Owner').waitFor();
    assert.equal(await dialog.getByLabel('Owner').inputValue(), String(maker.userId));
    if (size === 'desktop') {
      await dialog.getByLabel('Default channel for its messages').selectOption({ label: `#${outbox.name}` });
      await dialog.getByLabel('Default channel for its events').selectOption({ label: `#${inbox.name}` });
      await dialog.getByLabel('Events from all public channels').check();
      await web.page.screenshot({ path: `/tmp/people-rest-bot-${size}.png` });
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await dialog.waitFor({ state: 'detached' });
      await waitUntil(async () => (await realmBot()).default_sending_stream === outbox.name, 'the default sending channel is stored');
      const stored = await realmBot();
      assert.equal(stored.default_events_register_stream, inbox.name);
      assert.equal(stored.default_all_public_streams, true);
      assert.equal((await userRow(botId)).bot_owner_id, maker.userId, 'the owner is unchanged');
    } else {
      // The defaults read back as saved; a channel is cleared, and the bot is given to another person.
      assert.equal(await dialog.getByLabel('Default channel for its messages').inputValue(), outbox.name);
      await dialog.getByLabel('Default channel for its events').selectOption({ label: 'None' });
      await dialog.getByLabel('Owner').selectOption({ label: 'Hal Heir' });
      await web.page.screenshot({ path: `/tmp/people-rest-bot-${size}.png` });
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      // No longer the maker's: it leaves their list.
      await page.getByRole('button', { name: 'Edit Relay Bot' }).waitFor({ state: 'detached' });
      const stored = await realmBot();
      assert.equal((await userRow(botId)).bot_owner_id, heir.userId);
      assert.equal(stored.default_events_register_stream, null);
      assert.equal(stored.default_sending_stream, outbox.name, 'what was not touched stays');
    }
    assert.deepEqual(web.problems, []);
  }
});

test('a profile field naming people is filled in with a person picker and shown as links to them', { skip: NO_CHROMIUM }, async () => {
  const mentor = await suite.server.createUser('Mona Mentor');
  const second = await suite.server.createUser('Sid Second');
  const pupil = await suite.server.createUser('Pia Pupil');
  const field = await suite.server.owner.post('/realm/profile_fields', { name: 'Mentor', hint: 'Who helps you', field_type: 6 });
  assert.equal(field.status, 200, JSON.stringify(field.body));
  const fieldId = field.body.id as number;
  const mentors = async () => JSON.parse((await userRow(pupil.userId)).profile_data?.[fieldId]?.value ?? '[]') as number[];

  for (const [size, viewport] of SIZES) {
    const web = await suite.open(pupil.credentials.email, '#settings/profile', { viewport });
    const page = settingsRegion(web.page, 'Personal settings');
    const fieldGroup = page.getByRole('group', { name: 'Mentor' });
    if (size === 'desktop') {
      await fieldGroup.getByLabel('Add a person to Mentor').fill('Mona Mentor');
      await fieldGroup.getByLabel('Add a person to Mentor').press('Enter');
      await waitUntil(async () => (await mentors()).includes(mentor.userId), 'the mentor is stored');
      await fieldGroup.getByRole('list', { name: 'People in Mentor' }).getByText('Mona Mentor').waitFor();
      await fieldGroup.getByLabel('Add a person to Mentor').fill(second.credentials.email);
      await fieldGroup.getByRole('button', { name: 'Add' }).click();
      await waitUntil(async () => (await mentors()).length === 2, 'the second person is stored');
      await web.page.screenshot({ path: `/tmp/people-rest-field-${size}.png` });
    } else {
      // Kept over a reload, and one removed.
      await fieldGroup.getByRole('list', { name: 'People in Mentor' }).getByText('Sid Second').waitFor();
      await fieldGroup.getByRole('button', { name: 'Remove Sid Second from Mentor' }).click();
      await waitUntil(async () => (await mentors()).length === 1, 'the removal is stored');
      await web.page.screenshot({ path: `/tmp/people-rest-field-${size}.png` });
    }
    assert.deepEqual(web.problems, []);
  }
  assert.deepEqual(await mentors(), [mentor.userId]);

  // Another person opens the pupil's profile: the mentor's name leads to the mentor.
  const viewer = await suite.open(OWNER_EMAIL, `#user/${pupil.userId}`, { password: OWNER_PASSWORD, viewport: DESKTOP });
  const profile = viewer.page.getByRole('dialog', { name: 'Pia Pupil' });
  await profile.getByText('Mentor', { exact: true }).waitFor();
  await profile.getByRole('button', { name: 'Mona Mentor' }).click();
  await viewer.page.getByRole('dialog', { name: 'Mona Mentor' }).waitFor();
  assert.deepEqual(viewer.problems, []);
});

test('a page whose person is deactivated by an administrator is told so and logged out', { skip: NO_CHROMIUM }, async () => {
  for (const [size, viewport] of SIZES) {
    const person = await suite.server.createUser(`Dee Deactivated ${size}`);
    const web = await suite.open(person.credentials.email, '#inbox', { viewport });
    // Welcome Bot greeted them, as it greets everyone who joins.
    await web.page.getByRole('navigation', { name: 'Views, channels and direct messages' }).getByText('Welcome Bot').waitFor();
    assert.equal((await suite.server.owner.delete(`/users/${person.userId}`)).status, 200);
    await waitUntil(() => new URL(web.page.url()).pathname === '/login', 'the page leaves for the login page');
    await web.page.getByRole('alert').getByText(/Your account has been deactivated/).waitFor();
    await web.page.screenshot({ path: `/tmp/people-rest-deactivated-${size}.png` });
    assert.deepEqual(problemsBesidesDeactivation(web), []);
  }
});

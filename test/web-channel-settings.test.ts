import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { OWNER_EMAIL, OWNER_PASSWORD } from './support/server';
import { waitUntil, webSuite, type WebUser } from './support/web';

/**
 * Channel settings in the web client: opened from the sidebar's channel menu and from the
 * channel browser; name, description, privacy, group permissions, archiving; the person's own
 * colour, pin, mute and notifications; the subscriber list; and the organization's default
 * channels, managed by administrators.
 */

// Web-public channels are allowed by the server, so the organization's own switch decides.
const suite = webSuite({ config: { gravatar: false, webPublic: true } });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const VIEWPORTS = [DESKTOP, PHONE];

function openAsOwner(hash: string, viewport = DESKTOP): Promise<WebUser> {
  return suite.open(OWNER_EMAIL, hash, { password: OWNER_PASSWORD, viewport });
}

/** The channel's object as the API gives it to the owner. */
async function channelFromApi(id: number): Promise<Record<string, unknown>> {
  const answer = await suite.server.owner.get(`/streams/${id}`);
  assert.equal(answer.status, 200);
  return answer.body.stream;
}

/** The owner's subscription to a channel, as the API gives it. */
async function ownSubscription(id: number): Promise<Record<string, unknown>> {
  const answer = await suite.server.owner.get('/users/me/subscriptions');
  return answer.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === id);
}

async function subscriberIds(id: number): Promise<number[]> {
  return (await suite.server.owner.get(`/streams/${id}/members`)).body.subscribers;
}

/** Opens the sidebar (at phone width it is a panel of its own) and the channel's menu, and picks its settings. */
async function openSettingsFromSidebar(page: Page, channel: string): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Show channels' });
  if (await toggle.isVisible()) await toggle.click();
  const sidebar = page.getByRole('navigation', { name: 'Views, channels and direct messages' });
  await sidebar.getByRole('button', { name: `Channel menu for ${channel}` }).click();
  await page.getByRole('menuitem', { name: 'Channel settings' }).click();
  await page.getByRole('region', { name: `Settings of ${channel}` }).waitFor();
}

for (const viewport of VIEWPORTS) {
  const size = `${viewport.width}x${viewport.height}`;

  test(`at ${size} an administrator renames and describes a channel from the sidebar's menu, and a subscriber sees it at once`, { skip: NO_CHROMIUM }, async () => {
    const member = await suite.server.createUser(uniqueName('Cassio'));
    const name = uniqueName('Verona');
    const { id } = await createChannel(suite.server.owner, { principals: [member.credentials.email, OWNER_EMAIL] }, name);
    const admin = await openAsOwner('#inbox', viewport);
    const reader = await suite.open(member.credentials.email, '#inbox', { viewport });
    // The screen's code and styles are not part of the first view: they come when it opens.
    assert.equal(await admin.page.locator('style[data-area="channels"]').count(), 0);

    await openSettingsFromSidebar(admin.page, name);
    assert.match(admin.page.url(), new RegExp(`#channels/${id}/.*/general$`));
    await admin.page.screenshot({ path: `/tmp/channel-settings-general-${size}.png`, fullPage: false });
    const renamed = uniqueName('Padua');
    await admin.page.getByLabel('Channel name').fill(renamed);
    await admin.page.getByLabel('Description').fill('Where the plans are made');
    await admin.page.getByRole('button', { name: 'Save name and description' }).click();
    await admin.page.getByRole('heading', { name: renamed }).waitFor();

    const stored = await channelFromApi(id);
    assert.equal(stored.name, renamed);
    assert.equal(stored.description, 'Where the plans are made');
    // The subscriber's sidebar follows without a reload.
    const toggle = reader.page.getByRole('button', { name: 'Show channels' });
    if (await toggle.isVisible()) await toggle.click();
    await reader.page.getByRole('navigation', { name: 'Views, channels and direct messages' }).getByRole('link', { name: renamed }).waitFor();
    assert.deepEqual(admin.problems, []);
    assert.deepEqual(reader.problems, []);
  });

  test(`at ${size} privacy and who may post are changed, and a member sees them read-only`, { skip: NO_CHROMIUM }, async () => {
    const member = await suite.server.createUser(uniqueName('Bianca'));
    const name = uniqueName('Mantua');
    const { id } = await createChannel(suite.server.owner, { principals: [member.credentials.email, OWNER_EMAIL] }, name);
    const admin = await openAsOwner(`#channels/${id}/x/general`, viewport);
    const page = admin.page;
    await page.getByRole('radio', { name: /Private, shared history/ }).check();
    await page.getByRole('button', { name: 'Save privacy' }).click();
    await waitUntil(async () => (await channelFromApi(id)).invite_only === true, 'the channel is private');
    const stored = await channelFromApi(id);
    assert.equal(stored.history_public_to_subscribers, true);
    assert.equal(stored.is_web_public, false);
    // The lock shows in the heading once the server's event arrives.
    await page.getByRole('heading', { name: name }).filter({ hasText: '🔒' }).waitFor();

    await page.getByLabel('Who can post to the channel').selectOption({ label: 'Administrators' });
    const administrators = suite.server.groupId('role:administrators');
    await waitUntil(async () => (await channelFromApi(id)).can_send_message_group === administrators, 'only administrators may post');
    await page.getByLabel('Who can unsubscribe anyone').selectOption({ label: 'Moderators and administrators' });
    await waitUntil(async () => (await channelFromApi(id)).can_remove_subscribers_group === suite.server.groupId('role:moderators'), 'moderators may unsubscribe');
    await page.getByLabel('Who can resolve topics').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/channel-settings-permissions-${size}.png` });
    // role:everyone is not offered where guests may not hold the permission.
    const adminChoices = await page.getByLabel('Who can administer the channel').locator('option').allInnerTexts();
    assert.ok(!adminChoices.includes('Everyone, guests included'), adminChoices.join(', '));
    assert.ok(adminChoices.includes('Members'), adminChoices.join(', '));

    // The member may read the settings but change nothing.
    const reader = await suite.open(member.credentials.email, `#channels/${id}/x/general`, { viewport });
    await reader.page.getByRole('region', { name: `Settings of ${name}` }).waitFor();
    await reader.page.getByText('Only the channel’s administrators can change these settings.').waitFor();
    assert.equal(await reader.page.getByLabel('Channel name').isDisabled(), true);
    assert.equal(await reader.page.getByRole('button', { name: 'Save name and description' }).count(), 0);
    assert.equal(await reader.page.getByRole('radio', { name: /Private, shared history/ }).isChecked(), true);
    assert.equal(await reader.page.getByRole('radio', { name: /Public/ }).first().isDisabled(), true);
    assert.equal(await reader.page.getByRole('combobox', { name: 'Who can post to the channel' }).count(), 0);
    await reader.page.getByText('Who can post to the channel').locator('..').getByText('Administrators').waitFor();
    assert.equal(await reader.page.getByRole('button', { name: 'Archive channel' }).count(), 0);
    await reader.page.screenshot({ path: `/tmp/channel-settings-readonly-${size}.png` });
    assert.deepEqual(admin.problems, []);
    assert.deepEqual(reader.problems, []);
  });

  test(`at ${size} web-public is offered once the organization allows it, and chosen`, { skip: NO_CHROMIUM }, async () => {
    const name = uniqueName('Athens');
    const { id } = await createChannel(suite.server.owner, {}, name);
    const admin = await openAsOwner(`#channels/${id}/x/general`, viewport);
    const page = admin.page;
    await page.getByRole('radio', { name: /^Public/ }).waitFor();
    assert.equal(await page.getByRole('radio', { name: /Web-public/ }).count(), 0);
    const spectators = (on: boolean) => suite.server.owner.patch('/realm', { enable_spectator_access: on });
    assert.equal((await spectators(true)).status, 200);
    try {
      await page.getByRole('radio', { name: /Web-public/ }).check();
      await page.getByRole('button', { name: 'Save privacy' }).click();
      await waitUntil(async () => (await channelFromApi(id)).is_web_public === true, 'the channel is web-public');
    } finally {
      await spectators(false);
    }
    assert.deepEqual(admin.problems, []);
  });

  test(`at ${size} colour, pin, mute and notification overrides are the person's own`, { skip: NO_CHROMIUM }, async () => {
    const name = uniqueName('Padua');
    const { id } = await createChannel(suite.server.owner, {}, name);
    const admin = await openAsOwner(`#channels/${id}/x/personal`, viewport);
    const page = admin.page;
    await page.getByLabel('Channel colour').fill('#aa3355');
    await waitUntil(async () => (await ownSubscription(id)).color === '#aa3355', 'the colour is saved');
    await page.getByLabel('Pin to the top of the channel list').check();
    await page.getByLabel('Mute the channel').check();
    await page.getByLabel('Email notifications').check();
    await waitUntil(async () => {
      const sub = await ownSubscription(id);
      return sub.pin_to_top === true && sub.is_muted === true && sub.email_notifications === true;
    }, 'the personal settings are saved');
    await page.screenshot({ path: `/tmp/channel-settings-personal-${size}.png` });
    // The sidebar's swatch takes the colour at once.
    const toggle = page.getByRole('button', { name: 'Show channels' });
    if (await toggle.isVisible()) await toggle.click();
    const swatch = page.locator('.sidebar-channel', { hasText: name }).locator('.channel-swatch');
    await waitUntil(async () => (await swatch.getAttribute('style'))?.includes('rgb(170, 51, 85)') === true, 'the swatch shows the colour');
    if (await toggle.isVisible()) await toggle.click();
    await page.getByRole('button', { name: 'Reset to my general settings' }).click();
    await waitUntil(async () => (await ownSubscription(id)).email_notifications === false, 'the override is reset');
    assert.deepEqual(admin.problems, []);
  });

  test(`at ${size} the subscriber list adds people and groups, removes people, and follows others' changes`, { skip: NO_CHROMIUM }, async () => {
    const othello = await suite.server.createUser(uniqueName('Othello'));
    const emilia = await suite.server.createUser(uniqueName('Emilia'));
    const roderigo = await suite.server.createUser(uniqueName('Roderigo'));
    const watcher = await suite.server.createUser(uniqueName('Lodovico'));
    const group = await suite.server.owner.post('/user_groups/create', { name: uniqueName('Senate'), description: 'The senators', members: [roderigo.userId] });
    assert.equal(group.status, 200);
    const groupName = (await suite.server.owner.get('/user_groups')).body.user_groups.find((g: { id: number }) => g.id === group.body.group_id).name as string;
    const name = uniqueName('Cyprus');
    const { id } = await createChannel(suite.server.owner, { principals: [OWNER_EMAIL, othello.credentials.email] }, name);

    const admin = await openAsOwner('#channels', viewport);
    // From the channel browser.
    await admin.page.getByRole('link', { name: `Settings of ${name}` }).click();
    await admin.page.getByRole('region', { name: `Settings of ${name}` }).getByRole('link', { name: 'Subscribers' }).click();
    const list = admin.page.locator('.subscriber-list');
    await list.getByText(othello.credentials.email).waitFor();
    await admin.page.getByText('2 subscribers').waitFor();

    const box = admin.page.getByLabel('Add a person or a group');
    await box.fill(`${emilia.credentials.email}`);
    await box.press('Enter');
    await list.getByText(emilia.credentials.email).waitFor();
    await box.fill(`Group: ${groupName}`);
    await admin.page.getByRole('button', { name: 'Add', exact: true }).click();
    await list.getByText(roderigo.credentials.email).waitFor();
    assert.deepEqual((await subscriberIds(id)).sort(), [suite.server.ownerId, othello.userId, emilia.userId, roderigo.userId].sort());

    await admin.page.getByRole('button', { name: /^Unsubscribe .*Othello/ }).click();
    await list.getByText(othello.credentials.email).waitFor({ state: 'detached' });
    assert.ok(!(await subscriberIds(id)).includes(othello.userId));

    // Someone else's change shows in the open list.
    await suite.server.owner.post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [watcher.userId] });
    await list.getByText(watcher.credentials.email).waitFor();
    await admin.page.getByLabel('Filter subscribers').fill('lodovico');
    await waitUntil(async () => (await list.locator('li').count()) === 1, 'the filter leaves one subscriber');
    await admin.page.getByLabel('Filter subscribers').fill('');
    await admin.page.screenshot({ path: `/tmp/channel-settings-subscribers-${size}.png` });

    // Members may add subscribers while the organization lets them (its default), and the add
    // box leaves their screen as soon as an administrator takes that away; unsubscribing others
    // is for administrators here.
    const member = await suite.open(emilia.credentials.email, `#channels/${id}/x/subscribers`, { viewport });
    await member.page.locator('.subscriber-list').getByText(watcher.credentials.email).waitFor();
    await member.page.getByLabel('Add a person or a group').waitFor();
    const setRealmAdders = (group: string) => suite.server.owner.patch('/realm', { can_add_subscribers_group: { new: suite.server.groupId(group) } });
    assert.equal((await setRealmAdders('role:administrators')).status, 200);
    try {
      await member.page.getByLabel('Add a person or a group').waitFor({ state: 'detached' });
    } finally {
      await setRealmAdders('role:members');
    }
    assert.equal(await member.page.getByRole('button', { name: /^Unsubscribe .*Lodovico/ }).count(), 0);
    await member.page.getByRole('button', { name: /^Unsubscribe .*Emilia/ }).waitFor();
    assert.deepEqual(admin.problems, []);
    assert.deepEqual(member.problems, []);
  });

  test(`at ${size} a channel is archived, found among the archived ones and unarchived`, { skip: NO_CHROMIUM }, async () => {
    const name = uniqueName('Belmont');
    const { id } = await createChannel(suite.server.owner, {}, name);
    const admin = await openAsOwner(`#channels/${id}/x/general`, viewport);
    const page = admin.page;
    await page.getByRole('button', { name: 'Archive channel' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await page.getByText('This channel is archived').waitFor();
    assert.equal((await channelFromApi(id)).is_archived, true);
    assert.equal(await page.getByLabel('Channel name').isDisabled(), true);

    await page.goto(`${suite.server.url}/#channels`);
    await page.getByRole('region', { name: 'Channels' }).waitFor();
    assert.equal(await page.getByRole('link', { name: `Settings of ${name}` }).count(), 0);
    await page.getByLabel('Show archived channels instead').check();
    await page.getByRole('link', { name: `Settings of ${name}` }).click();
    await page.getByRole('button', { name: 'Unarchive channel' }).click();
    await page.getByRole('button', { name: 'Archive channel' }).waitFor();
    // The page follows the server's event; on a loaded machine the API is asked until it agrees.
    await waitUntil(async () => (await channelFromApi(id)).is_archived === false, 'the channel to be unarchived');
    assert.deepEqual(admin.problems, []);
  });

  test(`at ${size} administrators manage the default channels on a page of their own, and new people land in them`, { skip: NO_CHROMIUM }, async () => {
    const name = uniqueName('Elsinore');
    const { id } = await createChannel(suite.server.owner, {}, name);
    const admin = await openAsOwner('#inbox', viewport);
    const page = admin.page;
    await page.getByRole('button', { name: 'Personal menu' }).click();
    await page.getByRole('menuitem', { name: 'Default channels' }).click();
    const screen = page.getByRole('region', { name: 'Default channels' });
    await screen.waitFor();
    await screen.getByLabel('Channel to add').selectOption({ label: name });
    await screen.getByRole('button', { name: 'Add', exact: true }).click();
    await screen.getByRole('link', { name: `#${name}` }).waitFor();
    await page.screenshot({ path: `/tmp/default-channels-${size}.png` });
    const newcomer = await suite.server.createUser(uniqueName('Horatio'));
    const joined = (await newcomer.get('/users/me/subscriptions')).body.subscriptions.map((s: { stream_id: number }) => s.stream_id);
    assert.ok(joined.includes(id), 'the new person is subscribed to the default channel');

    await screen.getByRole('button', { name: `Remove ${name} from the default channels` }).click();
    await screen.getByRole('link', { name: `#${name}` }).waitFor({ state: 'detached' });
    const registered = await suite.server.owner.post('/register', { fetch_event_types: ['default_streams'] });
    assert.ok(!registered.body.realm_default_streams.includes(id));

    // Members see the list read-only, as Zulip shows it to them.
    const member = await suite.open(newcomer.credentials.email, '#inbox', { viewport });
    await member.page.getByRole('button', { name: 'Personal menu' }).click();
    await member.page.getByRole('menuitem', { name: 'Default channels' }).click();
    const memberScreen = member.page.getByRole('region', { name: 'Default channels' });
    await memberScreen.getByText('Only administrators of the organization can change these settings.').waitFor();
    assert.equal(await memberScreen.getByRole('button', { name: 'Add', exact: true }).count(), 0);
    assert.deepEqual(admin.problems, []);
    assert.deepEqual(member.problems, []);
  });
}

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import type { Client } from './support/client';
import { OWNER_EMAIL, OWNER_PASSWORD } from './support/server';
import { waitUntil, webSuite, type WebUser } from './support/web';
import { REALM_SETTINGS } from '../lib/realm/settings';
import { OWNERS_ONLY } from '../web/admin/realm-setting-lists';

/**
 * The organization's settings pages for administrators: profile (name, description, icon,
 * logos), settings and permissions, custom emoji, linkifiers, code playgrounds and custom
 * profile fields; the settings' menu on a phone; what members see at these addresses.
 */

const suite = webSuite();

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

// A 2x2 red PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

/** Screenshots for a person to look at, outside the repository. */
async function shot(web: WebUser, name: string): Promise<void> {
  await web.page.screenshot({ path: join(tmpdir(), `web-org-settings-${name}.png`), fullPage: true });
}

function settingsPage(page: Page) {
  return page.getByRole('region', { name: 'Organization settings' });
}

/** The organization's values as a new page would be given them. */
async function realmState(client: Client): Promise<Record<string, unknown>> {
  return (await client.post('/register', { fetch_event_types: ['realm', 'realm_playgrounds'] })).body as Record<string, unknown>;
}

async function administrator(name: string) {
  const person = await suite.server.createUser(name);
  await suite.server.owner.patch(`/users/${person.userId}`, { role: 200 });
  return person;
}

function openAsOwner(hash: string, viewport = DESKTOP) {
  return suite.open(OWNER_EMAIL, hash, { password: OWNER_PASSWORD, viewport });
}

/** Whether the page is wider than the window (something sticks out sideways). */
function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate('document.documentElement.scrollWidth > window.innerWidth + 1') as Promise<boolean>;
}

for (const [size, viewport] of [
  ['1280x800', DESKTOP],
  ['390x844', PHONE],
] as const) {
  test(`at ${size} the owner edits the organization's profile and icon, and a member sees them at once`, { skip: NO_CHROMIUM }, async () => {
    const member = await suite.server.createUser('Mona Member');
    const memberWeb = await suite.open(member.credentials.email, '#inbox', { viewport });
    const web = await openAsOwner('#organization/organization-profile', viewport);
    const page = settingsPage(web.page);
    const originalName = (await realmState(member)).realm_name as string;
    const newName = `Guild ${size}`;
    await page.getByLabel('Organization name').fill(newName);
    await page.getByLabel('Organization description').fill('We build **bridges**.');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').getByText('Organization profile saved.').waitFor();
    // On a phone the top bar leaves the name out; the window's title has it everywhere.
    await waitUntil(async () => (await memberWeb.page.title()).endsWith(newName), 'the member\'s page is titled with the new name');
    if (viewport === DESKTOP) await memberWeb.page.locator('.realm-name', { hasText: newName }).waitFor();
    const state = await realmState(member);
    assert.equal(state.realm_name, newName);
    assert.equal(state.realm_description, 'We build **bridges**.');

    // The icon: uploaded, previewed, shown in everyone's top bar; then deleted after a question.
    await page.getByLabel('Upload a new icon').setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('img', { name: 'The organization icon' }).waitFor();
    const topIcon = memberWeb.page.locator('.top-bar .realm-icon');
    await topIcon.waitFor({ state: 'attached' });
    await waitUntil(() => topIcon.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0), 'the icon has loaded');
    assert.equal((await realmState(member)).realm_icon_source, 'U');

    await page.getByLabel('Upload a new logo (Logo for the dark theme)').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('img', { name: 'The logo for the dark theme' }).waitFor();
    assert.equal((await realmState(member)).realm_night_logo_source, 'U');
    assert.equal((await realmState(member)).realm_logo_source, 'D', 'the light logo is untouched');
    assert.equal(await overflowsSideways(web.page), false);
    // Each picture's box, and what is in it, stays inside the page's column.
    const spills = await web.page.locator('.org-images').evaluate((list) => {
      const right = (list as unknown as { getBoundingClientRect(): { right: number } }).getBoundingClientRect().right;
      const inside = (list as unknown as { querySelectorAll(s: string): Iterable<{ getBoundingClientRect(): { right: number } }> }).querySelectorAll('.org-image, .org-image *');
      return [...inside].filter((element) => element.getBoundingClientRect().right > right + 0.5).length;
    });
    assert.equal(spills, 0, 'nothing reaches past the pictures\' column');
    await shot(web, `profile-${size}`);

    // The default icon cannot be reached here (as Gravatar's cannot without Internet access):
    // the organization's initial stands in for a broken picture.
    await web.page.route('**/default-avatar.png', (route) => route.abort());
    await page.getByRole('button', { name: 'Delete icon' }).click();
    await web.page.getByRole('dialog', { name: 'Delete the icon?' }).getByRole('button', { name: 'Delete icon' }).click();
    await topIcon.waitFor({ state: 'detached' });
    const defaultIcon = page.getByRole('img', { name: 'The default organization icon' });
    await defaultIcon.and(page.locator('.icon-initial')).waitFor();
    assert.equal(await defaultIcon.innerText(), 'G');
    assert.equal((await realmState(member)).realm_icon_source, 'G');
    await suite.server.owner.patch('/realm', { name: originalName });
    assert.deepEqual([...web.problems, ...memberWeb.problems], []);
  });
}

test('an administrator changes the organization settings and permissions; another administrator sees them live', { skip: NO_CHROMIUM }, async () => {
  const iago = await administrator('Iago Admin');
  const other = await administrator('Otto Admin');
  const channelName = uniqueName('announce');
  await createChannel(suite.server.owner, {}, channelName);
  const channelId = (await suite.server.owner.get('/get_stream_id', { stream: channelName })).body.stream_id as number;
  const web = await suite.open(iago.credentials.email, '#organization/organization-settings');
  const otherWeb = await suite.open(other.credentials.email, '#organization/organization-permissions');
  const page = settingsPage(web.page);

  // Settings: a section's changes wait for its Save button, which says when they are saved.
  const automated = page.getByRole('form', { name: 'Automated messages and emails' });
  await automated.getByLabel('Language for automated messages and invitation emails').selectOption('de');
  await automated.getByLabel('Channel for new channel announcements').selectOption(String(channelId));
  assert.equal((await realmState(iago)).realm_default_language, 'en', 'nothing is saved before the button');
  await automated.getByRole('button', { name: 'Save changes' }).click();
  await automated.getByRole('status').getByText('Saved.').waitFor();
  let state = await realmState(iago);
  assert.equal(state.realm_default_language, 'de');
  assert.equal(state.realm_new_stream_announcements_stream_id, channelId);
  assert.equal(await automated.getByRole('button', { name: 'Save changes' }).count(), 0);

  const compose = page.getByRole('form', { name: 'Compose and message feed' });
  await compose.getByLabel('Messages without a topic').selectOption('disable_empty_topic');
  await compose.getByRole('button', { name: 'Discard' }).click();
  assert.equal(await compose.getByLabel('Messages without a topic').inputValue(), 'allow_empty_topic');
  await compose.getByLabel('Messages without a topic').selectOption('disable_empty_topic');
  await compose.getByRole('button', { name: 'Save changes' }).click();
  await compose.getByRole('status').getByText('Saved.').waitFor();
  assert.equal((await realmState(iago)).realm_topics_policy, 'disable_empty_topic');
  // Retention is the owners' to change: an administrator sees it, disabled.
  assert.ok(await page.getByLabel(/Keep messages for/).isDisabled());
  await shot(web, 'settings-1280x800');

  // Permissions: time limits (a preset, or minutes) and group settings.
  await web.page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Organization permissions' }).click();
  const editing = page.getByRole('form', { name: 'Message editing' });
  await editing.getByLabel('Time limit for editing messages').selectOption('custom');
  await editing.getByLabel('Time limit for editing messages, in minutes').fill('45');
  await editing.getByRole('button', { name: 'Save changes' }).click();
  await editing.getByRole('status').getByText('Saved.').waitFor();
  assert.equal((await realmState(iago)).realm_message_content_edit_limit_seconds, 45 * 60);

  const deletion = page.getByRole('form', { name: 'Message deletion' });
  await deletion.getByLabel('Time limit for deleting one’s own messages').selectOption('null');
  await deletion.getByLabel('Who can delete their own messages').selectOption({ label: 'Moderators and administrators' });
  await deletion.getByRole('button', { name: 'Save changes' }).click();
  await deletion.getByRole('status').getByText('Saved.').waitFor();
  state = await realmState(iago);
  assert.equal(state.realm_message_content_delete_limit_seconds, null);
  assert.equal(state.realm_can_delete_own_message_group, suite.server.groupId('role:moderators'));

  // A user group of the organization can be chosen too.
  const teachers = (await suite.server.owner.post('/user_groups/create', { name: 'teachers', description: 'They teach', members: [iago.userId] })).body.group_id as number;
  const channels = page.getByRole('form', { name: 'Channel permissions' });
  const creators = channels.getByLabel('Who can create public channels');
  await waitUntil(async () => (await creators.locator('option', { hasText: 'teachers' }).count()) === 1, 'the new group is offered');
  await creators.selectOption({ label: 'teachers' });
  await channels.getByRole('button', { name: 'Save changes' }).click();
  await channels.getByRole('status').getByText('Saved.').waitFor();
  assert.equal((await realmState(iago)).realm_can_create_public_channel_group, teachers);

  // The other administrator's open page follows.
  const otherPage = settingsPage(otherWeb.page);
  await waitUntil(async () => (await otherPage.getByLabel('Who can create public channels').inputValue()) === String(teachers), 'the other page shows the group');
  await waitUntil(async () => (await otherPage.getByLabel('Time limit for editing messages, in minutes').inputValue()) === '45', 'the other page shows the limit');
  // Owner-only permissions are disabled for administrators, and the server agrees.
  assert.ok(await otherPage.getByLabel(/Who can send email invitations/).isDisabled());
  const refused = await iago.patch('/realm', { invite_required: false });
  assert.equal(refused.body.result, 'error');
  assert.match(refused.body.msg, /owner/);
  await shot(web, 'permissions-1280x800');

  await suite.server.owner.patch('/realm', { topics_policy: 'allow_empty_topic', default_language: 'en', new_stream_announcements_stream_id: -1 });
  assert.deepEqual([...web.problems, ...otherWeb.problems], []);
});

test('the owner changes owner-only permissions, such as who may invite', { skip: NO_CHROMIUM }, async () => {
  const web = await openAsOwner('#organization/organization-permissions', PHONE);
  const page = settingsPage(web.page);
  const joining = page.getByRole('form', { name: 'Joining the organization' });
  await joining.getByLabel(/Who can send email invitations/).selectOption({ label: 'Administrators' });
  await joining.getByLabel(/Days before a new member becomes a full member/).fill('3');
  await joining.getByRole('button', { name: 'Save changes' }).click();
  await joining.getByRole('status').getByText('Saved.').waitFor();
  const state = await realmState(suite.server.owner);
  assert.equal(state.realm_can_invite_users_group, suite.server.groupId('role:administrators'));
  assert.equal(state.realm_waiting_period_threshold, 3);
  assert.equal(await overflowsSideways(web.page), false);
  await shot(web, 'permissions-390x844');
  await suite.server.owner.patch('/realm', { waiting_period_threshold: 0 });
  assert.deepEqual(web.problems, []);
});

for (const [size, viewport] of [
  ['1280x800', DESKTOP],
  ['390x844', PHONE],
] as const) {
  test(`at ${size} an administrator adds a custom emoji and deletes it after a question; another sees the list change`, { skip: NO_CHROMIUM }, async () => {
    const iago = await administrator(`Iago Emoji ${size}`);
    const other = await administrator(`Olga Emoji ${size}`);
    const web = await suite.open(iago.credentials.email, '#organization/emoji-settings', { viewport });
    const otherWeb = await suite.open(other.credentials.email, '#organization/emoji-settings', { viewport });
    const page = settingsPage(web.page);
    const name = `party_${size.replace('x', '_')}`;
    // Zulip's objection to a bad name is shown in the form.
    await page.getByLabel('Emoji name').fill('Bad!Name');
    await page.getByLabel('Emoji image').setInputFiles({ name: 'e.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('img', { name: 'Preview of the new emoji' }).waitFor();
    await page.getByRole('button', { name: 'Add emoji' }).click();
    await page.getByRole('alert').getByText(/Emoji names must contain only/).waitFor();
    web.problems.splice(0); // the refused upload (400) was the point

    await page.getByLabel('Emoji name').fill(name);
    await page.getByRole('button', { name: 'Add emoji' }).click();
    await page.getByRole('status').getByText(`:${name}: added.`).waitFor();
    const row = page.getByRole('row', { name: new RegExp(`:${name}:`) });
    await row.getByText('Iago Emoji').waitFor();
    await settingsPage(otherWeb.page).getByRole('row', { name: new RegExp(`:${name}:`) }).waitFor();
    assert.equal(await overflowsSideways(web.page), false);
    await shot(web, `emoji-${size}`);

    await row.getByRole('button', { name: `Delete :${name}:` }).click();
    const dialog = web.page.getByRole('dialog', { name: 'Delete custom emoji?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await row.count(), 1, 'Cancel keeps it');
    await row.getByRole('button', { name: `Delete :${name}:` }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await settingsPage(otherWeb.page).getByRole('row', { name: new RegExp(`:${name}:`) }).waitFor({ state: 'detached' });
    const emoji = (await iago.get('/realm/emoji')).body.emoji as Record<string, { name: string; deactivated: boolean }>;
    assert.ok(Object.values(emoji).some((e) => e.name === name && e.deactivated));
    assert.deepEqual([...web.problems, ...otherWeb.problems], []);
  });
}

test('linkifiers: an error from the server in the form, then add, edit, reorder and delete', { skip: NO_CHROMIUM }, async () => {
  const iago = await administrator('Iago Links');
  const web = await suite.open(iago.credentials.email, '#organization/linkifier-settings');
  const page = settingsPage(web.page);
  const add = page.getByRole('form', { name: 'Add a linkifier' });
  await add.getByLabel('Pattern').fill('#(?P<id>[0-9]+');
  await add.getByLabel('URL template').fill('https://example.com/issues/{id}');
  await add.getByRole('button', { name: 'Add linkifier' }).click();
  await add.getByRole('alert').waitFor();
  assert.match(await add.getByRole('alert').innerText(), /^Bad regular expression/);
  web.problems.splice(0); // the refusal was the point

  await add.getByLabel('Pattern').fill('#(?P<id>[0-9]+)');
  await add.getByRole('button', { name: 'Add linkifier' }).click();
  await add.getByRole('status').getByText('Linkifier added.').waitFor();
  await add.getByLabel('Pattern').fill('PR(?P<id>[0-9]+)');
  await add.getByLabel('URL template').fill('https://example.com/pull/{id}');
  await add.getByRole('button', { name: 'Add linkifier' }).click();
  const list = page.getByRole('list').filter({ has: web.page.getByText('PR(?P<id>[0-9]+)') });
  await list.getByText('PR(?P<id>[0-9]+)').waitFor();

  await page.getByRole('button', { name: 'Edit #(?P<id>[0-9]+)' }).click();
  const edit = page.getByRole('form', { name: 'Edit #(?P<id>[0-9]+)' });
  await edit.getByLabel('URL template').fill('https://example.org/ticket/{id}');
  await edit.getByRole('button', { name: 'Save linkifier' }).click();
  await page.getByText('https://example.org/ticket/{id}').waitFor();

  await page.getByRole('button', { name: 'Move PR(?P<id>[0-9]+) up' }).click();
  await waitUntil(async () => {
    const linkifiers = (await iago.get('/realm/linkifiers')).body.linkifiers as Array<{ pattern: string }>;
    return linkifiers[0]?.pattern === 'PR(?P<id>[0-9]+)';
  }, 'the second linkifier comes first');
  await waitUntil(async () => (await page.locator('.org-list code').first().innerText()) === 'PR(?P<id>[0-9]+)', 'the list shows the new order');
  await shot(web, 'linkifiers-1280x800');

  await page.getByRole('button', { name: 'Delete PR(?P<id>[0-9]+)' }).click();
  await web.page.getByRole('dialog', { name: 'Delete linkifier?' }).getByRole('button', { name: 'Delete' }).click();
  await page.getByText('https://example.com/pull/{id}').waitFor({ state: 'detached' });
  const left = (await iago.get('/realm/linkifiers')).body.linkifiers as Array<{ pattern: string; url_template: string }>;
  assert.deepEqual(left.map((l) => [l.pattern, l.url_template]), [['#(?P<id>[0-9]+)', 'https://example.org/ticket/{id}']]);
  assert.deepEqual(web.problems, []);
});

test('code playgrounds at phone width: add one, see it listed, delete it', { skip: NO_CHROMIUM }, async () => {
  const iago = await administrator('Iago Plays');
  const web = await suite.open(iago.credentials.email, '#organization/playground-settings', { viewport: PHONE });
  const page = settingsPage(web.page);
  await page.getByLabel('Language').fill('python');
  await page.getByLabel('Name').fill('Python playground');
  await page.getByLabel('URL template').fill('https://play.example.com/?code={code}');
  await page.getByRole('button', { name: 'Add playground' }).click();
  await page.getByRole('status').getByText('Playground added.').waitFor();
  await page.getByRole('row', { name: /Python playground/ }).waitFor();
  const stored = (await realmState(iago)).realm_playgrounds as Array<{ name: string; pygments_language: string }>;
  assert.ok(stored.some((p) => p.name === 'Python playground' && p.pygments_language === 'python'));
  assert.equal(await overflowsSideways(web.page), false);
  await shot(web, 'playgrounds-390x844');
  await page.getByRole('button', { name: 'Delete Python playground' }).click();
  await web.page.getByRole('dialog', { name: 'Delete code playground?' }).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('row', { name: /Python playground/ }).waitFor({ state: 'detached' });
  assert.deepEqual((await realmState(iago)).realm_playgrounds, []);
  assert.deepEqual(web.problems, []);
});

test('custom profile fields: a list of options is created, edited, moved and deleted', { skip: NO_CHROMIUM }, async () => {
  const iago = await administrator('Iago Fields');
  const web = await suite.open(iago.credentials.email, '#organization/profile-field-settings');
  const page = settingsPage(web.page);
  const add = page.getByRole('form', { name: 'Add a profile field' });
  await add.getByLabel('Type').selectOption({ label: 'Short text' });
  await add.getByLabel('Label').fill('Office');
  await add.getByRole('button', { name: 'Add field' }).click();
  await add.getByRole('status').getByText('Profile field added.').waitFor();

  await add.getByLabel('Type').selectOption({ label: 'List of options' });
  await add.getByLabel('Label').fill('Team');
  await add.getByLabel('Hint').fill('Where you work');
  await add.getByLabel('Option 1', { exact: true }).fill('Design');
  await add.getByRole('button', { name: 'Add an option' }).click();
  await add.getByLabel('Option 2', { exact: true }).fill('Design');
  await add.getByRole('button', { name: 'Add field' }).click();
  // Two equal options: Zulip's objection, in the form.
  await add.getByRole('alert').getByText('Field must not have duplicate choices.').waitFor();
  web.problems.splice(0);
  await add.getByLabel('Option 2', { exact: true }).fill('Engineering');
  await add.getByRole('button', { name: 'Add field' }).click();
  await add.getByRole('status').getByText('Profile field added.').waitFor();

  type Field = { id: number; name: string; hint: string; field_data: string; type: number };
  const fields = async () => ((await iago.get('/realm/profile_fields')).body.custom_fields as Field[]).filter((f) => ['Office', 'Team', 'Squad'].includes(f.name));
  let stored = await fields();
  assert.deepEqual(stored.map((f) => f.name), ['Office', 'Team']);
  const team = stored[1]!;
  assert.equal(team.type, 3);
  assert.deepEqual(Object.values(JSON.parse(team.field_data) as Record<string, { text: string }>).map((o) => o.text), ['Design', 'Engineering']);

  // Edit: a new label and a third option; the first two keep their keys (people's answers stay).
  await page.getByRole('button', { name: 'Edit Team' }).click();
  const edit = page.getByRole('form', { name: 'Edit Team' });
  await edit.getByLabel('Label').fill('Squad');
  await edit.getByRole('button', { name: 'Add an option' }).click();
  await edit.getByLabel('Option 3', { exact: true }).fill('Sales');
  await edit.getByRole('button', { name: 'Save field' }).click();
  await page.getByRole('button', { name: 'Edit Squad' }).waitFor();
  stored = await fields();
  const squad = stored.find((f) => f.name === 'Squad')!;
  const options = JSON.parse(squad.field_data) as Record<string, { text: string }>;
  const before = JSON.parse(team.field_data) as Record<string, { text: string }>;
  for (const [key, option] of Object.entries(before)) assert.equal(options[key]?.text, option.text);
  assert.deepEqual(Object.values(options).map((o) => o.text).sort(), ['Design', 'Engineering', 'Sales']);

  await page.getByRole('button', { name: 'Move Squad up' }).click();
  await waitUntil(async () => (await fields()).map((f) => f.name).join() === 'Squad,Office', 'Squad comes first');
  await shot(web, 'profile-fields-1280x800');

  await page.getByRole('button', { name: 'Delete Office' }).click();
  await web.page.getByRole('dialog', { name: 'Delete profile field?' }).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Edit Office' }).waitFor({ state: 'detached' });
  assert.deepEqual((await fields()).map((f) => f.name), ['Squad']);
  assert.deepEqual(web.problems, []);
});

test('on a phone the settings menu is one choice of page; a member at an organization address gets the personal page', { skip: NO_CHROMIUM }, async () => {
  const iago = await administrator('Iago Phone');
  const web = await suite.open(iago.credentials.email, '#organization/organization-profile', { viewport: PHONE });
  const jump = web.page.getByRole('combobox', { name: 'Settings page' });
  assert.equal(await jump.inputValue(), '#organization/organization-profile');
  assert.equal(await web.page.getByRole('navigation', { name: 'Settings sections' }).isVisible(), false, 'no wall of links');
  const labels = await jump.locator('option').allInnerTexts();
  for (const label of ['Profile', 'Organization profile', 'Organization settings', 'Organization permissions', 'Custom emoji', 'Linkifiers', 'Code playgrounds', 'Custom profile fields']) {
    assert.ok(labels.includes(label), `${label} is offered`);
  }
  // From the keyboard: focus the choice, pick a page.
  await jump.focus();
  await jump.selectOption('#organization/linkifier-settings');
  await waitUntil(() => web.page.url().endsWith('#organization/linkifier-settings'), 'the address follows');
  await settingsPage(web.page).getByRole('heading', { level: 2, name: 'Linkifiers' }).waitFor();
  assert.equal(await overflowsSideways(web.page), false);
  await shot(web, 'menu-390x844');

  // Every page of the organization fits the phone.
  for (const id of ['organization-settings', 'organization-permissions', 'emoji-settings', 'playground-settings', 'profile-field-settings']) {
    await web.page.evaluate(`location.hash = '#organization/${id}'`);
    await waitUntil(async () => (await jump.inputValue()) === `#organization/${id}`, `${id} is open`);
    await settingsPage(web.page).locator('.org-page').waitFor();
    assert.equal(await overflowsSideways(web.page), false, `${id} fits`);
  }
  await shot(web, 'profile-fields-390x844');

  // At a desktop's width it is a list of links.
  const wide = await suite.open(iago.credentials.email, '#organization/emoji-settings');
  await wide.page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Custom emoji' }).waitFor();
  assert.equal(await wide.page.getByRole('combobox', { name: 'Settings page' }).isVisible(), false);

  // A member sees the linkifiers read-only (test/web-people-rest.test.ts); a page only administrators see gives the personal settings.
  const member = await suite.server.createUser('Mel Member');
  const memberWeb = await suite.open(member.credentials.email, '#organization/profile-field-settings');
  const personal = memberWeb.page.getByRole('region', { name: 'Personal settings' });
  await personal.getByLabel('Full name').waitFor();
  assert.equal(await personal.locator('#settings-page-title').innerText(), 'Profile');
  assert.equal(await memberWeb.page.getByText('Add a profile field').count(), 0);
  assert.deepEqual([...web.problems, ...wide.problems, ...memberWeb.problems], []);
});

test('the settings pages mark as owners-only exactly the settings the server keeps for owners', () => {
  // The page keeps its own list (the web client does not import the server's code); this keeps the two alike.
  const server = REALM_SETTINGS.filter((def) => def.ownerOnly).map((def) => def.key).sort();
  assert.deepEqual([...OWNERS_ONLY].sort(), server);
});

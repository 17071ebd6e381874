import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { NO_CHROMIUM } from './support/chromium';
import { OWNER_EMAIL, OWNER_PASSWORD, type TestServer } from './support/server';
import { openSettingsPage, waitUntil, webSuite, type WebUser } from './support/web';

/**
 * The organization's people in the web client (users, deactivated users, data exports) and one's
 * own account and privacy settings, at desktop and phone widths.
 */

const suite = webSuite();

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** Screenshots for looking at the pages, when SCREENSHOTS_DIR asks for them. */
async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.SCREENSHOTS_DIR}/${name}.png`, fullPage: true });
}

/** Nothing on the page is wider than the window (no sideways scrolling on a phone). */
async function assertNoSidewaysScroll(page: Page): Promise<void> {
  const widths = (await page.evaluate(`(() => {
    const panel = document.querySelector('.panel.settings');
    return [document.documentElement.scrollWidth, window.innerWidth, panel.scrollWidth, panel.clientWidth];
  })()`)) as number[];
  const wide = await page.evaluate(`[...document.querySelectorAll('.panel.settings *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 6).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join('; ')`);
  assert.ok(widths[0] <= widths[1] && widths[2] <= widths[3], `the page fits its window: ${widths.join(', ')}: ${wide}`);
}

/** A new person with the role given (through the owner), and their client. */
async function personWithRole(server: TestServer, name: string, role: number) {
  const person = await server.createUser(name);
  if (role !== 400) assert.equal((await server.owner.patch(`/users/${person.userId}`, { role })).status, 200);
  return person;
}

function orgSettings(web: WebUser) {
  return web.page.getByRole('region', { name: 'Organization settings' });
}

function personalSettings(web: WebUser) {
  return web.page.getByRole('region', { name: 'Personal settings' });
}

for (const viewport of VIEWPORTS) {
  const at = `at ${viewport.width}x${viewport.height}`;

  test(`an administrator filters the users, sees the owner as Owner, changes roles and deactivates and reactivates people ${at}`, { skip: NO_CHROMIUM }, async () => {
    const admin = await personWithRole(suite.server, `Ada Admin ${viewport.width}`, 200);
    const owner = await personWithRole(suite.server, `Olga Owner ${viewport.width}`, 100);
    const member = await personWithRole(suite.server, `Milo Member ${viewport.width}`, 400);
    const leaver = await personWithRole(suite.server, `Lena Leaver ${viewport.width}`, 400);
    const web = await suite.open(admin.credentials.email, '#organization/users', { viewport });
    const settings = orgSettings(web);
    const list = settings.getByRole('list', { name: 'Users' });
    await list.getByRole('button', { name: `Milo Member ${viewport.width}`, exact: true }).waitFor();

    // The filter narrows the list by name or email.
    await settings.getByRole('searchbox', { name: 'Filter users' }).fill(`leaver ${viewport.width}`);
    await waitUntil(async () => (await list.getByRole('listitem').count()) === 1, 'one person is left');
    await settings.getByRole('searchbox', { name: 'Filter users' }).fill(member.credentials.email);
    await list.getByRole('button', { name: `Milo Member ${viewport.width}`, exact: true }).waitFor();
    assert.equal(await list.getByRole('listitem').count(), 1);
    await settings.getByRole('searchbox', { name: 'Filter users' }).fill('');

    // The owner's role shows as Owner, which an administrator cannot change.
    const ownerRole = settings.getByRole('combobox', { name: `Role of Olga Owner ${viewport.width}` });
    assert.equal(await ownerRole.evaluate((select) => (select as unknown as { selectedOptions: Array<{ textContent: string }> }).selectedOptions[0]?.textContent), 'Owner');
    assert.ok(await ownerRole.isDisabled());
    // Nor may they make anyone an owner.
    const memberRole = settings.getByRole('combobox', { name: `Role of Milo Member ${viewport.width}` });
    assert.ok(await memberRole.getByRole('option', { name: 'Owner' }).isDisabled());
    await memberRole.selectOption('Moderator');
    await waitUntil(async () => (await suite.server.owner.get(`/users/${member.userId}`)).body.user.role === 300, 'the server has the new role');
    assert.equal((await suite.server.owner.get(`/users/${owner.userId}`)).body.user.role, 100);

    // The last activity, from presence: the administrator's own page reports it.
    const adminRow = list.getByRole('listitem').filter({ hasText: `Ada Admin ${viewport.width}` });
    await adminRow.getByText('Active now').waitFor();
    await list.getByRole('listitem').filter({ hasText: `Lena Leaver ${viewport.width}` }).getByText('Never').waitFor();

    // A name opens the person's card.
    await list.getByRole('button', { name: `Milo Member ${viewport.width}`, exact: true }).click();
    const card = web.page.getByRole('dialog', { name: `Milo Member ${viewport.width}` });
    await card.waitFor();
    await web.page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });

    await assertNoSidewaysScroll(web.page);
    await screenshot(web.page, `users-${viewport.width}`);

    // Deactivating asks first; the person moves to the deactivated users, from where they come back.
    await settings.getByRole('button', { name: `Deactivate Lena Leaver ${viewport.width}` }).click();
    await settings.getByRole('group', { name: `Deactivate Lena Leaver ${viewport.width}?` }).getByRole('button', { name: 'Yes, deactivate' }).click();
    await list.getByRole('button', { name: `Lena Leaver ${viewport.width}`, exact: true }).waitFor({ state: 'detached' });
    assert.equal((await suite.server.owner.get(`/users/${leaver.userId}`)).body.user.is_active, false);
    await openSettingsPage(settings, 'Deactivated users');
    const deactivated = settings.getByRole('list', { name: 'Deactivated users' });
    await deactivated.getByRole('button', { name: `Lena Leaver ${viewport.width}`, exact: true }).waitFor();
    await assertNoSidewaysScroll(web.page);
    await screenshot(web.page, `deactivated-users-${viewport.width}`);
    await deactivated.getByRole('button', { name: `Reactivate Lena Leaver ${viewport.width}` }).click();
    await deactivated.getByRole('button', { name: `Lena Leaver ${viewport.width}`, exact: true }).waitFor({ state: 'detached' });
    assert.equal((await suite.server.owner.get(`/users/${leaver.userId}`)).body.user.is_active, true);
    await openSettingsPage(settings, 'Users');
    await list.getByRole('button', { name: `Lena Leaver ${viewport.width}`, exact: true }).waitFor();

    // Changing someone's email needs Zulip's special permission, which this administrator lacks.
    await settings.getByRole('button', { name: `Change email of Milo Member ${viewport.width}` }).click();
    const emailForm = settings.getByRole('form', { name: `New email for Milo Member ${viewport.width}` });
    await emailForm.getByLabel('New email').fill(`milo-${viewport.width}@elsewhere.example`);
    await emailForm.getByRole('button', { name: 'Save email' }).click();
    await emailForm.getByText('User not authorized to change user emails').waitFor();
    assert.deepEqual(
      web.problems.filter((p) => !p.startsWith('400 PATCH /json/users/')),
      [],
    );
  });

  test(`the owner sees the owner role, changes a person's email and makes someone an owner ${at}`, { skip: NO_CHROMIUM }, async () => {
    const member = await personWithRole(suite.server, `Nora Newmail ${viewport.width}`, 400);
    const web = await suite.open(OWNER_EMAIL, '#organization/users', { viewport, password: OWNER_PASSWORD });
    const settings = orgSettings(web);
    const newEmail = `nora-${viewport.width}@elsewhere.example`;
    await settings.getByRole('button', { name: `Change email of Nora Newmail ${viewport.width}` }).click();
    const emailForm = settings.getByRole('form', { name: `New email for Nora Newmail ${viewport.width}` });
    await emailForm.getByLabel('New email').fill(newEmail);
    await emailForm.getByRole('button', { name: 'Save email' }).click();
    await emailForm.waitFor({ state: 'detached' });
    await settings.getByRole('list', { name: 'Users' }).getByText(newEmail).waitFor();
    assert.equal((await suite.server.owner.get(`/users/${member.userId}`)).body.user.delivery_email, newEmail);

    const role = settings.getByRole('combobox', { name: `Role of Nora Newmail ${viewport.width}` });
    await role.selectOption('Owner');
    await waitUntil(async () => (await suite.server.owner.get(`/users/${member.userId}`)).body.user.role === 100, 'the server has the new owner');
    await role.selectOption('Member');
    await waitUntil(async () => (await suite.server.owner.get(`/users/${member.userId}`)).body.user.role === 400, 'the owner role is removed');
    assert.deepEqual(web.problems, []);
  });

  test(`an administrator starts a data export, sees it made live, downloads and deletes it ${at}`, { skip: NO_CHROMIUM }, async () => {
    const admin = await personWithRole(suite.server, `Exa Exporter ${viewport.width}`, 200);
    const web = await suite.open(admin.credentials.email, '#organization/data-exports-admin', { viewport });
    const settings = orgSettings(web);
    const form = settings.getByRole('form', { name: 'Start a data export' });
    await form.getByLabel('Export type').selectOption('full_with_consent');
    await form.getByText(/people allow their private data to be exported/).waitFor();
    await form.getByLabel('Export type').selectOption('public');
    const before = (await suite.server.owner.get('/export/realm')).body.exports.length;
    await form.getByRole('button', { name: 'Start export' }).click();
    const exports = settings.getByRole('list', { name: 'Exports' });
    await waitUntil(async () => (await exports.getByRole('listitem').count()) === before + 1, 'the new export is listed');
    const row = exports.getByRole('listitem').first();
    // It was made beside the server and the realm_export event said so.
    const download = row.getByRole('link', { name: /^Download the export of / });
    await download.waitFor({ timeout: 30_000 });
    await row.getByText('Ready').waitFor();
    await row.getByText(`Public data · by Exa Exporter ${viewport.width}`).waitFor();
    const href = (await download.getAttribute('href'))!;
    const fetched = (await web.page.evaluate(`fetch(${JSON.stringify(href)}).then(async (r) => [r.status, r.headers.get('content-type'), (await r.arrayBuffer()).byteLength])`)) as [number, string, number];
    assert.equal(fetched[0], 200);
    assert.equal(fetched[1], 'application/gzip');
    assert.ok(fetched[2] > 0);
    await assertNoSidewaysScroll(web.page);
    await screenshot(web.page, `data-exports-${viewport.width}`);

    await row.getByRole('button', { name: /^Delete the export of / }).click();
    await web.page.getByRole('dialog', { name: 'Delete this export?' }).getByRole('button', { name: 'Delete' }).click();
    await row.getByText('Deleted').waitFor();
    assert.equal(await download.count(), 0);
    const [latest] = (await suite.server.owner.get('/export/realm')).body.exports.sort((a: { id: number }, b: { id: number }) => b.id - a.id);
    assert.notEqual(latest.deleted_timestamp, null);
    assert.deepEqual(web.problems, []);
  });

  test(`one changes one's password, privacy settings and sees one's API key after the password ${at}`, { skip: NO_CHROMIUM }, async () => {
    const person = await suite.server.createUser(`Pat Private ${viewport.width}`);
    const web = await suite.open(person.credentials.email, '#settings/profile', { viewport });
    const settings = personalSettings(web);
    await openSettingsPage(settings, 'Account and privacy');
    await settings.getByText(person.credentials.email).waitFor();

    // The password, with the current one; the page says it was changed. (The word used to be
    // cleared early by the timer of an earlier word on the page, at times before a test's poll
    // of the page saw it: see the test of the statuses below.)
    const passwordForm = settings.getByRole('form', { name: 'Change your password' });
    await passwordForm.getByLabel('Current password').fill('secret-password');
    await passwordForm.getByLabel('New password').fill('a-brand-new-password');
    await passwordForm.getByRole('button', { name: 'Change password' }).click();
    await settings.getByRole('status').getByText('Password changed.').waitFor();
    assert.equal((await suite.server.anonymous.post('/fetch_api_key', { username: person.credentials.email, password: 'secret-password' })).status, 401);
    const again = await suite.open(person.credentials.email, '#inbox', { password: 'a-brand-new-password', viewport });

    // A wrong current password is said in the form.
    await passwordForm.getByLabel('Current password').fill('not-my-password');
    await passwordForm.getByLabel('New password').fill('another-new-password');
    await passwordForm.getByRole('button', { name: 'Change password' }).click();
    await passwordForm.getByText('Wrong password!').waitFor();

    // Privacy: each switch and the email visibility are kept on the server.
    await settings.getByRole('checkbox', { name: 'Let others see when I have read their messages' }).uncheck();
    await settings.getByRole('checkbox', { name: 'Let recipients see when I am typing direct messages' }).uncheck();
    await settings.getByRole('combobox', { name: 'Who can see your email address' }).selectOption('Administrators only');
    await waitUntil(async () => {
      const stored = (await person.post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings;
      return stored.send_read_receipts === false && stored.send_private_typing_notifications === false && stored.email_address_visibility === 3;
    }, 'the server keeps the privacy settings');

    // The API key, after the password; then a new one, and the old one stops working.
    const keyForm = settings.getByRole('form', { name: 'Show your API key' });
    await keyForm.getByLabel('Your password').fill('a-brand-new-password');
    await keyForm.getByRole('button', { name: 'Show API key' }).click();
    const key = settings.getByRole('textbox', { name: 'Your API key' });
    await key.waitFor();
    assert.equal(await key.inputValue(), person.credentials.apiKey);
    await assertNoSidewaysScroll(web.page);
    await screenshot(web.page, `account-${viewport.width}`);
    await settings.getByRole('button', { name: 'Generate a new API key' }).click();
    await waitUntil(async () => (await key.inputValue()) !== person.credentials.apiKey, 'a new key is shown');
    assert.equal((await person.get('/users/me')).status, 401, 'the old key no longer works');
    const renewed = person.as({ email: person.credentials.email, apiKey: await key.inputValue() });
    assert.equal((await renewed.get('/users/me')).status, 200);
    const zuliprc = decodeURIComponent((await settings.getByRole('link', { name: 'Download zuliprc' }).getAttribute('href'))!.replace(/^data:[^,]*,/, ''));
    assert.match(zuliprc, new RegExp(`^\\[api\\]\\nemail=${person.credentials.email.replace('.', '\\.')}\\nkey=${await key.inputValue()}\\nsite=http`));

    // An email change needs a confirmation mail, which this server (no mail server) cannot send:
    // it is not offered (test/web-email.test.ts changes an email on a server that sends mail).
    await settings.getByText(person.credentials.email, { exact: true }).waitFor();
    assert.equal(await settings.getByRole('button', { name: 'Change email' }).count(), 0);
    // The one refusal is the wrong current password given above.
    assert.deepEqual(
      web.problems.filter((p) => !/^400 PATCH \/json\/settings$/.test(p)),
      [],
    );
    assert.deepEqual(again.problems, []);
  });

  test(`an account without a password sets its first one, then sees its API key ${at}`, { skip: NO_CHROMIUM }, async () => {
    const person = await suite.server.createUser(`Dev Person ${viewport.width}`);
    const web = await suite.open(person.credentials.email, '#inbox', { viewport });
    withoutPassword(suite.server, person.userId);
    await web.page.evaluate(`location.hash = '#settings/account-and-privacy'`);
    await web.page.reload();
    const settings = personalSettings(web);
    const form = settings.getByRole('form', { name: 'Set a password' });
    await form.getByText('Your account has no password yet').waitFor();
    assert.equal(await settings.getByLabel('Current password').count(), 0);
    await settings.getByText('Set a password above first').waitFor();
    await screenshot(web.page, `first-password-${viewport.width}`);
    await form.getByLabel('New password').fill('my-first-password');
    await form.getByRole('button', { name: 'Set password' }).click();
    await settings.getByRole('status').getByText('Password set.').waitFor();
    assert.equal((await suite.server.anonymous.post('/fetch_api_key', { username: person.credentials.email, password: 'my-first-password' })).status, 200);
    // Now it is a password like any other: changing it asks for it, and the API key is behind it.
    await settings.getByRole('form', { name: 'Change your password' }).getByLabel('Current password').waitFor();
    await settings.getByRole('form', { name: 'Show your API key' }).getByLabel('Your password').fill('my-first-password');
    await settings.getByRole('button', { name: 'Show API key' }).click();
    assert.equal(await settings.getByRole('textbox', { name: 'Your API key' }).inputValue(), person.credentials.apiKey);
    assert.deepEqual(web.problems, []);
  });
}

// A 2x2 red PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

test('a status word stays its full time, not cut short by the timer of the word before it', { skip: NO_CHROMIUM }, async () => {
  const person = await suite.server.createUser('Stella Status');
  const web = await suite.open(person.credentials.email, '#settings/profile');
  const settings = personalSettings(web);
  await settings.getByLabel('Full name').fill('Stella Saved');
  await settings.getByRole('button', { name: 'Save name' }).click();
  await settings.getByRole('status').getByText('Name saved.').waitFor();
  const nameSaidAt = Date.now();
  await settings.getByLabel('Upload a new avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  const avatarSaid = settings.getByRole('status').getByText('Avatar changed.');
  await avatarSaid.waitFor();
  const avatarSaidAt = Date.now();
  // Past the time the name's word would have ended, the avatar's word is still there.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, nameSaidAt + 3500 - Date.now())));
  if (Date.now() - avatarSaidAt < 3500) assert.ok(await avatarSaid.isVisible(), 'the newer word is still shown');
  assert.deepEqual(web.problems, []);
});

/** Takes the person's password away, as the demo's people (or people moved from Zulip) have none. */
function withoutPassword(server: TestServer, userId: number): void {
  server.stoa.db.prepare('UPDATE users SET password_hash = NULL WHERE id = ?').run(userId);
  server.stoa.users.forget();
}

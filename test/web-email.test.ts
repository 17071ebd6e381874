import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { newContext, NO_CHROMIUM } from './support/chromium';
import { createChannel, uniqueName } from './support/channels';
import { MailCatcher } from './support/mail';
import { openSettingsPage, waitUntil, webSuite } from './support/web';

/**
 * What a person does with Stoa's email in the browser, on a server that sends mail: "Forgot
 * your password?" from the login page to a new password, and changing their own email from
 * Account and privacy, confirmed by the link mailed to the new address.
 */

const catcher = new MailCatcher();
after(() => catcher.close());
const suite = webSuite(async () => ({ config: { gravatar: false, smtp: await catcher.start() } }));

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.SCREENSHOTS_DIR}/${name}.png`, fullPage: true });
}

/** The newest mail's link to a path of this server. */
async function linkMailedTo(address: string, path: string): Promise<string> {
  const [mail] = await catcher.mailsTo([address]);
  const match = new RegExp(`http://\\S+${path}/[a-z2-7]{24}`).exec(mail.text ?? '');
  assert.ok(match, `a link in: ${mail.text}`);
  return match[0];
}

for (const viewport of VIEWPORTS) {
  const at = `at ${viewport.width}x${viewport.height}`;

  test(`"Forgot your password?" leads from the login page to a new password, and the person logs in with it ${at}`, { skip: NO_CHROMIUM }, async () => {
    const person = await suite.server.createUser(`Forgetful ${viewport.width}`);
    const email = person.credentials.email;
    const context = await newContext(suite.browser, viewport);
    try {
      const page = await context.newPage();
      await page.goto(`${suite.server.url}/login`);
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
      await page.getByLabel('Email').fill(email);
      await screenshot(page, `forgot-${viewport.width}`);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();

      await page.goto(await linkMailedTo(email, '/accounts/password/reset'));
      await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      await page.getByLabel('New password', { exact: true }).fill('fresh-password-1');
      await page.getByLabel('Confirm the new password').fill('fresh-password-2');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('alert').getByText('The two passwords are not the same.').waitFor();
      await page.getByLabel('New password', { exact: true }).fill('fresh-password-1');
      await page.getByLabel('Confirm the new password').fill('fresh-password-1');
      await screenshot(page, `new-password-${viewport.width}`);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('heading', { name: 'Password changed' }).waitFor();

      await page.getByRole('link', { name: 'Log in with your new password' }).click();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('fresh-password-1');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('navigation', { name: 'Views, channels and direct messages' }).waitFor();
    } finally {
      await context.close();
    }
  });

  test(`a person changes their own email from Account and privacy and confirms it by the mailed link ${at}`, { skip: NO_CHROMIUM }, async () => {
    const person = await suite.server.createUser(`Mover ${viewport.width}`);
    const newEmail = `moved-${viewport.width}@example.org`;
    const web = await suite.open(person.credentials.email, '#settings/profile', { viewport });
    const settings = web.page.getByRole('region', { name: 'Personal settings' });
    await openSettingsPage(settings, 'Account and privacy');
    await settings.getByRole('button', { name: 'Change email' }).click();
    const form = settings.getByRole('form', { name: 'Change your email' });
    await form.getByLabel('New email').fill(newEmail);
    await form.getByRole('button', { name: 'Send confirmation' }).click();
    await settings.getByText(`A confirmation link was sent to ${newEmail}.`).waitFor();
    await screenshot(web.page, `change-email-${viewport.width}`);
    assert.equal(suite.server.stoa.users.byId(person.userId)!.delivery_email, person.credentials.email, 'not yet changed');

    await web.page.goto(await linkMailedTo(newEmail, '/accounts/confirm_new_email'));
    await web.page.getByRole('heading', { name: 'Email address changed' }).waitFor();
    await web.page.getByText(`The email address of your account is now ${newEmail}.`).waitFor();
    assert.equal(suite.server.stoa.users.byId(person.userId)!.delivery_email, newEmail);
    // Back in the app, the page shows the new address.
    await web.page.goto(`${suite.server.url}/#settings/account-and-privacy`);
    await web.page.getByRole('region', { name: 'Personal settings' }).getByText(newEmail, { exact: true }).waitFor();
    assert.deepEqual(web.problems, []);
  });
}

test('the notification settings offer email where the server sends mail: per kind, per channel, when and what', { skip: NO_CHROMIUM }, async () => {
  const person = await suite.server.createUser('Mail Reader');
  const { id: channelId } = await createChannel(suite.server.owner, { principals: [person.credentials.email] }, uniqueName('mailed'));
  const stored = async () => (await person.post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings as Record<string, unknown>;
  for (const viewport of VIEWPORTS) {
    const web = await suite.open(person.credentials.email, '#settings/profile', { viewport });
    const settings = web.page.getByRole('region', { name: 'Personal settings' });
    await openSettingsPage(settings, 'Notifications');
    const dmEmail = settings.getByRole('checkbox', { name: 'Email: Direct messages, mentions and alert words' });
    const followedEmail = settings.getByRole('checkbox', { name: 'Email: Followed topics' });
    if (viewport.width === 1280) {
      assert.ok(await dmEmail.isChecked());
      await dmEmail.uncheck();
      await waitUntil(async () => (await stored()).enable_offline_email_notifications === false, 'direct messages are no longer mailed');
      await followedEmail.uncheck();
      await waitUntil(async () => (await stored()).enable_followed_topic_email_notifications === false, 'followed topics are no longer mailed');
      const channel = settings.getByRole('checkbox', { name: /^Email: #mailed/ });
      assert.ok(!(await channel.isChecked()));
      await channel.check();
      await waitUntil(async () => {
        const subs = (await person.get('/users/me/subscriptions')).body.subscriptions as Array<{ stream_id: number; email_notifications: boolean | null }>;
        return subs.find((s) => s.stream_id === channelId)?.email_notifications === true;
      }, 'the channel is mailed');
      const group = settings.getByRole('group', { name: 'Emails of missed messages' });
      await group.getByLabel('Wait before mailing, to gather messages into one email').selectOption('1800');
      await waitUntil(async () => (await stored()).email_notifications_batching_period_seconds === 1800, 'the batching period is kept');
      await group.getByLabel('Name the organization in the subject').selectOption('2');
      await waitUntil(async () => (await stored()).realm_name_in_email_notifications_policy === 2, 'the subject policy is kept');
      await group.getByLabel("Include the messages' text in emails").uncheck();
      await waitUntil(async () => (await stored()).message_content_in_email_notifications === false, 'the content setting is kept');
    } else {
      // On the phone, a fresh page shows what was chosen on the desktop.
      await dmEmail.waitFor();
      assert.equal(await dmEmail.isChecked(), false);
      assert.equal(await followedEmail.isChecked(), false);
      const group = settings.getByRole('group', { name: 'Emails of missed messages' });
      assert.equal(await group.getByLabel('Wait before mailing, to gather messages into one email').inputValue(), '1800');
      assert.equal(await group.getByLabel("Include the messages' text in emails").isChecked(), false);
    }
    await screenshot(web.page, `notifications-email-${viewport.width}`);
    assert.deepEqual(web.problems, []);
  }
});

test('where the organization disabled email changes, a member is told so and offered no button; an administrator still changes theirs', { skip: NO_CHROMIUM }, async () => {
  assert.equal((await suite.server.owner.patch('/realm', { email_changes_disabled: true })).status, 200);
  try {
    const member = await suite.server.createUser('Stuck Member');
    const web = await suite.open(member.credentials.email, '#settings/account-and-privacy', { viewport: VIEWPORTS[0] });
    const settings = web.page.getByRole('region', { name: 'Personal settings' });
    await settings.getByText('Email address changes are disabled in this organization.').waitFor();
    assert.equal(await settings.getByRole('button', { name: 'Change email' }).count(), 0);

    const admin = await suite.server.createUser('Able Admin');
    assert.equal((await suite.server.owner.patch(`/users/${admin.userId}`, { role: 200 })).status, 200);
    const adminWeb = await suite.open(admin.credentials.email, '#settings/account-and-privacy', { viewport: VIEWPORTS[0] });
    const adminSettings = adminWeb.page.getByRole('region', { name: 'Personal settings' });
    await adminSettings.getByRole('button', { name: 'Change email' }).click();
    await adminSettings.getByRole('form', { name: 'Change your email' }).getByLabel('New email').fill('able-admin@example.org');
    await adminSettings.getByRole('button', { name: 'Send confirmation' }).click();
    await adminSettings.getByText('A confirmation link was sent to able-admin@example.org.').waitFor();
    await waitUntil(() => catcher.countTo('able-admin@example.org') === 1, 'the confirmation is mailed');
    assert.deepEqual([...web.problems, ...adminWeb.problems], []);
  } finally {
    assert.equal((await suite.server.owner.patch('/realm', { email_changes_disabled: false })).status, 200);
  }
});

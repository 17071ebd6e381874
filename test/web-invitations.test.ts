import assert from 'node:assert/strict';
import { before, after, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { createChannel, uniqueName } from './support/channels';
import { newContext, NO_CHROMIUM } from './support/chromium';
import { MailCatcher } from './support/mail';
import { OWNER_EMAIL, OWNER_PASSWORD, type TestServerOptions } from './support/server';
import { waitUntil, webSuite } from './support/web';

/**
 * Invitations and a person's first arrival in the web client: the invitation form (link or
 * email, role, channels, expiry, copy, QR code), the live list of pending invitations, signing
 * up through a link into the channels it names, a fresh organization's first screen, the
 * development login's names and roles, and what a deactivated person is told.
 */

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

interface InPage {
  navigator: { clipboard: { readText(): Promise<string> } };
}

function invitationsPage(page: Page) {
  return page.getByRole('region', { name: 'Organization settings' });
}

async function openInvitations(page: Page) {
  await page.evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#organization/invites-list-admin'));
  const region = invitationsPage(page);
  await region.getByRole('heading', { name: 'Invitations', exact: true }).waitFor();
  return region;
}

/** axe-core finds nothing serious on the page, in the light theme and the dark one. */
async function assertAxeClean(page: Page, what: string): Promise<void> {
  const found: string[] = [];
  for (const theme of ['light', 'dark']) {
    await page.evaluate(`document.documentElement.setAttribute('data-theme', '${theme}')`);
    for (const violation of await seriousViolations(page)) found.push(`${what} (${theme}): ${violation}`);
  }
  await page.evaluate(`document.documentElement.setAttribute('data-theme', 'light')`);
  assert.deepEqual(found, []);
}

describe('a fresh organization, without a mail server', () => {
  const suite = webSuite({ dev: true, config: { gravatar: false, emptyOrganization: false } });

  test('the owner\'s first screen shows the starter channels and Welcome Bot\'s message about what to do next', { skip: NO_CHROMIUM }, async () => {
    for (const { name, viewport } of SIZES) {
      const web = await suite.open(OWNER_EMAIL, '#inbox', { password: OWNER_PASSWORD, viewport });
      const { page } = web;
      await page.goto(`${suite.server.url}/#narrow/is/dm`);
      const welcome = page.getByText('Here is what to do next');
      await welcome.waitFor();
      await page.getByRole('link', { name: 'Invitations' }).first().waitFor();
      if (name === 'desktop') {
        const sidebar = page.getByRole('navigation', { name: 'Views, channels and direct messages' });
        for (const channel of ['general', 'sandbox', 'Stoa']) await sidebar.getByText(channel, { exact: true }).waitFor();
      }
      await page.screenshot({ path: `/tmp/invitations-first-screen-${name}.png` });
      assert.deepEqual(web.problems, []);
      await web.context.close();
    }
  });

  test('an administrator makes a link with a role, channels and no expiry, copies it and shows it as a QR code; whoever joins lands in those channels', { skip: NO_CHROMIUM }, async () => {
    for (const { name, viewport } of SIZES) {
      const channel = await createChannel(suite.server.owner, {}, uniqueName('Class'));
      const send = await suite.server.owner.post('/messages', { type: 'stream', to: channel.id, topic: 'homework', content: `Read chapter one (${name})` });
      assert.equal(send.status, 200);
      const web = await suite.open(OWNER_EMAIL, '#inbox', { password: OWNER_PASSWORD, viewport });
      await web.context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const { page } = web;
      const region = await openInvitations(page);

      // No mail server: only links, and the form says why.
      assert.equal(await region.getByLabel('Email invitations').isDisabled(), true);
      await region.getByText('Email invitations need a mail server').waitFor();

      await region.getByLabel('Users join as').selectOption({ label: 'Moderators' });
      // The default channels are preselected; choosing by hand starts from them.
      const defaults = region.getByLabel("The organization's default channels");
      assert.equal(await defaults.isChecked(), true);
      await defaults.uncheck();
      const choices = region.getByRole('group', { name: 'Channels to subscribe them to' });
      assert.equal(await choices.getByLabel('#general').isChecked(), true);
      await choices.getByLabel('#sandbox').uncheck();
      await choices.getByLabel('#Stoa').uncheck();
      await choices.getByLabel(`#${channel.name}`).check();
      await region.getByLabel('Invitation expires after').selectOption({ label: 'Never expires' });
      await page.screenshot({ path: `/tmp/invitations-form-${name}.png`, fullPage: true });
      await region.getByRole('button', { name: 'Create invitation link' }).click();

      const linkBox = region.getByRole('group', { name: 'New invitation link' });
      const link = await linkBox.getByLabel('Invitation link').inputValue();
      assert.match(link, /\/join\/[a-z2-7]{24}\/$/);
      await linkBox.getByRole('button', { name: 'Copy link' }).click();
      await linkBox.getByRole('button', { name: 'Copied' }).waitFor();
      assert.equal(await page.evaluate(() => (globalThis as unknown as InPage).navigator.clipboard.readText()), link);

      await linkBox.getByRole('button', { name: 'Show QR code' }).click();
      const qr = linkBox.getByRole('img', { name: `QR code of the invitation link ${link}` });
      await qr.waitFor();
      const box = (await qr.boundingBox())!;
      assert.ok(box.width >= Math.min(300, viewport.width - 80), `the code is large (${box.width}px)`);
      assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, 'and fits the screen');
      await qr.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/invitations-link-${name}.png`, fullPage: false });
      if (name === 'desktop') await assertAxeClean(page, 'invitations with a new link and its QR code');

      // The pending list shows it, with its role and no expiry.
      const pending = region.getByRole('region', { name: 'Pending invitations' });
      const row = pending.locator('li', { hasText: link });
      await row.getByText(/Moderator · invited by Owner/).waitFor();
      await row.getByText('never expires').waitFor();

      // Someone joins through it in a browser of their own.
      const guestContext = await newContext(suite.browser, viewport);
      const joinPage = await guestContext.newPage();
      await joinPage.goto(link);
      await joinPage.getByLabel('Full name').fill(`Newcomer ${name}`);
      await joinPage.getByLabel('Email').fill(`newcomer-${name}@example.com`);
      await joinPage.getByLabel('Password').fill('a-long-password');
      await joinPage.getByRole('button', { name: 'Sign up' }).click();
      // Their first screen: the channels the invitation named, with their recent messages unread.
      const sidebar = joinPage.getByRole('navigation', { name: 'Views, channels and direct messages' });
      await sidebar.waitFor({ state: 'attached' });
      await joinPage.getByRole('main').getByText('homework').first().waitFor();
      await joinPage.screenshot({ path: `/tmp/invitations-joined-${name}.png` });
      if (name === 'desktop') {
        await sidebar.getByText(channel.name, { exact: true }).waitFor();
        await sidebar.getByText('general', { exact: true }).waitFor();
        assert.equal(await sidebar.getByText('sandbox', { exact: true }).count(), 0);
      }
      await joinPage.goto(`${suite.server.url}/#narrow/channel/${channel.id}-${channel.name.replace(/ /g, '-')}`);
      await joinPage.getByText(`Read chapter one (${name})`).waitFor();
      const newcomer = suite.server.stoa.users.byAnyEmail(`newcomer-${name}@example.com`)!;
      assert.equal(newcomer.role, 300, 'joined as a moderator');
      const subscribed = async (channelName: string) => {
        const id = (await suite.server.owner.get('/get_stream_id', { stream: channelName })).body.stream_id;
        return (await suite.server.owner.get(`/users/${newcomer.id}/subscriptions/${id}`)).body.is_subscribed as boolean;
      };
      assert.deepEqual(
        [await subscribed(channel.name), await subscribed('general'), await subscribed('sandbox'), await subscribed('Stoa')],
        [true, true, false, false],
        'in the channels the invitation named, and no others',
      );
      await guestContext.close();

      // Revoking it takes it off the list, and the link stops working.
      await row.getByRole('button', { name: /^Revoke/ }).click();
      await row.getByRole('button', { name: 'Revoke it' }).click();
      await waitUntil(async () => (await pending.locator('li', { hasText: link }).count()) === 0, 'the revoked link leaves the list');
      assert.deepEqual(web.problems, []);
      await web.context.close();
    }
  });

  test('the list of pending invitations is live: one made elsewhere appears without reloading', { skip: NO_CHROMIUM }, async () => {
    const web = await suite.open(OWNER_EMAIL, '#inbox', { password: OWNER_PASSWORD, viewport: SIZES[1].viewport });
    const region = await openInvitations(web.page);
    const made = await suite.server.owner.post('/invites/multiuse', { invite_as: 600, include_realm_default_subscriptions: true, invite_expires_in_minutes: 60 });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const row = region.locator('li', { hasText: made.body.invite_link });
    await row.getByText(/^Guest · invited by Owner/).waitFor();
    await row.getByText(/expires/).waitFor();
    await web.page.screenshot({ path: '/tmp/invitations-list-phone.png', fullPage: true });
    assert.deepEqual(web.problems, []);
  });

  test('the development login lists people by name and role', { skip: NO_CHROMIUM }, async () => {
    const moderator = await suite.server.createUser('Morgan Moderator');
    assert.equal((await suite.server.owner.patch(`/users/${moderator.userId}`, { role: 300 })).status, 200);
    for (const { name, viewport } of SIZES) {
      const context = await newContext(suite.browser, viewport);
      const page = await context.newPage();
      await page.goto(`${suite.server.url}/login`);
      const list = page.getByRole('region', { name: 'Development login' });
      const morgan = list.getByRole('button', { name: /Morgan Moderator/ });
      await morgan.getByText('Moderator', { exact: true }).waitFor();
      await list.getByRole('button', { name: /^Owner Owner/ }).waitFor();
      await page.screenshot({ path: `/tmp/invitations-dev-login-${name}.png`, fullPage: true });
      await morgan.click();
      await page.getByRole('navigation', { name: 'Views, channels and direct messages' }).waitFor({ state: 'attached' });
      await context.close();
    }
  });

  test('a deactivated person who tries to log in is told their account was deactivated', { skip: NO_CHROMIUM }, async () => {
    const person = await suite.server.createUser('Dana Departed');
    assert.equal((await suite.server.owner.delete(`/users/${person.userId}`)).status, 200);
    for (const { name, viewport } of SIZES) {
      const context = await newContext(suite.browser, viewport);
      const page = await context.newPage();
      await page.goto(`${suite.server.url}/login`);
      await page.getByLabel('Email').fill(person.credentials.email);
      await page.getByLabel('Password').fill('secret-password');
      await page.getByRole('button', { name: 'Log in' }).click();
      const alert = page.getByRole('alert');
      await alert.getByText(`The account ${person.credentials.email} has been deactivated`).waitFor();
      await page.screenshot({ path: `/tmp/invitations-deactivated-${name}.png` });
      if (name === 'desktop') await assertAxeClean(page, 'login with the development list and an error');
      await context.close();
    }
  });
});

describe('with a mail server', () => {
  const mail = new MailCatcher();
  const options: TestServerOptions & { config: { smtp?: string } } = { config: { gravatar: false } };
  // Registered before the suite's own hook, which reads the options when it starts the server.
  before(async () => {
    options.config.smtp = await mail.start();
  });
  after(() => mail.close());
  const suite = webSuite(options);

  test('an administrator sends email invitations, sees them pending, resends one and revokes it', { skip: NO_CHROMIUM }, async () => {
    for (const { name, viewport } of SIZES) {
      const address = `pupil-${name}@example.com`;
      const web = await suite.open(OWNER_EMAIL, '#inbox', { password: OWNER_PASSWORD, viewport });
      const region = await openInvitations(web.page);
      await region.getByLabel('Email invitations').check();
      assert.equal(await region.getByText('Email invitations need a mail server').count(), 0);
      await region.getByLabel('Email addresses').fill(address);
      await region.getByLabel('Users join as').selectOption({ label: 'Guests' });
      await region.getByLabel('Invitation expires after').selectOption({ label: 'Custom' });
      await region.getByLabel('Amount').fill('2');
      await region.getByLabel('Unit').selectOption({ label: 'hours' });
      await region.getByRole('button', { name: 'Send invitations' }).click();
      await region.getByRole('status').getByText('Invitations sent.').waitFor();
      await waitUntil(() => mail.countTo(address) === 1, 'the invitation is mailed');

      const row = region.locator('li', { hasText: address });
      await row.getByText(/^Guest · invited by Owner/).waitFor();
      const invite = (await suite.server.owner.get('/invites')).body.invites.find((i: { email?: string }) => i.email === address);
      assert.ok(Math.abs(invite.expiry_date - invite.invited - 2 * 3600) <= 1, 'it expires two hours after it was made');
      await web.page.screenshot({ path: `/tmp/invitations-email-${name}.png`, fullPage: true });
      if (name === 'desktop') await assertAxeClean(web.page, 'email invitations pending');

      await row.getByRole('button', { name: `Resend invitation to ${address}` }).click();
      await waitUntil(() => mail.countTo(address) === 2, 'the invitation is mailed again');
      await row.getByRole('button', { name: `Revoke invitation to ${address}` }).click();
      await row.getByRole('button', { name: 'Revoke it' }).click();
      await waitUntil(async () => (await region.locator('li', { hasText: address }).count()) === 0, 'the revoked invitation leaves the list');
      assert.deepEqual(web.problems, []);
      await web.context.close();
    }
  });
});

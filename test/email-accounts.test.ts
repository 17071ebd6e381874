import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { Browser } from './support/browser';
import type { Client } from './support/client';
import { listen } from './support/events';
import { MailCatcher } from './support/mail';
import { ManualClock, TestServer } from './support/server';

/**
 * Password reset ("Forgot your password?") and the confirmed change of one's own email
 * address, against a mail server the test runs (see docs/email.md).
 */

const catcher = new MailCatcher();
const clock = new ManualClock();
let server: TestServer;

before(async () => {
  const smtp = await catcher.start();
  server = await TestServer.start({ clock, config: { smtp, realmName: 'Physics 101' } });
});
after(async () => {
  await server.close();
  await catcher.close();
});

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** Submits a form of the account pages as a browser would, without following redirects. */
function submit(path: string, fields: Record<string, string>): Promise<Response> {
  return fetch(new URL(path, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

function linkIn(mail: ParsedMail, path: string): string {
  const escaped = `${server.url}${path}/`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}[a-z2-7]{24}`).exec(mail.text ?? '');
  assert.ok(match, `a ${path} link in: ${mail.text}`);
  assert.ok(String(mail.html).includes(`href="${match[0]}"`), 'the HTML part links to it too');
  return match[0];
}

async function nextMailTo(address: string): Promise<ParsedMail> {
  const count = catcher.countTo(address);
  await catcher.waitForCount(address, count + 1);
  return (await catcher.mailsTo([address]))[0];
}

async function settledCount(address: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return catcher.countTo(address);
}

async function canLogIn(email: string, password: string): Promise<boolean> {
  return (await server.anonymous.post('/fetch_api_key', { username: email, password })).status === 200;
}

function assertError(response: { status: number; body: any }, msg: string, status = 400) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.body.result, 'error');
  assert.equal(response.body.msg, msg);
}

describe('password reset', () => {
  test('the form mails a one-use link; the page it opens sets the new password and signs every session out', async () => {
    const bob = await server.createUser('Bob');
    const email = bob.credentials.email;
    const browser = new Browser(server.url);
    assert.equal((await browser.request('POST', '/accounts/login', { username: email, password: 'secret-password' })).status, 200);

    const form = await fetch(new URL('/accounts/password/reset/', server.url));
    assert.equal(form.status, 200);
    assert.match(await form.text(), /<input type="email" name="email"/);
    const asked = await submit('/accounts/password/reset/', { email: email.toUpperCase() });
    assert.equal(asked.status, 303);
    assert.equal(asked.headers.get('location'), '/accounts/password/reset/done/');
    assert.match(await (await fetch(new URL('/accounts/password/reset/done/', server.url))).text(), /Check your email/);

    const mail = await nextMailTo(email);
    assert.match(mail.subject ?? '', /Choose a new password for Physics 101/);
    const link = linkIn(mail, '/accounts/password/reset');
    const page = await fetch(link);
    assert.equal(page.status, 200);
    assert.match(await page.text(), new RegExp(`For the account ${email.replace('.', '\\.')}`));

    const mismatch = await submit(link, { new_password1: 'a-new-password', new_password2: 'another-password' });
    assert.equal(mismatch.status, 400);
    assert.match(await mismatch.text(), /not the same/);
    const short = await submit(link, { new_password1: 'abc', new_password2: 'abc' });
    assert.equal(short.status, 400);
    assert.match(await short.text(), /too short/);
    assert.ok(await canLogIn(email, 'secret-password'), 'refused attempts change nothing');

    const done = await submit(link, { new_password1: 'a-new-password', new_password2: 'a-new-password' });
    assert.equal(done.status, 200);
    assert.match(await done.text(), /Your password has been changed/);
    assert.ok(await canLogIn(email, 'a-new-password'));
    assert.ok(!(await canLogIn(email, 'secret-password')));
    assert.equal((await browser.request('GET', '/accounts/session')).status, 401, 'the old session is signed out');

    const again = await submit(link, { new_password1: 'third-password', new_password2: 'third-password' });
    assert.equal(again.status, 404, 'the link works once');
    assert.match(await (await fetch(link)).text(), /expired or has already been used/);
    assert.ok(await canLogIn(email, 'a-new-password'));
  });

  test('a link expires after three days, and a newer one replaces it', async () => {
    const bob = await server.createUser('Bob');
    const email = bob.credentials.email;
    await submit('/accounts/password/reset/', { email });
    const first = linkIn(await nextMailTo(email), '/accounts/password/reset');
    await submit('/accounts/password/reset/', { email });
    const second = linkIn(await nextMailTo(email), '/accounts/password/reset');
    assert.equal((await fetch(first)).status, 404, 'replaced by the newer link');
    assert.equal((await fetch(second)).status, 200);
    clock.advance(3 * DAY);
    assert.equal((await fetch(second)).status, 404, 'expired');
  });

  test('an unknown or deactivated address gets the same answer; its mail explains, with no link; too many asks wait', async () => {
    const unknown = 'nobody-here@example.com';
    const asked = await submit('/accounts/password/reset/', { email: unknown });
    assert.equal(asked.status, 303, 'the page does not tell whether an account exists');
    assert.equal(asked.headers.get('location'), '/accounts/password/reset/done/');
    const mail = await nextMailTo(unknown);
    assert.match(mail.text ?? '', /There is no account with this address/);
    assert.doesNotMatch(mail.text ?? '', /\/accounts\/password\/reset\/[a-z2-7]{24}/);

    const gone = await server.createUser('Gone');
    assert.equal((await server.owner.delete(`/users/${gone.userId}`)).status, 200);
    await submit('/accounts/password/reset/', { email: gone.credentials.email });
    assert.match((await nextMailTo(gone.credentials.email)).text ?? '', /has been deactivated/);

    // Two an hour per address (Zulip's limit), so the form cannot flood an inbox.
    assert.equal((await submit('/accounts/password/reset/', { email: unknown })).status, 303);
    const limited = await submit('/accounts/password/reset/', { email: unknown });
    assert.equal(limited.status, 429);
    assert.match(await limited.text(), /Too many reset emails/);
    assert.equal(await settledCount(unknown), 2);
    clock.advance(HOUR);
    assert.equal((await submit('/accounts/password/reset/', { email: unknown })).status, 303);
  });

  test('bad input: an empty address, a malformed key, a huge body', async () => {
    const empty = await submit('/accounts/password/reset/', { email: '   ' });
    assert.equal(empty.status, 400);
    assert.match(await empty.text(), /Enter your email address/);
    assert.equal((await submit('/accounts/password/reset/', { email: 'not an address' })).status, 303, 'answered as any other address, and nothing sent');
    for (const key of ['short', 'A'.repeat(24), '%2e%2e']) {
      assert.equal((await fetch(new URL(`/accounts/password/reset/${key}/`, server.url))).status, 404, key);
      assert.equal((await submit(`/accounts/password/reset/${key}/`, { new_password1: 'long-enough', new_password2: 'long-enough' })).status, 404, key);
    }
    const huge = await submit('/accounts/password/reset/', { email: 'x'.repeat(100_000) });
    assert.equal(huge.status, 413);
  });
});

describe('changing one\'s own email (PATCH /settings with email)', () => {
  test('mails a link to the new address; following it (no login needed) changes the address, and the old one hears of it', async () => {
    const bob = await server.createUser('Bob');
    const oldEmail = bob.credentials.email;
    const newEmail = 'bob.new@example.org';
    // An administrator's client, which sees real addresses (Bob's own signs in by his old address, which stops working).
    const events = await listen(server.owner, { event_types: ['realm_user'] });
    const response = await bob.patch('/settings', { email: ` ${newEmail} ` });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const mail = await nextMailTo(newEmail);
    assert.match(mail.subject ?? '', /Confirm your new email address/);
    assert.match(mail.text ?? '', new RegExp(`from ${oldEmail.replace('.', '\\.')} to ${newEmail.replace(/\./g, '\\.')}`));
    assert.equal(server.stoa.users.byId(bob.userId)!.delivery_email, oldEmail, 'nothing changes until the link is followed');

    const link = linkIn(mail, '/accounts/confirm_new_email');
    const page = await fetch(link);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /is now bob\.new@example\.org/);
    assert.equal(server.stoa.users.byId(bob.userId)!.delivery_email, newEmail);
    const updates = (await events()).filter((event) => event.type === 'realm_user' && event.person.delivery_email !== undefined);
    assert.deepEqual(updates.map((event) => event.person), [{ user_id: bob.userId, delivery_email: newEmail }]);
    assert.match((await nextMailTo(oldEmail)).text ?? '', /is now bob\.new@example\.org/);
    assert.ok(await canLogIn(newEmail, 'secret-password'));

    assert.equal((await fetch(link)).status, 404, 'the link works once');
  });

  test('refuses what Zulip refuses: a malformed or taken address; changes the organization disabled, except for administrators', async () => {
    const bob = await server.createUser('Bob');
    const taken = await server.createUser('Taken');
    assertError(await bob.patch('/settings', { email: 'not-an-address' }), 'Invalid address.');
    assertError(await bob.patch('/settings', { email: taken.credentials.email.toUpperCase() }), 'Email is already in use.');
    const before = catcher.received.length;
    assert.equal((await bob.patch('/settings', { email: bob.credentials.email })).status, 200, 'the same address changes nothing');
    assert.equal(await settledCount('anyone'), 0);
    assert.equal(catcher.received.length, before, 'and sends nothing');

    assert.equal((await server.owner.patch('/realm', { email_changes_disabled: true })).status, 200);
    try {
      assertError(await bob.patch('/settings', { email: 'bob.elsewhere@example.org' }), 'Email address changes are disabled in this organization.');
      assert.equal((await server.owner.patch('/settings', { email: 'owner.elsewhere@example.org' })).status, 200, 'administrators still may');
      await nextMailTo('owner.elsewhere@example.org');
    } finally {
      assert.equal((await server.owner.patch('/realm', { email_changes_disabled: false })).status, 200);
    }
  });

  test('a newer request replaces the older link; asking too often waits; an address taken meanwhile is refused when the link is followed', async () => {
    const bob: Client & { userId: number; credentials: { email: string } } = await server.createUser('Bob');
    assert.equal((await bob.patch('/settings', { email: 'first@example.org' })).status, 200);
    const first = linkIn(await nextMailTo('first@example.org'), '/accounts/confirm_new_email');
    assert.equal((await bob.patch('/settings', { email: 'second@example.org' })).status, 200);
    const second = linkIn(await nextMailTo('second@example.org'), '/accounts/confirm_new_email');
    assert.equal((await fetch(first)).status, 404, 'replaced by the newer request');
    const limited = await bob.patch('/settings', { email: 'third@example.org' });
    assertError(limited, 'API usage exceeded rate limit', 429);

    const other = await server.createUser('Other');
    assert.equal((await server.owner.patch(`/users/${other.userId}`, { new_email: 'second@example.org' })).status, 200);
    const refused = await fetch(second);
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /Email is already in use/);
    assert.equal(server.stoa.users.byId(bob.userId)!.delivery_email, bob.credentials.email);
  });
});

test('without --smtp: no password reset pages, no email changes, and server_settings says so', async () => {
  assert.equal((await server.anonymous.get('/server_settings')).body.outgoing_email_enabled, true);
  const noMail = await TestServer.start();
  try {
    assert.equal((await noMail.anonymous.get('/server_settings')).body.outgoing_email_enabled, false);
    assert.equal((await fetch(new URL('/accounts/password/reset/', noMail.url))).status, 404);
    assertError(await noMail.owner.patch('/settings', { email: 'owner.new@example.org' }), 'Email changes are not available on this server.');
  } finally {
    await noMail.close();
  }
});

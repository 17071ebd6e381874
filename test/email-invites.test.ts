import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { Browser } from './support/browser';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { MailCatcher } from './support/mail';
import { ManualClock, tempDir, TestServer } from './support/server';

const catcher = new MailCatcher();
const clock = new ManualClock();
let server: TestServer;
let smtpUrl: string;

before(async () => {
  smtpUrl = await catcher.start();
  server = await TestServer.start({ clock, config: { smtp: smtpUrl, realmName: 'Physics 101' } });
});
after(async () => {
  await server.close();
  await catcher.close();
});

function assertError(response: { status: number; body: any }, msg: string, status = 400) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.body.result, 'error');
  assert.equal(response.body.msg, msg);
}

let addressCount = 0;
function newAddress(): string {
  addressCount += 1;
  return `invitee${addressCount}@example.com`;
}

/** The invitation key in a mail's link, checking the link's shape on the way. */
function keyInMail(mail: ParsedMail): string {
  const escaped = server.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}/join/([a-z2-7]{24})/`).exec(mail.text ?? '');
  assert.ok(match, `a link to this server in: ${mail.text}`);
  assert.ok(String(mail.html).includes(`href="${match[0]}"`), 'the HTML part links to it too');
  return match[1];
}

async function emailInvites(client: Client): Promise<Array<Record<string, any>>> {
  const response = await client.get('/invites');
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.invites.filter((invite: Record<string, unknown>) => !invite.is_multiuse);
}

async function invite(client: Client, emails: string, params: Record<string, unknown> = {}) {
  const response = await client.post('/invites', { invitee_emails: emails, stream_ids: [], ...params });
  assert.equal(response.status, 200, JSON.stringify(response.body));
}

async function withRole(role: number): Promise<Client & { userId: number }> {
  const user = await server.createUser();
  if (role !== 400) assert.equal((await server.owner.patch(`/users/${user.userId}`, { role })).status, 200);
  return user;
}

function signUp(key: string, fields: Record<string, unknown> = {}) {
  return new Browser(server.url).request('POST', '/accounts/register', { key, full_name: 'New Person', password: 'a-long-password', ...fields });
}

describe('POST /invites', () => {
  test('mails each address, from commas, newlines and Name <address>, its own link with who invited them and the expiry', async () => {
    const [a, b, c] = [newAddress(), newAddress(), newAddress()];
    const administrator = await withRole(200);
    const events = await listen(administrator, { event_types: ['invites_changed'] });
    const now = Math.floor(clock.now() / 1000);
    await invite(server.owner, `${a}, Bea B <${b}>\n${c},${a}`, { invite_expires_in_minutes: 60 });

    const mails = await catcher.mailsTo([a, b, c]);
    const keys = mails.map(keyInMail);
    assert.equal(new Set(keys).size, 3, 'one link each');
    for (const [i, mail] of mails.entries()) {
      assert.deepEqual(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((v) => v.address) : [], [[a, b, c][i]]);
      assert.equal(mail.from?.value[0].address, `noreply@${new URL(server.url).hostname}`);
      assert.match(mail.subject ?? '', /invited you to Physics 101/);
      assert.match(mail.text ?? '', /Physics 101/);
      assert.match(mail.text ?? '', /2026-01-01 01:00 UTC/, 'the expiry, an hour from now');
    }
    assert.equal(catcher.countTo(a), 1, 'an address given twice gets one invitation');

    const listed = (await emailInvites(server.owner)).filter((i) => [a, b, c].includes(i.email));
    assert.deepEqual(
      listed.map((i) => ({ ...i, id: 0 })),
      [a, b, c].map((email) => ({
        id: 0,
        invited_by_user_id: server.ownerId,
        invited: now,
        expiry_date: now + 3600,
        invited_as: 400,
        is_multiuse: false,
        email,
        notify_referrer_on_join: true,
      })),
    );
    assert.deepEqual(await events(), [{ type: 'invites_changed' }]);
  });

  test('uses --mail-from as the sender when given', async () => {
    const other = await TestServer.start({ config: { smtp: smtpUrl, mailFrom: 'teacher@school.example' } });
    try {
      const address = newAddress();
      const response = await other.owner.post('/invites', { invitee_emails: address, stream_ids: [] });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      const [mail] = await catcher.mailsTo([address]);
      assert.equal(mail.from?.value[0].address, 'teacher@school.example');
    } finally {
      await other.close();
    }
  });

  test('skips addresses that already have accounts, and says so in Zulip’s INVITATION_FAILED error', async () => {
    const member = await server.createUser();
    const gone = await server.createUser();
    assert.equal((await server.owner.delete(`/users/${gone.userId}`)).status, 200);
    const memberEmail = member.credentials.email;
    const goneEmail = gone.credentials.email;

    const none = await server.owner.post('/invites', { invitee_emails: `${memberEmail}, ${goneEmail}`, stream_ids: [] });
    assertError(none, "We weren't able to invite anyone.");
    assert.equal(none.body.code, 'INVITATION_FAILED');
    assert.deepEqual(none.body.errors, [
      [memberEmail, 'Already has an account.', false],
      [goneEmail, 'Account has been deactivated.', true],
    ]);
    assert.equal(none.body.sent_invitations, false);

    const fresh = newAddress();
    const some = await server.owner.post('/invites', { invitee_emails: `${fresh}, ${memberEmail.toUpperCase()}`, stream_ids: [] });
    assertError(some, "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!");
    assert.deepEqual(some.body.errors, [[memberEmail.toUpperCase(), 'Already has an account.', false]]);
    assert.equal(some.body.sent_invitations, true);
    await catcher.mailsTo([fresh]);
    assert.ok((await emailInvites(server.owner)).some((i) => i.email === fresh), 'the others’ invitations stand');
  });

  test('sends nothing when any address is malformed, or none is given', async () => {
    const fresh = newAddress();
    const response = await server.owner.post('/invites', { invitee_emails: `${fresh}, not-an-address`, stream_ids: [] });
    assertError(response, "Some emails did not validate, so we didn't send any invitations.");
    assert.deepEqual(response.body.errors, [['not-an-address', 'Invalid address.', false]]);
    assert.equal(response.body.sent_invitations, false);
    assertError(await server.owner.post('/invites', { invitee_emails: ' , \n', stream_ids: [] }), 'You must specify at least one email address.');
    assertError(await server.owner.post('/invites', { invitee_emails: fresh }), "Missing 'stream_ids' argument");
    assertError(await server.owner.post('/invites', { invitee_emails: fresh, stream_ids: [999999] }), 'Invalid channel ID 999999. No invites were sent.');
    assert.ok(!(await emailInvites(server.owner)).some((i) => i.email === fresh));
    assert.equal(catcher.countTo(fresh), 0);
  });

  test('follows who may invite whom as what', async () => {
    const member = await withRole(400);
    const guest = await withRole(600);
    const administrator = await withRole(200);
    assertError(await guest.post('/invites', { invitee_emails: newAddress(), stream_ids: [] }), 'Not allowed for guest users');
    await invite(member, newAddress(), { invite_as: 600 });
    assertError(await member.post('/invites', { invitee_emails: newAddress(), stream_ids: [], invite_as: 300 }), 'Must be an organization administrator');
    assertError(await administrator.post('/invites', { invitee_emails: newAddress(), stream_ids: [], invite_as: 100 }), 'Must be an organization owner');
    await invite(administrator, newAddress(), { invite_as: 200 });

    const administrators = server.groupId('role:administrators');
    assert.equal((await server.owner.patch('/realm', { can_invite_users_group: { new: administrators } })).status, 200);
    try {
      assertError(await member.post('/invites', { invitee_emails: newAddress(), stream_ids: [] }), 'Insufficient permission');
    } finally {
      await server.owner.patch('/realm', { can_invite_users_group: { new: server.groupId('role:members') } });
    }
    // Members see only their own invitations.
    assert.ok((await emailInvites(member)).every((i) => i.invited_by_user_id === member.userId));
  });

  test('is refused, as is resending, on a server without outgoing mail', async () => {
    const data = tempDir();
    const first = await TestServer.start({ data, config: { smtp: smtpUrl } });
    await first.owner.post('/invites', { invitee_emails: 'someone@example.com', stream_ids: [] });
    const [listed] = (await first.owner.get('/invites')).body.invites;
    await first.close();
    const noMail = await TestServer.start({ data });
    try {
      const message = 'This server has no outgoing mail configured, so it cannot send email invitations. Use an invitation link instead.';
      assertError(await noMail.owner.post('/invites', { invitee_emails: 'other@example.com', stream_ids: [] }), message);
      assertError(await noMail.owner.post(`/invites/${listed.id}/resend`), message);
      // The invitation made before still works and can be revoked.
      assert.equal((await noMail.owner.delete(`/invites/${listed.id}`)).status, 200);
    } finally {
      await noMail.close();
    }
  });

  test('answers at once when the mail server is down, and logs the failure', async () => {
    const closed = new SMTPServer({ logger: false });
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.server.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await TestServer.start({ config: { smtp: `smtp://127.0.0.1:${port}` } });
    try {
      const response = await down.owner.post('/invites', { invitee_emails: 'lost@example.com', stream_ids: [] });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      const deadline = Date.now() + 10_000;
      while (!down.logs.some((line) => line.startsWith('Mail to lost@example.com not sent:')) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(down.logs.some((line) => line.startsWith('Mail to lost@example.com not sent:')), down.logs.join('\n'));
      assert.equal((await down.owner.get('/invites')).body.invites.length, 1, 'the invitation stands; it can be resent');
    } finally {
      await down.close();
    }
  });
});

describe('accepting an email invitation', () => {
  test('makes the account for the invited address with the invitation’s role and channels, and tells the inviter', async () => {
    const inviter = await withRole(200);
    const channel = await createChannel(server.owner);
    const address = newAddress();
    await invite(inviter, address, { stream_ids: [channel.id], invite_as: 600 });
    const key = keyInMail((await catcher.mailsTo([address]))[0]);
    // Someone else invited the same address too: that invitation ends once the account exists.
    await invite(server.owner, address.toUpperCase());
    await catcher.waitForCount(address, 2);
    const otherKey = keyInMail((await catcher.mailsTo([address]))[0]);

    const details = await new Browser(server.url).request('GET', `/accounts/invite/${key}`);
    assert.equal(details.status, 200);
    assert.equal(details.body.email, address);
    assert.equal(details.body.is_multiuse, false);
    assertError(await signUp(key, { email: 'someone-else@example.com' }), 'This invitation is for another email address.');

    const inviterEvents = await listen(inviter, { event_types: ['invites_changed', 'message'] });
    const joined = await signUp(key, { full_name: 'Grace Newcomer' });
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    assert.equal(joined.body.email, address);
    const user = (await server.owner.get(`/users/${joined.body.user_id}`)).body.user;
    assert.equal(user.role, 600);
    const subscribers = (await server.owner.get(`/streams/${channel.id}/members`)).body.subscribers;
    assert.ok(subscribers.includes(joined.body.user_id));

    const events = await inviterEvents();
    assert.ok(events.some((e) => e.type === 'invites_changed'));
    const notice = events.find((e) => e.type === 'message')!.message;
    assert.match(notice.sender_email, /^notification-bot@/);
    assert.equal(notice.type, 'private');
    assert.match(notice.content, /Grace Newcomer/);
    assert.match(notice.content, /accepted your invitation/);

    assert.ok(!(await emailInvites(server.owner)).some((i) => i.email.toLowerCase() === address), 'both invitations are gone');
    assertError(await signUp(key, { full_name: 'Again' }), 'The confirmation link has expired or been deactivated.', 404);
    assertError(await signUp(otherKey, { full_name: 'Again' }), 'The confirmation link has expired or been deactivated.', 404);
  });

  test('tells nobody when notify_referrer_on_join is false', async () => {
    const inviter = await withRole(400);
    const address = newAddress();
    await invite(inviter, address, { notify_referrer_on_join: false });
    const listed = (await emailInvites(inviter)).find((i) => i.email === address)!;
    assert.equal(listed.notify_referrer_on_join, false);
    const key = keyInMail((await catcher.mailsTo([address]))[0]);
    const inviterEvents = await listen(inviter, { event_types: ['message'] });
    assert.equal((await signUp(key)).status, 200);
    assert.deepEqual(await inviterEvents(), []);
  });

  test('fails once the invitation has expired', async () => {
    const address = newAddress();
    await invite(server.owner, address, { invite_expires_in_minutes: 1 });
    const key = keyInMail((await catcher.mailsTo([address]))[0]);
    const { id } = (await emailInvites(server.owner)).find((i) => i.email === address)!;
    clock.advance(2 * 60_000);
    assertError(await signUp(key), 'The confirmation link has expired or been deactivated.', 404);
    assert.ok(!(await emailInvites(server.owner)).some((i) => i.id === id), 'no longer listed');
    assertError(await server.owner.post(`/invites/${id}/resend`), 'No such invitation');
  });
});

describe('DELETE /invites/{invite_id} and POST /invites/{invite_id}/resend', () => {
  test('resend mails the same link again and counts it as sent now', async () => {
    const address = newAddress();
    await invite(server.owner, address);
    const key = keyInMail((await catcher.mailsTo([address]))[0]);
    const { id } = (await emailInvites(server.owner)).find((i) => i.email === address)!;
    clock.advance(60_000);
    const events = await listen(server.owner, { event_types: ['invites_changed'] });
    const response = await server.owner.post(`/invites/${id}/resend`);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    await catcher.waitForCount(address, 2);
    assert.equal(keyInMail((await catcher.mailsTo([address]))[0]), key);
    const listed = (await emailInvites(server.owner)).find((i) => i.id === id)!;
    assert.equal(listed.invited, Math.floor(clock.now() / 1000));
    assert.deepEqual(await events(), [{ type: 'invites_changed' }]);
  });

  test('revoking ends the link; only the inviter or an administrator may revoke or resend', async () => {
    const member = await withRole(400);
    const otherMember = await withRole(400);
    const administrator = await withRole(200);
    const address = newAddress();
    await invite(member, address);
    const key = keyInMail((await catcher.mailsTo([address]))[0]);
    const { id } = (await emailInvites(member)).find((i) => i.email === address)!;

    assertError(await otherMember.delete(`/invites/${id}`), 'Must be an organization administrator');
    assertError(await otherMember.post(`/invites/${id}/resend`), 'Must be an organization administrator');
    assert.equal((await administrator.post(`/invites/${id}/resend`)).status, 200);

    const events = await listen(member, { event_types: ['invites_changed'] });
    assert.equal((await member.delete(`/invites/${id}`)).status, 200);
    assert.deepEqual(await events(), [{ type: 'invites_changed' }]);
    assert.ok(!(await emailInvites(server.owner)).some((i) => i.id === id));
    assertError(await signUp(key), 'The confirmation link has expired or been deactivated.', 404);
    assertError(await member.delete(`/invites/${id}`), 'No such invitation');
    assertError(await member.post(`/invites/${id}/resend`), 'No such invitation');
    assertError(await server.owner.delete('/invites/999999'), 'No such invitation');

    // A reusable link is revoked through /invites/multiuse/{id}, not here.
    const link = await server.owner.post('/invites/multiuse', {});
    const linkId = (await server.owner.get('/invites')).body.invites.find((i: any) => i.link_url === link.body.invite_link).id;
    assertError(await server.owner.delete(`/invites/${linkId}`), 'No such invitation');
  });

  test('an owner’s invitation of an owner is managed only by owners', async () => {
    const administrator = await withRole(200);
    const address = newAddress();
    await invite(server.owner, address, { invite_as: 100 });
    const { id } = (await emailInvites(server.owner)).find((i) => i.email === address)!;
    assertError(await administrator.delete(`/invites/${id}`), 'Must be an organization owner');
    assert.equal((await server.owner.delete(`/invites/${id}`)).status, 200);
  });
});

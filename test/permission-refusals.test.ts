import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from './support/client';
import { ok, png } from './support/fixtures';
import { TestServer } from './support/server';

/**
 * What Zulip 10.2 answers a member or a guest who asks for what their role does not allow, read
 * from its source (the require_realm_admin / require_realm_owner / require_member_or_admin
 * decorators, access_bot_by_id, access_user_group_for_update, the channel administration
 * check, the emoji and invitation views): each refusal's status, code and words.
 */
const ADMIN_REQUIRED = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' };
const OWNER_REQUIRED = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' };
const INSUFFICIENT = { status: 400, code: 'BAD_REQUEST', msg: 'Insufficient permission' };
const NOT_FOR_GUESTS = { status: 400, code: 'BAD_REQUEST', msg: 'Not allowed for guest users' };

async function refusal(response: Promise<{ status: number; body: any }>): Promise<{ status: number; code: string; msg: string }> {
  const { status, body } = await response;
  assert.equal(body.result, 'error', JSON.stringify(body));
  return { status, code: body.code, msg: body.msg };
}

describe('permission refusals answer in Zulip 10.2\'s words, codes and statuses', () => {
  let server: TestServer;
  let member: Client & { userId: number };
  let guest: Client & { userId: number };
  let ownersBot: number;
  let channel: number;
  before(async () => {
    server = await TestServer.start();
    member = await server.createUser('Mel Member');
    guest = await server.createUser('Gus Guest');
    ok(await server.owner.patch(`/users/${guest.userId}`, { role: 600 }), 'guest');
    ownersBot = ok(await server.owner.post('/bots', { full_name: 'Owner Bot', short_name: 'ownerbot' }), 'bot').user_id;
    ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'lounge' }], principals: [member.userId, guest.userId] }), 'channel');
    channel = (ok(await server.owner.get('/streams'), 'streams').streams as any[]).find((s) => s.name === 'lounge').stream_id;
    ok(await server.owner.upload('/realm/emoji/owners_parrot', [{ name: 'parrot.png', bytes: await png({ r: 200, g: 0, b: 0 }), type: 'image/png' }]), 'emoji');
    // Only administrators may invite by email or add emoji here, so that members are refused;
    // members may make invitation links, but not for administrators.
    const admins = JSON.stringify({ new: server.groupId('role:administrators') });
    const members = JSON.stringify({ new: server.groupId('role:members') });
    ok(
      await server.owner.patch('/realm', { can_invite_users_group: admins, can_add_custom_emoji_group: admins, create_multiuse_invite_group: members }),
      'permissions',
    );
  });
  after(() => server?.close());

  test('endpoints for administrators and owners only', async () => {
    assert.deepEqual(await refusal(member.patch('/realm', { name: 'Mine now' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.example/{id}' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/realm/profile_fields', { name: 'Team', field_type: 1 })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/realm/playgrounds', { name: 'Rust', pygments_language: 'rust', url_template: 'https://play.example/{code}' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.get('/export/realm')), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(guest.patch('/realm', { name: 'Mine now' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/realm/domains', { domain: 'example.org', allow_subdomains: false })), OWNER_REQUIRED);
  });

  test("someone else's bot, a system group, channels, emoji and invitations", async () => {
    assert.deepEqual(await refusal(member.patch(`/bots/${ownersBot}`, { full_name: 'Taken Over' })), INSUFFICIENT);
    assert.deepEqual(await refusal(member.delete(`/bots/${ownersBot}`)), INSUFFICIENT);
    assert.deepEqual(await refusal(member.patch(`/users/${server.ownerId}`, { full_name: 'Renamed' })), INSUFFICIENT);
    const admins = server.groupId('role:administrators');
    assert.deepEqual(await refusal(member.post(`/user_groups/${admins}/members`, { add: [member.userId] })), INSUFFICIENT);
    assert.deepEqual(await refusal(member.patch(`/streams/${channel}`, { description: 'mine' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'You do not have permission to administer this channel.',
    });
    assert.deepEqual(await refusal(member.delete('/realm/emoji/owners_parrot')), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator or emoji author',
    });
    assert.deepEqual(await refusal(member.post('/invites', { invitee_emails: 'new@example.com', stream_ids: JSON.stringify([]) })), INSUFFICIENT);
    assert.deepEqual(await refusal(member.post('/invites/multiuse', { stream_ids: JSON.stringify([]), invite_as: 200 })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator',
    });
  });

  test('guests where only members may act', async () => {
    assert.deepEqual(await refusal(guest.post('/bots', { full_name: 'Guest Bot', short_name: 'guestbot' })), NOT_FOR_GUESTS);
    assert.deepEqual(await refusal(guest.get('/bots')), NOT_FOR_GUESTS);
    assert.deepEqual(await refusal(guest.get('/user_groups')), NOT_FOR_GUESTS);
    assert.deepEqual(await refusal(guest.get('/invites')), NOT_FOR_GUESTS);
    assert.deepEqual(await refusal(guest.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'lounge' }]), principals: JSON.stringify([member.userId]) })), NOT_FOR_GUESTS);
    const image = await png({ r: 0, g: 0, b: 200 });
    assert.deepEqual(await refusal(guest.upload('/realm/emoji/guest_parrot', [{ name: 'parrot.png', bytes: image, type: 'image/png' }])), NOT_FOR_GUESTS);
  });
});

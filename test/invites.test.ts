import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser } from './support/browser';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { ManualClock, TestServer } from './support/server';

let server: TestServer;
const clock = new ManualClock();

before(async () => {
  server = await TestServer.start({ clock });
});
after(() => server.close());

/** The key of an invitation link, checking the link's shape on the way. */
function keyOf(link: string): string {
  const match = new RegExp(`^${server.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/join/([a-z2-7]{24})/$`).exec(link);
  assert.ok(match, `an invitation link on this server: ${link}`);
  return match[1];
}

async function createLink(client: Client, params: Record<string, unknown> = {}): Promise<{ key: string; link: string }> {
  const response = await client.post('/invites/multiuse', params);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return { key: keyOf(response.body.invite_link), link: response.body.invite_link };
}

async function invites(client: Client): Promise<Array<Record<string, any>>> {
  const response = await client.get('/invites');
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.invites;
}

function assertError(response: { status: number; body: any }, msg: string, status = 400) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.body.result, 'error');
  assert.equal(response.body.msg, msg);
}

let userCount = 0;
/** Signs up through an invitation in a new browser. */
async function signUp(key: string, fields: Record<string, unknown> = {}) {
  userCount += 1;
  const browser = new Browser(server.url);
  const response = await browser.request('POST', '/accounts/register', {
    key,
    full_name: `Student ${userCount}`,
    email: `student${userCount}@example.com`,
    password: 'a-long-password',
    ...fields,
  });
  return { browser, response };
}

async function withRole(role: number): Promise<Client & { userId: number }> {
  const user = await server.createUser();
  if (role !== 400) assert.equal((await server.owner.patch(`/users/${user.userId}`, { role })).status, 200);
  return user;
}

describe('POST /invites/multiuse', () => {
  test('makes a link to /join/{key}/ that expires in ten days by default, listed in GET /invites', async () => {
    const now = Math.floor(clock.now() / 1000);
    const { link } = await createLink(server.owner);
    const listed = (await invites(server.owner)).find((invite) => invite.link_url === link);
    assert.deepEqual(listed, {
      id: listed!.id,
      invited_by_user_id: server.ownerId,
      invited: now,
      expiry_date: now + 10 * 24 * 60 * 60,
      invited_as: 400,
      is_multiuse: true,
      link_url: link,
    });
  });

  test('never expires with invite_expires_in_minutes null, and tells administrators and the inviter', async () => {
    const administrator = await withRole(200);
    const member = await server.createUser();
    const adminEvents = await listen(administrator, { event_types: ['invites_changed'] });
    const memberEvents = await listen(member, { event_types: ['invites_changed'] });
    const { link } = await createLink(server.owner, { invite_expires_in_minutes: null, invite_as: 600 });
    const listed = (await invites(administrator)).find((invite) => invite.link_url === link)!;
    assert.equal(listed.expiry_date, null);
    assert.equal(listed.invited_as, 600);
    assert.deepEqual(await adminEvents(), [{ type: 'invites_changed' }]);
    assert.deepEqual(await memberEvents(), [], 'members do not manage others’ invitations');
  });

  test('follows Zulip’s rules on who may invite whom', async () => {
    const guest = await withRole(600);
    const member = await server.createUser();
    const moderator = await withRole(300);
    const administrator = await withRole(200);
    assertError(await guest.post('/invites/multiuse'), 'Not allowed for guest users');
    assertError(await member.post('/invites/multiuse'), 'Insufficient permission');
    assertError(await moderator.post('/invites/multiuse'), 'Insufficient permission', 400);
    assertError(await administrator.post('/invites/multiuse', { invite_as: 100 }), 'Must be an organization owner');
    await createLink(administrator, { invite_as: 200 });
    await createLink(server.owner, { invite_as: 100 });
    assert.equal((await server.owner.post('/invites/multiuse', { invite_as: 500 })).status, 400, 'not a role');

    // Who may make links is the organization's create_multiuse_invite_group.
    const members = server.groupId('role:members');
    assert.equal((await server.owner.patch('/realm', { create_multiuse_invite_group: { new: members } })).status, 200);
    try {
      await createLink(member, { invite_as: 600 });
      await createLink(member, { invite_as: 400 });
      assertError(await member.post('/invites/multiuse', { invite_as: 300 }), 'Must be an organization administrator');
      assertError(await member.post('/invites/multiuse', { invite_as: 200 }), 'Must be an organization administrator');
      // A member sees, and may revoke, only their own.
      const own = await invites(member);
      assert.equal(own.length, 2);
      assert.ok(own.every((invite) => invite.invited_by_user_id === member.userId));
      const others = (await invites(server.owner)).filter((invite) => invite.invited_by_user_id !== member.userId);
      assertError(await member.delete(`/invites/multiuse/${others[0].id}`), 'Must be an organization administrator');
      assert.equal((await member.delete(`/invites/multiuse/${own[0].id}`)).status, 200);
    } finally {
      const administrators = server.groupId('role:administrators');
      await server.owner.patch('/realm', { create_multiuse_invite_group: { new: administrators } });
    }
  });

  test('takes channels the inviter may add people to, and refuses others', async () => {
    const channel = await createChannel(server.owner);
    await createLink(server.owner, { stream_ids: [channel.id] });
    assertError(await server.owner.post('/invites/multiuse', { stream_ids: [999999] }), 'Invalid channel ID 999999. No invites were sent.');
    const stranger = await server.createUser();
    const secret = await createChannel(stranger, { invite_only: true });
    const administrator = await withRole(200);
    assertError(
      await administrator.post('/invites/multiuse', { stream_ids: [secret.id] }),
      `Invalid channel ID ${secret.id}. No invites were sent.`,
      400,
    );
  });

  test('takes groups the inviter may add members to', async () => {
    const created = await server.owner.post('/user_groups/create', { name: 'invited ones', description: '', members: [] });
    assert.equal(created.status, 200);
    await createLink(server.owner, { group_ids: [created.body.group_id] });
    assertError(await server.owner.post('/invites/multiuse', { group_ids: [999999] }), 'Invalid user group');
  });
});

describe('DELETE /invites/multiuse/{invite_id}', () => {
  test('revokes the link: it stops working, leaves the list, and administrators hear of it', async () => {
    const { key, link } = await createLink(server.owner);
    const id = (await invites(server.owner)).find((invite) => invite.link_url === link)!.id;
    const events = await listen(server.owner, { event_types: ['invites_changed'] });
    assert.equal((await server.owner.delete(`/invites/multiuse/${id}`)).status, 200);
    assert.deepEqual(await events(), [{ type: 'invites_changed' }]);
    assert.ok(!(await invites(server.owner)).some((invite) => invite.id === id));
    const details = await new Browser(server.url).request('GET', `/accounts/invite/${key}`);
    assertError(details, 'The confirmation link has expired or been deactivated.', 404);
    assertError((await signUp(key)).response, 'The confirmation link has expired or been deactivated.', 404);
    assertError(await server.owner.delete(`/invites/multiuse/${id}`), 'Invitation has already been revoked');
    assertError(await server.owner.delete('/invites/multiuse/999999'), 'No such invitation');
  });
});

describe('deactivating the inviter', () => {
  test('revokes their links', async () => {
    const administrator = await withRole(200);
    const { key } = await createLink(administrator);
    assert.equal((await server.owner.delete(`/users/${administrator.userId}`)).status, 200);
    assertError((await signUp(key)).response, 'The confirmation link has expired or been deactivated.', 404);
  });
});

describe('expiry', () => {
  test('an expired link is refused and no longer listed', async () => {
    const { key, link } = await createLink(server.owner, { invite_expires_in_minutes: 30 });
    const browser = new Browser(server.url);
    assert.equal((await browser.request('GET', `/accounts/invite/${key}`)).status, 200);
    clock.advance(31 * 60 * 1000);
    assertError(await browser.request('GET', `/accounts/invite/${key}`), 'The confirmation link has expired or been deactivated.', 404);
    assertError((await signUp(key)).response, 'The confirmation link has expired or been deactivated.', 404);
    assert.ok(!(await invites(server.owner)).some((invite) => invite.link_url === link));
  });
});

describe('signing up through a link', () => {
  test('GET /accounts/invite/{key} says where and as what, with no login', async () => {
    const { key } = await createLink(server.owner, { invite_as: 300, invite_expires_in_minutes: null });
    const response = await new Browser(server.url).request('GET', `/accounts/invite/${key}`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {
      result: 'success',
      msg: '',
      realm_name: server.stoa.realm.get()!.name,
      invite_as: 300,
      is_multiuse: true,
      email: null,
      expiry_date: null,
    });
    assertError(await new Browser(server.url).request('GET', '/accounts/invite/abc'), 'The confirmation link is malformed.', 404);
    assertError(
      await new Browser(server.url).request('GET', `/accounts/invite/${'a'.repeat(24)}`),
      "We couldn't find your confirmation link in the system.",
      404,
    );
  });

  test('makes the account with the invitation’s role, channels and groups, tells everyone, and signs it in', async () => {
    const channel = await createChannel(server.owner);
    const defaultChannel = await createChannel(server.owner);
    assert.equal((await server.owner.patch(`/streams/${defaultChannel.id}`, { is_default_stream: true })).status, 200);
    const group = await server.owner.post('/user_groups/create', { name: 'class of 2026', description: '', members: [] });
    const { key } = await createLink(server.owner, {
      invite_as: 300,
      stream_ids: [channel.id],
      group_ids: [group.body.group_id],
      include_realm_default_subscriptions: true,
    });
    const events = await listen(server.owner, { event_types: ['realm_user'] });

    const { browser, response } = await signUp(key, { full_name: 'Ada Student', email: 'ada@example.com' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const userId = response.body.user_id;
    assert.equal(response.body.email, 'ada@example.com');
    assert.equal(response.body.csrf_token, browser.csrfToken);
    assert.ok(browser.cookies.has('stoa_session'));

    const added = (await events()).find((event) => event.op === 'add');
    assert.equal(added?.person.user_id, userId);
    assert.equal(added?.person.full_name, 'Ada Student');
    const listed = (await server.owner.get('/users')).body.members.find((m: { user_id: number }) => m.user_id === userId);
    assert.equal(listed.role, 300);

    // The new person uses the app at once, by cookie.
    const me = await browser.get('/users/me');
    assert.equal(me.body.user_id, userId);
    const subscriptions = (await browser.get('/users/me/subscriptions')).body.subscriptions.map((s: { stream_id: number }) => s.stream_id);
    assert.ok(subscriptions.includes(channel.id));
    assert.ok(subscriptions.includes(defaultChannel.id));
    const members = (await server.owner.get(`/user_groups/${group.body.group_id}/members`)).body.members;
    assert.deepEqual(members, [userId]);
    assert.equal((await browser.post('/messages', { type: 'stream', to: channel.id, topic: 'hi', content: 'Hello, class!' })).status, 200);
    // And can sign in again with the password chosen.
    assert.equal((await new Browser(server.url).login('ada@example.com', 'a-long-password')).status, 200);

    // The link keeps working for the next person.
    assert.equal((await signUp(key)).response.status, 200);
  });

  test('without include_realm_default_subscriptions, joins only the invitation’s channels', async () => {
    const defaultChannel = await createChannel(server.owner);
    assert.equal((await server.owner.patch(`/streams/${defaultChannel.id}`, { is_default_stream: true })).status, 200);
    const { key } = await createLink(server.owner);
    const { browser, response } = await signUp(key);
    assert.equal(response.status, 200);
    const subscriptions = (await browser.get('/users/me/subscriptions')).body.subscriptions;
    assert.ok(!subscriptions.some((s: { stream_id: number }) => s.stream_id === defaultChannel.id));
    assert.equal((await browser.get('/users/me')).body.role, 400);
  });

  test('refuses what POST /users refuses, in the same words, and makes nobody', async () => {
    const { key } = await createLink(server.owner);
    const before = (await server.owner.get('/users')).body.members.length;
    assertError((await signUp(key, { email: 'owner@example.com' })).response, 'Email is already in use.');
    assertError((await signUp(key, { email: 'not an email' })).response, 'Bad name or username');
    assertError((await signUp(key, { password: 'short' })).response, 'The password is too weak.');
    assertError((await signUp(key, { password: '' })).response, 'The password is too weak.');
    assertError((await signUp(key, { full_name: '   ' })).response, 'Name too short!');
    const missing = await new Browser(server.url).request('POST', '/accounts/register', { key, full_name: 'No Email', password: 'a-long-password' });
    assertError(missing, "Missing 'email' argument");
    assertError((await signUp('b'.repeat(24))).response, "We couldn't find your confirmation link in the system.", 404);
    assert.equal((await server.owner.get('/users')).body.members.length, before);
  });

  test('takes a JSON body, as a page’s fetch() sends it', async () => {
    const { key } = await createLink(server.owner);
    const browser = new Browser(server.url);
    const response = await browser.request(
      'POST',
      '/accounts/register',
      { key, full_name: 'Jason', email: 'jason@example.com', password: 'a-long-password' },
      { json: true },
    );
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal((await browser.get('/users/me')).body.full_name, 'Jason');
  });
});

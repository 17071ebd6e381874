import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { sendMessage } from './support/messages';
import { TestServer } from './support/server';

// The organization setting can_access_all_users_group (Zulip 8.0+): at role:members, guests
// see only themselves, bots, people sharing a channel with them and people in a
// direct-message conversation with them. Everyone else is an "Unknown user" to them.

type User = Client & { userId: number };

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

const UNKNOWN_AVATAR = '/static/images/unknown-user-avatar.png';

/** Zulip's stand-in for a user the viewer may not see: nothing true but the ID. */
function unknownUser(userId: number) {
  return {
    email: `user${userId}@stoa.local`,
    user_id: userId,
    avatar_version: 1,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    role: 400,
    is_bot: false,
    full_name: 'Unknown user',
    timezone: '',
    is_active: true,
    date_joined: '1970-01-01T00:00:00+00:00',
    delivery_email: null,
    avatar_url: UNKNOWN_AVATAR,
    profile_data: {},
  };
}

async function restrictGuests(restricted: boolean): Promise<void> {
  const group = server.groupId(restricted ? 'role:members' : 'role:everyone');
  const response = await server.owner.patch('/realm', { can_access_all_users_group: { new: group } });
  assert.equal(response.status, 200, JSON.stringify(response.body));
}

async function makeGuest(name: string): Promise<User> {
  const guest = await server.createUser(name);
  assert.equal((await server.owner.patch(`/users/${guest.userId}`, { role: 600 })).status, 200);
  return guest;
}

async function realmUsers(client: Client, capabilities: Record<string, boolean> = {}) {
  const state = (await client.post('/register', { fetch_event_types: ['realm_user'], client_capabilities: capabilities })).body;
  return { active: state.realm_users as Array<Record<string, any>>, inactive: state.realm_non_active_users as Array<Record<string, any>> };
}

function byId(users: Array<Record<string, any>>, id: number) {
  return users.find((user) => user.user_id === id);
}

/** A guest, a member sharing a channel with them, and a member who shares nothing with them. */
async function scene(label: string) {
  const guest = await makeGuest(`${label} guest`);
  const peer = await server.createUser(`${label} peer`);
  const stranger = await server.createUser(`${label} stranger`);
  const channel = await createChannel(peer, { principals: [guest.userId, peer.userId] });
  return { guest, peer, stranger, channel };
}

describe('can_access_all_users_group at role:members', () => {
  before(() => restrictGuests(true));
  after(() => restrictGuests(false));

  test('register: a guest gets people they share a channel with, bots and themselves; others are "Unknown user" or left out', async () => {
    const { guest, peer, stranger } = await scene('Register');
    const bot = await server.owner.post('/bots', { full_name: 'Access bot', short_name: 'access-bot' });
    assert.equal(bot.status, 200, JSON.stringify(bot.body));

    const old = await realmUsers(guest);
    assert.equal(byId(old.active, peer.userId)?.full_name, 'Register peer');
    assert.equal(byId(old.active, guest.userId)?.full_name, 'Register guest');
    assert.equal(byId(old.active, bot.body.user_id)?.full_name, 'Access bot');
    assert.deepEqual(byId(old.active, stranger.userId), unknownUser(stranger.userId));

    const incomplete = await realmUsers(guest, { user_list_incomplete: true });
    assert.equal(byId(incomplete.active, stranger.userId), undefined);
    assert.equal(byId(incomplete.active, peer.userId)?.full_name, 'Register peer');
    assert.equal(byId(incomplete.active, bot.body.user_id)?.full_name, 'Access bot');

    // Members see everyone, whatever the setting.
    const member = await realmUsers(peer, { user_list_incomplete: true });
    assert.equal(byId(member.active, stranger.userId)?.full_name, 'Register stranger');
    assert.equal(byId(member.active, guest.userId)?.full_name, 'Register guest');
  });

  test('GET /users lists the unknown as "Unknown user"; GET /users/{id} and by email refuse them', async () => {
    const { guest, peer, stranger } = await scene('Lookup');
    const members = (await guest.get('/users')).body.members as Array<Record<string, any>>;
    assert.deepEqual(byId(members, stranger.userId), unknownUser(stranger.userId));
    assert.equal(byId(members, peer.userId)?.full_name, 'Lookup peer');

    const refused = await guest.get(`/users/${stranger.userId}`);
    assert.equal(refused.status, 400);
    assert.deepEqual([refused.body.code, refused.body.msg], ['BAD_REQUEST', 'Insufficient permission']);
    const byEmail = await guest.get(`/users/${encodeURIComponent(stranger.credentials!.email)}`);
    assert.equal(byEmail.status, 400);
    assert.equal(byEmail.body.msg, 'Insufficient permission');
    assert.equal((await guest.get(`/users/${peer.userId}`)).body.user.full_name, 'Lookup peer');
    assert.equal((await peer.get(`/users/${stranger.userId}`)).body.user.full_name, 'Lookup stranger');

    const mute = await guest.post(`/users/me/muted_users/${stranger.userId}`);
    assert.deepEqual([mute.status, mute.body.msg], [400, 'No such user']);
  });

  test('a message from someone the guest may not see shows "Unknown user" and the placeholder avatar', async () => {
    const { guest, peer, stranger, channel } = await scene('Sender');
    const guestEvents = await listen(guest, { event_types: ['message'] });
    const peerEvents = await listen(peer, { event_types: ['message'] });
    // The stranger writes into the channel without being subscribed to it.
    const id = await sendMessage(stranger, { type: 'stream', to: channel.id, topic: 'hello', content: 'from outside' });

    const [event] = await guestEvents();
    const fetched = (await guest.get(`/messages/${id}`)).body.message;
    for (const message of [event.message, fetched]) {
      assert.equal(message.sender_id, stranger.userId);
      assert.equal(message.sender_full_name, 'Unknown user');
      assert.equal(message.sender_email, `user${stranger.userId}@stoa.local`);
      assert.equal(message.avatar_url, UNKNOWN_AVATAR);
    }
    const listed = (await guest.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: channel.id }] })).body.messages;
    assert.equal(listed.at(-1).sender_full_name, 'Unknown user');
    const [peerEvent] = await peerEvents();
    assert.equal(peerEvent.message.sender_full_name, 'Sender stranger');

    const picture = await fetch(new URL(UNKNOWN_AVATAR, server.url));
    assert.equal(picture.status, 200);
    assert.equal(picture.headers.get('content-type'), 'image/png');
    assert.deepEqual([...new Uint8Array(await picture.arrayBuffer()).subarray(1, 4)], [0x50, 0x4e, 0x47]);
  });

  test('changes to a user reach only those who may see them', async () => {
    const { guest, peer, stranger } = await scene('Changes');
    const guestEvents = await listen(guest, { event_types: ['realm_user', 'user_status'] });
    const memberEvents = await listen(peer, { event_types: ['realm_user', 'user_status'] });
    await stranger.patch('/settings', { full_name: 'Changes stranger renamed' });
    await stranger.post('/users/me/status', { status_text: 'busy' });
    await peer.patch('/settings', { full_name: 'Changes peer renamed' });

    const seenByGuest = await guestEvents();
    assert.deepEqual(seenByGuest, [{ type: 'realm_user', op: 'update', person: { user_id: peer.userId, full_name: 'Changes peer renamed' } }]);
    const seenByMember = await memberEvents();
    assert.deepEqual(
      seenByMember.map((e) => [e.type, e.person?.user_id ?? e.user_id]),
      [
        ['realm_user', stranger.userId],
        ['user_status', stranger.userId],
        ['realm_user', peer.userId],
      ],
    );
  });

  test('joining and leaving a channel the guest is in gives and takes away the guest\'s sight of them', async () => {
    const { guest, peer, stranger, channel } = await scene('Joining');
    for (const capabilities of [{ user_list_incomplete: false }, { user_list_incomplete: true }]) {
      const events = await listen(guest, { event_types: ['realm_user'], client_capabilities: capabilities });
      const joined = await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [stranger.userId] });
      assert.equal(joined.status, 200, JSON.stringify(joined.body));
      const [added, ...rest] = await events();
      assert.deepEqual(rest, []);
      assert.deepEqual([added.op, added.person.user_id, added.person.full_name], ['add', stranger.userId, 'Joining stranger']);
      assert.deepEqual(added.person, byId((await realmUsers(guest, capabilities)).active, stranger.userId));
      assert.equal((await guest.get(`/users/${stranger.userId}`)).status, 200);

      const left = await stranger.delete('/users/me/subscriptions', { subscriptions: [channel.name] });
      assert.equal(left.status, 200, JSON.stringify(left.body));
      assert.deepEqual(await events(), [{ type: 'realm_user', op: 'remove', person: { user_id: stranger.userId, full_name: 'Unknown user' } }]);
      assert.equal((await guest.get(`/users/${stranger.userId}`)).status, 400);
    }
    // The guest joining a channel sees its subscribers; leaving it, loses them.
    const other = await createChannel(stranger);
    const events = await listen(guest, { event_types: ['realm_user'] });
    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: other.name }], principals: [guest.userId] });
    const added = (await events()).filter((e) => e.op === 'add').map((e) => e.person.user_id);
    assert.ok(added.includes(stranger.userId), JSON.stringify(added));
    await guest.delete('/users/me/subscriptions', { subscriptions: [other.name] });
    const removed = (await events()).filter((e) => e.op === 'remove').map((e) => e.person.user_id);
    assert.ok(removed.includes(stranger.userId) && !removed.includes(peer.userId), JSON.stringify(removed));
  });

  test('a direct message makes its people known to the guest; the guest cannot write to strangers', async () => {
    const { guest, stranger } = await scene('Direct');
    const refused = await guest.post('/messages', { type: 'direct', to: JSON.stringify([stranger.userId]), content: 'hi' });
    assert.deepEqual([refused.status, refused.body.msg], [400, 'You do not have permission to access some of the recipients.']);

    const events = await listen(guest, { event_types: ['realm_user', 'message'] });
    const id = await sendMessage(stranger, { type: 'direct', to: JSON.stringify([guest.userId]), content: 'hello guest' });
    const [added, message] = await events();
    assert.deepEqual([added.type, added.op, added.person.user_id], ['realm_user', 'add', stranger.userId]);
    assert.deepEqual([message.type, message.message.id, message.message.sender_full_name], ['message', id, 'Direct stranger']);
    assert.equal(byId((await realmUsers(guest, { user_list_incomplete: true })).active, stranger.userId)?.full_name, 'Direct stranger');
    // The conversation lasts: the guest may answer, and still sees the stranger later.
    await sendMessage(guest, { type: 'direct', to: JSON.stringify([stranger.userId]), content: 'hello back' });
    assert.equal((await guest.get(`/users/${stranger.userId}`)).status, 200);
  });

  test('a new account: nothing to clients with user_list_incomplete, "Unknown user" to others, the person once they share a channel', async () => {
    const { guest, channel } = await scene('Newcomer');
    const incomplete = await listen(guest, { event_types: ['realm_user'], client_capabilities: { user_list_incomplete: true } });
    const complete = await listen(guest, { event_types: ['realm_user'] });
    const member = await server.createUser('Newcomer person');
    assert.deepEqual(await incomplete(), []);
    assert.deepEqual(await complete(), [{ type: 'realm_user', op: 'add', person: unknownUser(member.userId) }]);

    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [member.userId] });
    for (const read of [incomplete, complete]) {
      const [added] = await read();
      assert.deepEqual([added.op, added.person.user_id, added.person.full_name], ['add', member.userId, 'Newcomer person']);
    }
  });

  test('deactivating someone the guest sees only through a channel takes them away; reactivating brings them back', async () => {
    const { guest, peer } = await scene('Leaver');
    const events = await listen(guest, { event_types: ['realm_user'] });
    assert.equal((await server.owner.delete(`/users/${peer.userId}`)).status, 200);
    assert.deepEqual(await events(), [{ type: 'realm_user', op: 'remove', person: { user_id: peer.userId, full_name: 'Unknown user' } }]);
    const state = await realmUsers(guest, { user_list_incomplete: true });
    assert.equal(byId([...state.active, ...state.inactive], peer.userId), undefined);

    assert.equal((await server.owner.post(`/users/${peer.userId}/reactivate`)).status, 200);
    const back = await events();
    assert.deepEqual(back.map((e) => [e.op, e.person.user_id]), [['add', peer.userId], ['update', peer.userId]]);
    assert.equal(back[0].person.is_active, true);
  });

  test('a member made a guest loses sight of strangers, and a guest made a member gains it', async () => {
    const { peer, stranger } = await scene('Role');
    const events = await listen(peer, { event_types: ['realm_user'] });
    assert.equal((await server.owner.patch(`/users/${peer.userId}`, { role: 600 })).status, 200);
    const removed = (await events()).filter((e) => e.op === 'remove').map((e) => e.person.user_id);
    assert.ok(removed.includes(stranger.userId) && !removed.includes(peer.userId), JSON.stringify(removed));
    assert.equal((await peer.get(`/users/${stranger.userId}`)).status, 400);

    assert.equal((await server.owner.patch(`/users/${peer.userId}`, { role: 400 })).status, 200);
    const added = (await events()).filter((e) => e.op === 'add').map((e) => e.person.user_id);
    assert.ok(added.includes(stranger.userId), JSON.stringify(added));
  });
});

describe('switching can_access_all_users_group', () => {
  test('back to role:everyone shows guests everyone (realm_user add), and role:members hides them again', async () => {
    await restrictGuests(true);
    const { guest, stranger } = await scene('Switch');
    const events = await listen(guest, { event_types: ['realm_user'], client_capabilities: { user_list_incomplete: true } });

    await restrictGuests(false);
    const added = await events();
    assert.ok(added.every((e) => e.op === 'add'));
    const person = added.find((e) => e.person.user_id === stranger.userId)?.person;
    assert.deepEqual(person, byId((await realmUsers(guest, { user_list_incomplete: true })).active, stranger.userId));
    assert.equal((await guest.get(`/users/${stranger.userId}`)).body.user.full_name, 'Switch stranger');
    const members = (await guest.get('/users')).body.members as Array<Record<string, any>>;
    assert.ok(members.every((member) => member.full_name !== 'Unknown user'));

    await restrictGuests(true);
    const removed = await events();
    assert.ok(removed.every((e) => e.op === 'remove'));
    assert.ok(removed.some((e) => e.person.user_id === stranger.userId));
    assert.deepEqual(
      removed.map((e) => e.person.user_id).sort((a, b) => a - b),
      added.map((e) => e.person.user_id).sort((a, b) => a - b),
    );
    await restrictGuests(false);
  });

  test('at role:everyone guests see everyone and every change', async () => {
    const { guest, stranger } = await scene('Open');
    const events = await listen(guest, { event_types: ['realm_user'] });
    await stranger.patch('/settings', { full_name: 'Open stranger renamed' });
    assert.deepEqual(await events(), [{ type: 'realm_user', op: 'update', person: { user_id: stranger.userId, full_name: 'Open stranger renamed' } }]);
    assert.equal(byId((await realmUsers(guest, { user_list_incomplete: true })).active, stranger.userId)?.full_name, 'Open stranger renamed');
  });
});

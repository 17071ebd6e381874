import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from './support/client';
import { TestServer } from './support/server';

/**
 * The permission matrix: every role against every kind of channel, for each channel endpoint.
 * The expected outcomes are written out here from the specification's access rules, apart
 * from the server's own code, and every refusal is checked to change nothing and name nothing.
 */

type Role = 'owner' | 'administrator' | 'moderator' | 'member' | 'guest' | 'bot' | 'deactivated';
type Kind = 'public' | 'public, subscribed' | 'private' | 'private, subscribed' | 'web-public' | 'archived';

const ROLES: Role[] = ['owner', 'administrator', 'moderator', 'member', 'guest', 'bot', 'deactivated'];
const KINDS: Kind[] = ['public', 'public, subscribed', 'private', 'private, subscribed', 'web-public', 'archived'];
const ROLE_VALUES: Record<Role, number> = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600, bot: 400, deactivated: 400 };

const subscribed = (kind: Kind) => kind.endsWith('subscribed');
const isPrivate = (kind: Kind) => kind.startsWith('private');
const isAdmin = (role: Role) => role === 'owner' || role === 'administrator';

/** May know the channel: subscribers; non-guests for public ones; administrators for private ones. */
function metadata(role: Role, kind: Kind): boolean {
  if (subscribed(kind) || kind === 'web-public') return true;
  if (role === 'guest') return false;
  return !isPrivate(kind) || isAdmin(role);
}
/** May read it: subscribers, and non-guests for public ones (administrators get no more). */
function content(role: Role, kind: Kind): boolean {
  if (subscribed(kind) || kind === 'web-public') return true;
  return role !== 'guest' && !isPrivate(kind);
}
const active = (kind: Kind) => kind !== 'archived';

let server: TestServer;
const clients = new Map<Role, Client & { userId: number }>();

/** A generic bot, made by a member and acting with its own API key; for channels it is a member. */
async function createBot(): Promise<Client & { userId: number }> {
  const botOwner = await server.createUser('Bot owner');
  const created = await botOwner.post('/bots', { full_name: 'Matrix Bot', short_name: 'matrix' });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const { email } = (await server.owner.get(`/users/${created.body.user_id}`)).body.user;
  return Object.assign(server.anonymous.as({ email, apiKey: created.body.api_key }), { userId: created.body.user_id as number });
}
/** For each role, the channels made for it: its own, so one role's actions never disturb another's. */
const channels = new Map<string, { id: number; name: string }>();

before(async () => {
  // Web-public channels need the server's switch and the organization's spectator access.
  server = await TestServer.start({ webPublic: true });
  const spectators = await server.owner.patch('/realm', { enable_spectator_access: true });
  assert.equal(spectators.status, 200, JSON.stringify(spectators.body));
  // Every channel has this subscriber, so the owner can make channels it is not in itself.
  const keeper = await server.createUser('Keeper');
  for (const role of ROLES) {
    const client =
      role === 'owner'
        ? Object.assign(server.owner, { userId: server.ownerId })
        : role === 'bot'
          ? await createBot()
          : await server.createUser(`The ${role}`);
    if (role !== 'owner' && role !== 'deactivated' && role !== 'bot') await server.owner.patch(`/users/${client.userId}`, { role: ROLE_VALUES[role] });
    clients.set(role, client);
    for (const kind of KINDS) {
      // The owner creates every channel; the role's user is in it only where the kind says so.
      const name = `${role} ${kind}`;
      const principals = subscribed(kind) ? [keeper.userId, client.userId] : [keeper.userId];
      const created = await server.owner.post('/users/me/subscriptions', {
        subscriptions: [{ name }],
        invite_only: isPrivate(kind),
        is_web_public: kind === 'web-public',
        principals,
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = (await keeper.get('/get_stream_id', { stream: name })).body.stream_id;
      if (kind === 'archived') await server.owner.delete(`/streams/${id}`);
      channels.set(`${role}/${kind}`, { id, name });
    }
  }
  await server.owner.delete(`/users/${clients.get('deactivated')!.userId}`);
});
after(() => server.close());

function cases(): Array<{ role: Role; kind: Kind }> {
  return ROLES.flatMap((role) => KINDS.map((kind) => ({ role, kind })));
}

/** A refusal must not name a channel the caller may not know. */
function assertNoLeak(body: { msg?: string }, role: Role, kind: Kind, name: string): void {
  if (!metadata(role, kind)) assert.ok(!String(body.msg).includes(name), `${role} learned of "${name}": ${body.msg}`);
}

describe('the channel permission matrix', () => {
  test('GET /streams/{id} answers exactly those with metadata access, archived channels too', async () => {
    for (const { role, kind } of cases()) {
      const { id, name } = channels.get(`${role}/${kind}`)!;
      const response = await clients.get(role)!.get(`/streams/${id}`);
      if (role === 'deactivated') {
        assert.equal(response.status, 401);
        continue;
      }
      const allowed = metadata(role, kind);
      assert.equal(response.status, allowed ? 200 : 400, `${role} / ${kind}`);
      if (allowed) assert.equal(response.body.stream.is_archived, !active(kind), `${role} / ${kind}`);
      if (!allowed) {
        assert.equal(response.body.msg, 'Invalid channel ID', `${role} / ${kind}`);
        assertNoLeak(response.body, role, kind, name);
      }
    }
  });

  test('GET /streams/{id}/members follows the same rule', async () => {
    for (const { role, kind } of cases()) {
      if (role === 'deactivated') continue;
      const { id } = channels.get(`${role}/${kind}`)!;
      const response = await clients.get(role)!.get(`/streams/${id}/members`);
      assert.equal(response.status, metadata(role, kind) ? 200 : 400, `${role} / ${kind}`);
    }
  });

  test('GET /get_stream_id answers those with content access, by name', async () => {
    for (const { role, kind } of cases()) {
      if (role === 'deactivated') continue;
      const { name } = channels.get(`${role}/${kind}`)!;
      const response = await clients.get(role)!.get('/get_stream_id', { stream: name });
      const allowed = content(role, kind) && active(kind);
      assert.equal(response.status, allowed ? 200 : 400, `${role} / ${kind}`);
      if (!allowed) assert.equal(response.body.msg, `Invalid channel name '${name}'`);
    }
  });

  test('GET /streams lists a channel exactly when the user may know it', async () => {
    for (const role of ROLES.filter((r) => r !== 'deactivated')) {
      const listed = new Set(
        (await clients.get(role)!.get('/streams', { include_all: true })).body.streams.map((s: { stream_id: number }) => s.stream_id),
      );
      for (const kind of KINDS) {
        for (const owner of ROLES) {
          // Each role sees channels made for others as an outsider would: not subscribed.
          const viewAs: Kind = owner === role ? kind : (kind.replace(', subscribed', '') as Kind);
          const { id } = channels.get(`${owner}/${kind}`)!;
          assert.equal(listed.has(id), metadata(role, viewAs) && active(kind), `${role} listing ${owner}/${kind}`);
        }
      }
    }
  });

  test('subscribing oneself needs content access to an active channel, and is not for guests', async () => {
    for (const { role, kind } of cases()) {
      if (role === 'deactivated') continue;
      const { id, name } = channels.get(`${role}/${kind}`)!;
      const before = (await server.owner.get(`/streams/${id}/members`, {}, 'query')).body.subscribers;
      const response = await clients.get(role)!.post('/users/me/subscriptions', { subscriptions: [{ name }] });
      const allowed = role !== 'guest' && content(role, kind) && active(kind);
      assert.equal(response.status, allowed ? 200 : 400, `${role} / ${kind}: ${JSON.stringify(response.body)}`);
      if (!allowed) {
        if (active(kind)) {
          const after = (await server.owner.get(`/streams/${id}/members`)).body.subscribers;
          assert.deepEqual(after, before, `${role} / ${kind} changed nothing`);
        }
        if (role === 'guest') assert.equal(response.body.msg, 'Not allowed for guest users');
      } else if (!subscribed(kind)) {
        // Leave again, so later checks see the channel as it was made.
        await clients.get(role)!.delete('/users/me/subscriptions', { subscriptions: [name] });
      }
    }
  });

  test('PATCH /streams/{id} is for administrators; readers are told no, others learn nothing', async () => {
    for (const { role, kind } of cases()) {
      if (role === 'deactivated') continue;
      const { id, name } = channels.get(`${role}/${kind}`)!;
      const response = await clients.get(role)!.patch(`/streams/${id}`, { description: `edited by ${role}` });
      if (isAdmin(role)) {
        assert.equal(response.status, 200, `${role} / ${kind}`);
      } else if (content(role, kind)) {
        assert.equal(response.body.code, 'BAD_REQUEST', `${role} / ${kind}`);
      } else {
        assert.equal(response.body.msg, 'Invalid channel ID', `${role} / ${kind}`);
        assertNoLeak(response.body, role, kind, name);
      }
      if (!isAdmin(role)) {
        const description = (await server.owner.get('/streams', { include_all: true, exclude_archived: false })).body.streams.find(
          (s: { stream_id: number }) => s.stream_id === id,
        ).description;
        assert.ok(!description.includes(role), `${role} / ${kind} changed nothing`);
      }
    }
  });

  test('DELETE /streams/{id} (archiving) is for administrators', async () => {
    for (const role of ROLES.filter((r) => r !== 'deactivated')) {
      const { id } = channels.get(`${role}/public, subscribed`)!;
      const response = await clients.get(role)!.delete(`/streams/${id}`);
      assert.equal(response.status, isAdmin(role) ? 200 : 400, role);
      if (isAdmin(role)) await server.owner.patch(`/streams/${id}`, { is_archived: false });
    }
  });

  test('subscribing others to a channel one can read needs permission to add subscribers', async () => {
    const target = await server.createUser('Target');
    for (const role of ROLES.filter((r) => r !== 'deactivated')) {
      const { name } = channels.get(`${role}/public, subscribed`)!;
      const response = await clients.get(role)!.post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [target.userId] });
      // The organization lets members (bots too) add subscribers by default; guests may not subscribe at all.
      assert.equal(response.status, role === 'guest' ? 400 : 200, role);
    }
  });

  test('a bot holds the members system group, so it may create public and private channels but not web-public ones', async () => {
    const bot = clients.get('bot')!;
    for (const invite_only of [false, true]) {
      const name = `made by the bot ${invite_only}`;
      const response = await bot.post('/users/me/subscriptions', { subscriptions: [{ name }], invite_only });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      assert.deepEqual(response.body.subscribed, { [String(bot.userId)]: [name] });
      const channel = (await bot.get('/streams/' + (await bot.get('/get_stream_id', { stream: name })).body.stream_id)).body.stream;
      assert.equal(channel.invite_only, invite_only);
      assert.equal(channel.creator_id, bot.userId);
    }
    const webPublic = await bot.post('/users/me/subscriptions', { subscriptions: [{ name: 'web-public, made by the bot' }], is_web_public: true });
    assert.equal(webPublic.status, 400);
    assert.equal((await server.owner.get('/get_stream_id', { stream: 'web-public, made by the bot' })).status, 400);
  });

  test('a deactivated user is refused everywhere with USER_DEACTIVATED', async () => {
    const client = clients.get('deactivated')!;
    const { id, name } = channels.get('deactivated/public, subscribed')!;
    for (const response of [
      await client.get('/streams'),
      await client.get(`/streams/${id}`),
      await client.post('/users/me/subscriptions', { subscriptions: [{ name }] }),
      await client.patch(`/streams/${id}`, { description: 'x' }),
    ]) {
      assert.equal(response.status, 401);
      assert.equal(response.body.code, 'USER_DEACTIVATED');
    }
  });
});

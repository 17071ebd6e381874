import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listen, listen12 } from './support/events';
import { tempDir, TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

let counter = 0;
/** A short name no other test uses. */
function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${counter}`;
}

async function refusal(response: Promise<{ status: number; body: any }>): Promise<string> {
  const { status, body } = await response;
  assert.equal(status, 400, JSON.stringify(body));
  return body.msg;
}

describe('bots', () => {
  test('a member creates a bot they own; everyone sees the account, the owner and administrators see the bot', async () => {
    const owner = await server.createUser();
    const bystander = await server.createUser();
    const ownerEvents = await listen12(owner, { event_types: ['realm_bot'] });
    const adminEvents = await listen12(server.owner, { event_types: ['realm_bot'] });
    const bystanderEvents = await listen(bystander, { event_types: ['realm_bot', 'realm_user'] });
    const channel = unique('bot home ');
    await owner.post('/users/me/subscriptions', { subscriptions: [{ name: channel }] });

    const shortName = unique('weather');
    const created = await owner.post('/bots', {
      full_name: `  Weather ${counter} `,
      short_name: shortName,
      default_sending_stream: channel,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const { user_id: botId, api_key: apiKey } = created.body;
    assert.equal(typeof apiKey, 'string');
    assert.equal(created.body.default_sending_stream, channel);
    assert.equal(created.body.default_events_register_stream, null);

    // Since level 474 the Bot object holds only what the user object lacks.
    const expected = {
      user_id: botId,
      default_sending_stream: channel,
      default_events_register_stream: null,
      default_all_public_streams: false,
      services: [],
    };
    const email = `${shortName}-bot@stoa.local`;
    assert.deepEqual(await ownerEvents(), [{ type: 'realm_bot', op: 'add', bot: expected }]);
    assert.deepEqual(await adminEvents(), [{ type: 'realm_bot', op: 'add', bot: expected }]);
    const seen = await bystanderEvents();
    assert.deepEqual(seen.map((e) => [e.type, e.op]), [['realm_user', 'add']], 'others see only the new account');
    assert.deepEqual(
      [seen[0].person.email, seen[0].person.full_name, seen[0].person.is_bot, seen[0].person.bot_type, seen[0].person.bot_owner_id],
      [email, `Weather ${counter}`, true, 1, owner.userId],
    );

    const state = (await owner.post('/register', { fetch_event_types: ['realm_bot'] })).body;
    assert.deepEqual(state.realm_bots, [expected]);
    const adminState = (await server.owner.post('/register', { fetch_event_types: ['realm_bot'] })).body;
    assert.ok(adminState.realm_bots.some((bot: { user_id: number }) => bot.user_id === botId));
    assert.deepEqual((await bystander.post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots, []);

    const listing = (await owner.get('/bots')).body.bots;
    assert.deepEqual(listing, [
      {
        username: email,
        full_name: `Weather ${counter}`,
        api_key: apiKey,
        avatar_url: created.body.avatar_url,
        default_sending_stream: channel,
        default_events_register_stream: null,
        default_all_public_streams: false,
      },
    ]);

    const asBot = server.anonymous.as({ email, apiKey });
    const me = (await asBot.get('/users/me')).body;
    assert.deepEqual([me.user_id, me.is_bot], [botId, true]);
  });

  test('creation is refused with Zulip\'s messages', async () => {
    const member = await server.createUser('Taken Name');
    const guest = await server.createUser();
    await server.owner.patch(`/users/${guest.userId}`, { role: 600 });
    const name = unique('dup');
    assert.equal((await member.post('/bots', { full_name: `Dup ${counter}`, short_name: name })).status, 200);

    assert.equal(await refusal(member.post('/bots', { full_name: 'X Bot', short_name: name })), 'Username already in use');
    assert.equal(await refusal(member.post('/bots', { full_name: 'X Bot', short_name: '  ' })), 'Bad name or username');
    assert.equal(await refusal(member.post('/bots', { full_name: 'X Bot', short_name: 'a b' })), 'Bad name or username');
    assert.equal(await refusal(member.post('/bots', { full_name: '', short_name: unique('x') })), 'Name too short!');
    assert.equal(await refusal(member.post('/bots', { full_name: 'Taken Name', short_name: unique('x') })), 'Name is already in use.');
    assert.equal(await refusal(member.post('/bots', { full_name: 'X Bot', short_name: unique('x'), bot_type: 4 })), 'Invalid bot type');
    assert.equal(
      await refusal(member.post('/bots', { full_name: 'X Bot', short_name: unique('x'), default_sending_stream: 'no such channel' })),
      "Invalid channel name 'no such channel'",
    );
    assert.equal(await refusal(guest.post('/bots', { full_name: 'X Bot', short_name: unique('x') })), 'Not allowed for guest users');
    const missing = await member.post('/bots', { short_name: unique('x') });
    assert.equal(missing.body.msg, "Missing 'full_name' argument");
  });

  test('the owner renames the bot, changes its defaults and regenerates its key; administrators hear of the defaults only (level 474)', async () => {
    const owner = await server.createUser();
    const other = await server.createUser();
    const bot = (await owner.post('/bots', { full_name: unique('Helper '), short_name: unique('helper'), bot_type: 2 })).body;
    const email = (await owner.get(`/users/${bot.user_id}`)).body.user.email;
    const ownerEvents = await listen12(owner, { event_types: ['realm_bot', 'realm_user'] });
    const channel = unique('announcements ');
    await owner.post('/users/me/subscriptions', { subscriptions: [{ name: channel }] });

    const renamed = await owner.patch(`/bots/${bot.user_id}`, {
      full_name: `Renamed ${counter}`,
      default_events_register_stream: channel,
      default_all_public_streams: true,
    });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.full_name, `Renamed ${counter}`);
    assert.equal(renamed.body.default_events_register_stream, channel);
    assert.equal(renamed.body.bot_owner, (await owner.get('/users/me')).body.email);
    const seen = await ownerEvents();
    assert.deepEqual(
      seen.filter((e) => e.type === 'realm_bot').map((e) => e.bot),
      [
        { user_id: bot.user_id, default_events_register_stream: channel },
        { user_id: bot.user_id, default_all_public_streams: true },
      ],
    );
    assert.ok(seen.some((e) => e.type === 'realm_user' && e.person.full_name === `Renamed ${counter}`));
    assert.equal(renamed.body.config_data, null, 'no config_data asked for, none answered');
    const configured = await owner.patch(`/bots/${bot.user_id}`, { config_data: JSON.stringify({ stream: 'alerts' }) });
    assert.deepEqual([configured.status, configured.body.config_data], [200, { stream: 'alerts' }]);
    assert.equal(configured.body.ignored_parameters_unsupported, undefined);
    const badConfig = await owner.patch(`/bots/${bot.user_id}`, { config_data: JSON.stringify({ stream: 3 }) });
    assert.equal(badConfig.status, 400);

    const regenerated = await owner.post(`/bots/${bot.user_id}/api_key/regenerate`);
    assert.equal(regenerated.status, 200, JSON.stringify(regenerated.body));
    assert.notEqual(regenerated.body.api_key, bot.api_key);
    assert.deepEqual(
      (await ownerEvents()).filter((e) => e.type === 'realm_bot'),
      [],
      'a new API key is not announced; GET /bots/{bot_id}/api_key gives it',
    );
    assert.equal((await server.anonymous.as({ email, apiKey: bot.api_key }).get('/users/me')).status, 401, 'the old key stops working');
    // An incoming-webhook bot may only send messages: the new key sends one.
    const sent = await server.anonymous.as({ email, apiKey: regenerated.body.api_key }).post('/messages', { type: 'direct', to: JSON.stringify([owner.userId]), content: 'new key' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));

    assert.equal(await refusal(other.patch(`/bots/${bot.user_id}`, { full_name: 'Mine now' })), 'Insufficient permission');
    assert.equal(await refusal(owner.patch(`/bots/${owner.userId}`, { full_name: 'X' })), 'No such bot');
    assert.equal(await refusal(owner.patch('/bots/99999', { full_name: 'X' })), 'No such bot');
    assert.equal(await refusal(owner.patch(`/bots/${bot.user_id}`, { role: 200 })), 'Must be an organization administrator');
  });

  test('changing the owner moves the bot between owners\' lists and updates everyone\'s bot_owner_id', async () => {
    const first = await server.createUser();
    const second = await server.createUser();
    const bystander = await server.createUser();
    const bot = (await first.post('/bots', { full_name: unique('Moving '), short_name: unique('moving') })).body;
    const firstEvents = await listen12(first, { event_types: ['realm_bot'] });
    const secondEvents = await listen12(second, { event_types: ['realm_bot'] });
    const adminEvents = await listen12(server.owner, { event_types: ['realm_bot'] });
    const bystanderEvents = await listen(bystander, { event_types: ['realm_user', 'realm_bot'] });

    assert.equal(await refusal(first.patch(`/bots/${bot.user_id}`, { bot_owner_id: 99999 })), 'Failed to change owner, no such user');
    assert.equal(await refusal(first.patch(`/bots/${bot.user_id}`, { bot_owner_id: bot.user_id })), "Failed to change owner, bots can't own other bots");
    const moved = await first.patch(`/bots/${bot.user_id}`, { bot_owner_id: second.userId });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));

    assert.deepEqual(await firstEvents(), [{ type: 'realm_bot', op: 'delete', bot: { user_id: bot.user_id } }]);
    const added = await secondEvents();
    assert.deepEqual([added[0].op, added[0].bot.user_id], ['add', bot.user_id]);
    assert.deepEqual(await adminEvents(), [], 'administrators learn the new owner from realm_user alone (level 474)');
    assert.deepEqual(await bystanderEvents(), [
      { type: 'realm_user', op: 'update', person: { user_id: bot.user_id, bot_owner_id: second.userId } },
    ]);
    assert.deepEqual((await first.get('/bots')).body.bots, []);
    assert.equal((await second.get('/bots')).body.bots.length, 1);
    assert.equal((await bystander.get(`/users/${bot.user_id}`)).body.user.bot_owner_id, second.userId);
  });

  test('deactivating a person deactivates the bots they own', async () => {
    const owner = await server.createUser();
    const bot = (await owner.post('/bots', { full_name: unique('Helper '), short_name: unique('helper') })).body;
    const watcher = await listen(server.owner, { event_types: ['realm_user'] });
    assert.equal((await server.owner.delete(`/users/${owner.userId}`)).status, 200);
    const deactivated = (await watcher())
      .filter((e) => e.person.is_active === false)
      .map((e) => e.person.user_id);
    assert.deepEqual(deactivated, [owner.userId, bot.user_id]);
    assert.equal((await server.owner.get(`/users/${bot.user_id}`)).body.user.is_active, false);
  });

  test('deactivating a bot tells its administrators through realm_user, and the bot stays listed', async () => {
    const owner = await server.createUser();
    const bot = (await owner.post('/bots', { full_name: unique('Retired '), short_name: unique('retired') })).body;
    const events = await listen12(owner, { event_types: ['realm_bot', 'realm_user'] });

    assert.equal((await owner.delete(`/bots/${bot.user_id}`)).status, 200);
    assert.deepEqual(await events(), [{ type: 'realm_user', op: 'update', person: { user_id: bot.user_id, is_active: false } }]);
    assert.equal(await refusal(owner.delete(`/bots/${bot.user_id}`)), 'User is already deactivated');
    assert.deepEqual((await owner.get('/bots')).body.bots, []);

    await server.restart();
    const again = server.anonymous.as(owner.credentials);
    const state = (await again.post('/register', { fetch_event_types: ['realm_bot', 'realm_user'] })).body;
    assert.deepEqual(state.realm_bots.map((b: { user_id: number }) => b.user_id), [bot.user_id]);
    assert.ok(state.realm_non_active_users.some((u: { user_id: number }) => u.user_id === bot.user_id));

    assert.equal((await server.owner.post(`/users/${bot.user_id}/reactivate`)).status, 200);
    assert.equal((await again.get('/bots')).body.bots.length, 1);
  });

  test("a bot's owner reactivates it, as Zulip lets them; others may not, nor while its name is taken", async () => {
    const owner = await server.createUser();
    const stranger = await server.createUser();
    const name = unique('Sleeper ');
    const bot = (await owner.post('/bots', { full_name: name, short_name: unique('sleeper') })).body;
    assert.equal((await owner.delete(`/bots/${bot.user_id}`)).status, 200);

    assert.equal(await refusal(stranger.post(`/users/${bot.user_id}/reactivate`)), 'Insufficient permission');
    // Another bot took the name meanwhile: the sleeper cannot come back under it.
    const usurper = (await stranger.post('/bots', { full_name: name, short_name: unique('usurper') })).body;
    assert.equal(
      await refusal(owner.post(`/users/${bot.user_id}/reactivate`)),
      `There is already an active bot named "${name}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
    );
    await stranger.delete(`/bots/${usurper.user_id}`);

    const events = await listen12(owner, { event_types: ['realm_user'] });
    const reactivated = await owner.post(`/users/${bot.user_id}/reactivate`);
    assert.equal(reactivated.status, 200, JSON.stringify(reactivated.body));
    assert.ok((await events()).some((e) => e.op === 'update' && e.person.user_id === bot.user_id && e.person.is_active === true));
    assert.equal((await server.owner.get(`/users/${bot.user_id}`)).body.user.is_active, true);
    // People are still reactivated by administrators only.
    const person = await server.createUser();
    await server.owner.delete(`/users/${person.userId}`);
    assert.equal((await owner.post(`/users/${person.userId}/reactivate`)).status, 400);
  });

  test('a user who becomes an administrator gains every bot in their bot list, and loses them again', async () => {
    const maker = await server.createUser();
    const promoted = await server.createUser();
    const bot = (await maker.post('/bots', { full_name: unique('Shared '), short_name: unique('shared') })).body;
    const events = await listen(promoted, { event_types: ['realm_bot'] });

    await server.owner.patch(`/users/${promoted.userId}`, { role: 200 });
    const gained = await events();
    assert.ok(gained.some((e) => e.op === 'add' && e.bot.user_id === bot.user_id));
    await server.owner.patch(`/users/${promoted.userId}`, { role: 400 });
    assert.ok((await events()).some((e) => e.op === 'delete' && e.bot.user_id === bot.user_id));
  });
});

describe('bot email addresses', () => {
  test('are built on the organization host, as on Zulip; a bot keeps its address when the host changes', async () => {
    const hosted = await TestServer.start({ config: { site: 'https://Chat.Example.com:8443' } });
    try {
      const created = await hosted.owner.post('/bots', { full_name: 'Hosted Bot', short_name: 'hosted' });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const email = (await hosted.owner.get(`/users/${created.body.user_id}`)).body.user.email;
      assert.equal(email, 'hosted-bot@chat.example.com');
      const state = (await hosted.owner.post('/register', { fetch_event_types: ['realm'] })).body;
      assert.equal(state.realm_bot_domain, 'chat.example.com');
      const refused = await hosted.owner.post('/bots', { full_name: 'Hosted Again', short_name: 'hosted' });
      assert.deepEqual([refused.status, refused.body.msg], [400, 'Username already in use']);
    } finally {
      await hosted.close();
    }
    // Reached by an IP address (as these tests reach their servers), no address can end in the
    // host: bots get Stoa's internal domain instead.
    const local = await server.owner.post('/bots', { full_name: 'Local Bot', short_name: 'local' });
    assert.equal((await server.owner.get(`/users/${local.body.user_id}`)).body.user.email, 'local-bot@stoa.local');
    assert.equal((await server.owner.post('/register', { fetch_event_types: ['realm'] })).body.realm_bot_domain, 'stoa.local');
  });

  test('keep the address they were made with after the server moves to a new host', async () => {
    const data = tempDir();
    const first = await TestServer.start({ data, config: { site: 'http://localhost:9991' } });
    let botId: number;
    try {
      const created = await first.owner.post('/bots', { full_name: 'Mover Bot', short_name: 'mover' });
      botId = created.body.user_id;
      assert.equal((await first.owner.get(`/users/${botId}`)).body.user.email, 'mover-bot@localhost');
    } finally {
      await first.running.close();
    }
    const moved = await TestServer.start({ data, config: { site: 'https://chat.example.org' } });
    try {
      assert.equal((await moved.owner.get(`/users/${botId}`)).body.user.email, 'mover-bot@localhost');
      const next = await moved.owner.post('/bots', { full_name: 'New Bot', short_name: 'newcomer' });
      assert.equal((await moved.owner.get(`/users/${next.body.user_id}`)).body.user.email, 'newcomer-bot@chat.example.org');
    } finally {
      await moved.close();
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listen } from './support/events';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

describe('POST /users/me/status', () => {
  test('sets text and emoji, tells everyone, and shows them to all', async () => {
    const user = await server.createUser();
    const events = await listen(server.owner, { event_types: ['user_status'] });
    const response = await user.post('/users/me/status', {
      status_text: '  on vacation  ',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const status = { status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' };
    assert.deepEqual(await events(), [{ type: 'user_status', user_id: user.userId, ...status }]);
    assert.deepEqual((await server.owner.get(`/users/${user.userId}/status`)).body.status, status);
    assert.deepEqual((await user.get('/users/me/status')).body.status, status);
    const state = (await server.owner.post('/register', { fetch_event_types: ['user_status'] })).body;
    assert.deepEqual(state.user_status[String(user.userId)], status);
  });

  test('changes only what is passed, and clears with empty strings', async () => {
    const user = await server.createUser();
    await user.post('/users/me/status', { status_text: 'busy', emoji_name: 'zulip', reaction_type: 'service_extra_emoji' });
    const events = await listen(server.owner, { event_types: ['user_status'] });

    await user.post('/users/me/status', { status_text: 'still busy' });
    assert.deepEqual(await events(), [{ type: 'user_status', user_id: user.userId, status_text: 'still busy' }]);
    const kept = (await user.get('/users/me/status')).body.status;
    assert.deepEqual(kept, { status_text: 'still busy', emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' });

    await user.post('/users/me/status', { emoji_name: '' });
    assert.deepEqual(await events(), [
      { type: 'user_status', user_id: user.userId, emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' },
    ]);
    assert.deepEqual((await user.get('/users/me/status')).body.status, { status_text: 'still busy' });

    await user.post('/users/me/status', { status_text: '' });
    assert.deepEqual((await user.get('/users/me/status')).body.status, {});
    const state = (await server.owner.post('/register', { fetch_event_types: ['user_status'] })).body;
    assert.equal(state.user_status[String(user.userId)], undefined, 'a cleared status is not listed');
  });

  test('away turns presence_enabled off and on, as the deprecated way to do it', async () => {
    const user = await server.createUser();
    const events = await listen(server.owner, { event_types: ['user_status'] });
    await user.post('/users/me/status', { away: true });
    assert.deepEqual((await user.get('/users/me/status')).body.status, { away: true });
    const settings = (await user.post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings;
    assert.equal(settings.presence_enabled, false);
    const seen = await events();
    assert.ok(seen.every((e) => e.user_id === user.userId && e.away === true));
    assert.ok(seen.length > 0);

    await user.patch('/settings', { presence_enabled: true });
    assert.deepEqual(await events(), [{ type: 'user_status', user_id: user.userId, away: false }], 'the settings change is a status change too');
    assert.deepEqual((await user.get('/users/me/status')).body.status, {});
  });

  test('status emoji follow the rules of reactions: a name alone finds its emoji', async () => {
    const user = await server.createUser();
    assert.equal((await user.post('/users/me/status', { emoji_name: 'octopus' })).status, 200);
    const { status } = (await user.get('/users/me/status')).body;
    assert.deepEqual([status.emoji_name, status.emoji_code, status.reaction_type], ['octopus', '1f419', 'unicode_emoji']);
    await user.post('/users/me/status', { emoji_name: 'zulip', reaction_type: 'zulip_extra_emoji' });
    assert.equal((await user.get('/users/me/status')).body.status.reaction_type, 'service_extra_emoji');
  });

  test('refuses what Zulip refuses, in its words', async () => {
    const user = await server.createUser();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'Client did not pass any new values.'],
      [{ status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
      [{ emoji_code: '1f697' }, 'Client did not pass any new values.'],
      [{ status_text: 'hi', emoji_code: '1f697' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
      [{ status_text: 'hi', reaction_type: 'unicode_emoji' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
      [{ emoji_name: 'car', emoji_code: 'not hex' }, 'Invalid emoji code.'],
      [{ emoji_name: 'car', emoji_code: 'fffff', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
      [{ emoji_name: 'Car!', emoji_code: '1f697', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
      [{ emoji_name: 'no such emoji!' }, "Emoji 'no such emoji!' does not exist"],
      [{ emoji_name: 'car', emoji_code: '1f697', reaction_type: 'weird' }, 'Invalid emoji type.'],
      [{ emoji_name: 'zulip', emoji_code: 'other', reaction_type: 'service_extra_emoji' }, 'Invalid emoji code.'],
      [{ emoji_name: 'party', emoji_code: '42', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
      [{ away: 'yes' }, 'away is not valid JSON'],
    ];
    for (const [params, msg] of cases) {
      const response = await user.post('/users/me/status', params);
      assert.equal(response.status, 400, JSON.stringify(params));
      assert.equal(response.body.msg, msg);
    }
    assert.equal((await user.post('/users/me/status', { status_text: ` ${'x'.repeat(60)} ` })).status, 200, 'spaces around do not count');
  });
});

describe('GET /users/{user_id}/status', () => {
  test('answers an empty status for a user who set none, and refuses unknown and deactivated users', async () => {
    const quiet = await server.createUser();
    assert.deepEqual((await server.owner.get(`/users/${quiet.userId}/status`)).body.status, {});
    const gone = await server.createUser();
    await server.owner.delete(`/users/${gone.userId}`);
    const cases: Array<[number, string]> = [
      [999999, 'No such user'],
      [gone.userId, 'User is deactivated'],
    ];
    for (const [id, msg] of cases) {
      const response = await server.owner.get(`/users/${id}/status`);
      assert.equal(response.status, 400);
      assert.equal(response.body.msg, msg);
    }
  });

  test('statuses survive a restart and deactivated users are left out of register', async () => {
    const user = await server.createUser();
    const gone = await server.createUser();
    await user.post('/users/me/status', { status_text: 'back soon', away: true });
    await gone.post('/users/me/status', { status_text: 'leaving' });
    await server.owner.delete(`/users/${gone.userId}`);
    await server.restart();
    const state = (await server.owner.post('/register', { fetch_event_types: ['user_status'] })).body.user_status;
    assert.deepEqual(state[String(user.userId)], { away: true, status_text: 'back soon' });
    assert.equal(state[String(gone.userId)], undefined);
  });
});

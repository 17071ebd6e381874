import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import { listen } from './support/events';
import { TestServer } from './support/server';

/**
 * Routes of Zulip 10.2's URL table that real clients call beside the documented API: legacy
 * aliases, the web app's slash commands, avatar redirects under the API and downloads.
 */

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

function basic(credentials: { email: string; apiKey: string }): string {
  return `Basic ${Buffer.from(`${credentials.email}:${credentials.apiKey}`).toString('base64')}`;
}

describe('legacy settings endpoints', () => {
  test('PATCH /settings/display and /settings/notifications change settings as PATCH /settings does', async () => {
    const user = await server.createUser();
    const events = await listen(user, { event_types: ['user_settings'] });
    assert.equal((await user.patch('/settings/display', { left_side_userlist: true })).status, 200);
    assert.equal((await user.patch('/settings/notifications', { enable_sounds: false })).status, 200);
    assert.deepEqual(
      (await events()).map((e) => [e.property, e.value]),
      [
        ['left_side_userlist', true],
        ['enable_sounds', false],
      ],
    );
    const settings = (await user.post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings;
    assert.equal(settings.left_side_userlist, true);
    assert.equal(settings.enable_sounds, false);
    const bad = await user.patch('/settings/display', { color_scheme: 9 });
    assert.deepEqual([bad.status, bad.body.msg], [400, 'Invalid color_scheme']);
  });
});

describe('POST /zcommand', () => {
  test('answers /ping and flips the theme and width settings, with Zulip replies', async () => {
    const user = await server.createUser();
    const events = await listen(user, { event_types: ['user_settings'] });
    assert.deepEqual((await user.post('/zcommand', { command: '/ping' })).body, { result: 'success', msg: '' });
    const dark = await user.post('/zcommand', { command: '/dark' });
    assert.equal(dark.body.msg, 'Changed to dark theme! To revert dark theme, type `/light`.');
    assert.equal((await user.post('/zcommand', { command: '/dark' })).body.msg, 'You are still in dark theme.');
    assert.equal((await user.post('/zcommand', { command: '/light' })).body.msg, 'Changed to light theme! To revert light theme, type `/dark`.');
    assert.equal(
      (await user.post('/zcommand', { command: '/fluid-width' })).body.msg,
      'Changed to fluid-width mode! To revert fluid-width mode, type `/fixed-width`.',
    );
    assert.equal((await user.post('/zcommand', { command: '/fluid-width' })).body.msg, 'You are still in fluid width mode.');
    assert.equal(
      (await user.post('/zcommand', { command: '/fixed-width' })).body.msg,
      'Changed to fixed-width mode! To revert fixed-width mode, type `/fluid-width`.',
    );
    assert.deepEqual(
      (await events()).map((e) => [e.property, e.value]),
      [
        ['color_scheme', 2],
        ['color_scheme', 3],
        ['fluid_layout_width', true],
        ['fluid_layout_width', false],
      ],
    );
    for (const [command, msg] of [
      ['ping', 'There should be a leading slash in the zcommand.'],
      ['/toString', 'No such command: toString'],
      ['/giphy', 'No such command: giphy'],
    ]) {
      const response = await user.post('/zcommand', { command });
      assert.deepEqual([response.status, response.body.code, response.body.msg], [400, 'BAD_REQUEST', msg]);
    }
    assert.equal((await user.post('/zcommand', {})).body.msg, "Missing 'command' argument");
  });
});

describe('avatars by user under /api/v1 and /json', () => {
  test('redirect to the avatar, by ID or email, medium too, passing the query string on', async () => {
    const user = await server.createUser();
    const { avatar_url: small } = (await user.get('/users/me')).body;
    const found = async (path: string, authorization?: string) => {
      const response = await fetch(new URL(path, server.url), { redirect: 'manual', headers: authorization ? { authorization } : {} });
      return { status: response.status, location: response.headers.get('location') };
    };
    const auth = basic(user.credentials);
    assert.deepEqual(await found(`/api/v1/avatar/${user.userId}`, auth), { status: 302, location: small });
    assert.deepEqual(await found(`/api/v1/avatar/${encodeURIComponent(user.credentials.email)}`, auth), {
      status: 302,
      location: small,
    });
    const medium = await found(`/api/v1/avatar/${user.userId}/medium?s=50`, auth);
    assert.equal(medium.status, 302);
    assert.match(medium.location!, /-medium\.png|size=500|s=500/);
    assert.match(medium.location!, /[?&]s=50$/);
    const unauthenticated = await found(`/api/v1/avatar/${user.userId}`);
    assert.equal(unauthenticated.status, 401);
    const json = await found(`/json/avatar/${user.userId}`);
    assert.equal(json.status, 401, 'spectators only where spectator access is on');
  });
});

describe('GET /user_uploads/download/{path_id}', () => {
  test('serves the file as an attachment to those who may read it, and refuses others as the plain URL does', async () => {
    const [owner, other] = [await server.createUser(), await server.createUser()];
    const uploaded = await owner.upload('/user_uploads', [{ name: 'notes.txt', bytes: 'hello, download', type: 'text/plain' }]);
    const url = uploaded.body.url as string;
    const inline = await owner.download(url);
    assert.match(inline.headers.get('content-disposition')!, /^inline;/);
    const download = await owner.download(url.replace('/user_uploads/', '/user_uploads/download/'));
    assert.equal(download.status, 200);
    assert.equal(download.bytes.toString(), 'hello, download');
    assert.equal(download.headers.get('content-type'), 'text/plain');
    assert.equal(download.headers.get('content-disposition'), "attachment; filename*=UTF-8''notes.txt");
    const downloadUrl = url.replace('/user_uploads/', '/user_uploads/download/');
    assert.equal((await other.download(downloadUrl)).status, 403, 'not shared with them');
    assert.equal((await owner.download(downloadUrl, { anonymous: true, redirect: 'manual' })).status, 302);
    assert.equal((await owner.download(`${downloadUrl}-missing`)).status, 404);
  });
});

describe('POST /users/me/onboarding_steps', () => {
  test('marks a one-time notice seen for all the user’s clients, over a restart, and refuses unknown ones', async () => {
    const user = await server.createUser();
    const fetchSteps = async (client = user) =>
      (await client.post('/register', { fetch_event_types: ['onboarding_steps'] })).body as { onboarding_steps: any[]; navigation_tour_video_url: unknown };
    const initial = await fetchSteps();
    assert.equal(initial.navigation_tour_video_url, null);
    const names = initial.onboarding_steps.map((step) => step.name);
    assert.ok(names.includes('intro_inbox_view_modal'));
    assert.ok(initial.onboarding_steps.every((step) => step.type === 'one_time_notice'));

    const events = await listen(user, { event_types: ['onboarding_steps'] });
    assert.equal((await user.post('/users/me/onboarding_steps', { onboarding_step: 'intro_inbox_view_modal' })).status, 200);
    const remaining = initial.onboarding_steps.filter((step) => step.name !== 'intro_inbox_view_modal');
    assert.deepEqual(await events(), [{ type: 'onboarding_steps', onboarding_steps: remaining }]);
    assert.equal((await user.post('/users/me/onboarding_steps', { onboarding_step: 'intro_inbox_view_modal' })).status, 200, 'seeing it again is no error');

    const unknown = await user.post('/users/me/onboarding_steps', { onboarding_step: 'no_such_step' });
    assert.deepEqual([unknown.status, unknown.body.msg], [400, 'Unknown onboarding_step: no_such_step']);
    await server.restart();
    const again = server.anonymous.as(user.credentials);
    assert.deepEqual((await fetchSteps(again as typeof user)).onboarding_steps, remaining);
    const other = await server.createUser();
    assert.deepEqual((await fetchSteps(other)).onboarding_steps, initial.onboarding_steps, 'each user has their own');
  });
});

describe('POST /users/me/api_key/regenerate', () => {
  test('answers a new key; the old one stops working at once and the phones registered with it are signed out', async () => {
    const user = await server.createUser();
    assert.equal((await user.post('/users/me/android_gcm_reg_id', { token: 'old-phone-token' })).status, 200);
    assert.equal(server.stoa.push.tokensOfUser(user.userId).length, 1);
    const regenerated = await user.post('/users/me/api_key/regenerate');
    assert.equal(regenerated.status, 200, JSON.stringify(regenerated.body));
    const apiKey = regenerated.body.api_key as string;
    assert.notEqual(apiKey, user.credentials.apiKey);
    assert.equal((await user.get('/users/me')).status, 401, 'the old key no longer works');
    const renewed = server.anonymous.as({ email: user.credentials.email, apiKey });
    assert.equal((await renewed.get('/users/me')).body.user_id, user.userId);
    assert.deepEqual(server.stoa.push.tokensOfUser(user.userId), []);
  });
});

describe('PATCH /users/me/subscriptions/{stream_id}', () => {
  test('changes one subscription property, as the one-item POST /users/me/subscriptions/properties does', async () => {
    const user = await server.createUser();
    const { id } = await createChannel(user);
    const events = await listen(user, { event_types: ['subscription'] });
    assert.equal((await user.patch(`/users/me/subscriptions/${id}`, { property: 'color', value: '#a1b2c3' })).status, 200);
    assert.equal((await user.patch(`/users/me/subscriptions/${id}`, { property: 'is_muted', value: true })).status, 200);
    assert.deepEqual(
      (await events()).map((e) => [e.op, e.stream_id, e.property, e.value]),
      [
        ['update', id, 'color', '#a1b2c3'],
        ['update', id, 'in_home_view', false],
        ['update', id, 'is_muted', true],
      ],
    );
    const mine = (await user.get('/users/me/subscriptions')).body.subscriptions.find((s: any) => s.stream_id === id);
    assert.deepEqual([mine.color, mine.is_muted], ['#a1b2c3', true]);
    const unknown = await user.patch(`/users/me/subscriptions/${id}`, { property: 'loudness', value: true });
    assert.deepEqual([unknown.status, unknown.body.msg], [400, 'Unknown subscription property: loudness']);
    const other = await createChannel(server.owner);
    const notMine = await user.patch(`/users/me/subscriptions/${other.id}`, { property: 'pin_to_top', value: true });
    assert.deepEqual([notMine.status, notMine.body.msg], [400, `Not subscribed to channel ID ${other.id}`]);
    const missing = await user.patch(`/users/me/subscriptions/${id}`, { property: 'pin_to_top' });
    assert.deepEqual([missing.status, missing.body.msg], [400, "Missing 'value' argument"]);
  });
});

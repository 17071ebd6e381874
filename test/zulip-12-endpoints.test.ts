import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { listen } from './support/events';
import { TestServer } from './support/server';

/** Endpoints of Zulip 11 and 12 (feature levels 373-488) small enough to share a file. */

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

function refusal(response: { status: number; body: any }): [number, string, string] {
  return [response.status, response.body.code, response.body.msg];
}

describe('call providers Stoa is not configured for', () => {
  test('refuse Nextcloud Talk and Constructor Groups calls with Zulip\'s errors', async () => {
    assert.deepEqual(refusal(await server.owner.post('/calls/nextcloud_talk/create', { room_name: 'standup' })), [400, 'BAD_REQUEST', 'Nextcloud Talk is not configured.']);
    assert.deepEqual(refusal(await server.owner.post('/calls/nextcloud_talk/create')), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'room_name' argument"]);
    assert.deepEqual(refusal(await server.owner.post('/calls/constructorgroups/create')), [400, 'BAD_REQUEST', 'Constructor Groups is not configured.']);
  });
});

describe('POST /jwt/fetch_api_key', () => {
  test('answers that JWT login is not enabled, whatever the token', async () => {
    const response = await server.anonymous.post('/jwt/fetch_api_key', { token: 'eyJhbGciOiJIUzI1NiJ9.e30.x' });
    assert.deepEqual(refusal(response), [400, 'BAD_REQUEST', 'JWT authentication is not enabled for this organization']);
  });
});

describe('API keys', () => {
  test('a bot\'s owner and administrators read its key; others may not', async () => {
    const [owner, other] = [await server.createUser(), await server.createUser()];
    const created = await owner.post('/bots', { full_name: 'Key Bot', short_name: 'keybot' });
    const botId = created.body.user_id as number;
    assert.deepEqual((await owner.get(`/bots/${botId}/api_key`)).body.api_key, created.body.api_key);
    assert.deepEqual((await server.owner.get(`/bots/${botId}/api_key`)).body.api_key, created.body.api_key);
    assert.deepEqual(refusal(await other.get(`/bots/${botId}/api_key`)), [400, 'BAD_REQUEST', 'Insufficient permission']);
    assert.deepEqual(refusal(await owner.get(`/bots/${owner.userId}/api_key`)), [400, 'BAD_REQUEST', 'No such bot']);
    const regenerated = (await owner.post(`/bots/${botId}/api_key/regenerate`)).body.api_key;
    assert.equal((await owner.get(`/bots/${botId}/api_key`)).body.api_key, regenerated);
  });

  test('a person\'s regenerated key replaces the old one at once and forgets their phones', async () => {
    const user = await server.createUser();
    assert.equal((await user.post('/users/me/android_gcm_reg_id', { token: 'fcm-token-1' })).status, 200);
    const response = await user.post('/users/me/api_key/regenerate');
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const apiKey = response.body.api_key as string;
    assert.notEqual(apiKey, user.credentials.apiKey);
    assert.equal((await user.get('/users/me')).status, 401, 'the old key is refused');
    const renewed = server.anonymous.as({ email: user.credentials.email, apiKey });
    assert.equal((await renewed.get('/users/me')).body.user_id, user.userId);
    assert.deepEqual(server.stoa.push.tokensOfUser(user.userId), []);
  });
});

describe('GET /thumbnail/status/{realm_id_str}/{filename}', () => {
  test("says an image has a thumbnail, to its uploader only; anything else is 'Invalid attachment', as on Zulip", async () => {
    const [user, other] = [await server.createUser(), await server.createUser()];
    const image = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 9, g: 99, b: 199 } } }).png().toBuffer();
    const uploaded = (await user.upload('/user_uploads', [{ name: 'pic.png', bytes: image, type: 'image/png' }])).body.url as string;
    const text = (await user.upload('/user_uploads', [{ name: 'notes.txt', bytes: Buffer.from('hi'), type: 'text/plain' }])).body.url as string;
    const status = (url: string) => url.replace('/user_uploads/', '/thumbnail/status/');
    assert.deepEqual((await user.get(status(uploaded))).body.has_thumbnail, true);
    const invalid = { status: 400, code: 'BAD_REQUEST', msg: 'Invalid attachment' };
    const refusal = async (response: Promise<{ status: number; body: any }>) => {
      const { status, body } = await response;
      return { status, code: body.code, msg: body.msg };
    };
    assert.deepEqual(await refusal(user.get(status(text))), invalid, 'not an image');
    assert.deepEqual(await refusal(other.get(status(uploaded))), invalid, 'someone else\'s upload');
    assert.deepEqual(await refusal(user.get(status(uploaded).replace(/[^/]+$/, 'missing.png'))), invalid);
  });
});

describe('POST /users/{user_id}/status', () => {
  test('lets an administrator set someone\'s status, which everyone hears of', async () => {
    const [user, watcher] = [await server.createUser(), await server.createUser()];
    const events = await listen(watcher, { event_types: ['user_status'] });
    const response = await server.owner.post(`/users/${user.userId}/status`, { status_text: ' On leave ', emoji_name: 'palm_tree' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const [event] = await events();
    assert.deepEqual([event.type, event.user_id, event.status_text, event.emoji_name], ['user_status', user.userId, 'On leave', 'palm_tree']);
    assert.equal((await user.get(`/users/${user.userId}/status`)).body.status.status_text, 'On leave');
  });

  test('is refused to members, for bots and unknown people, and without anything to change', async () => {
    const [user, target] = [await server.createUser(), await server.createUser()];
    assert.deepEqual(refusal(await user.post(`/users/${target.userId}/status`, { status_text: 'x' })), [400, 'BAD_REQUEST', 'Insufficient permission']);
    assert.deepEqual(refusal(await server.owner.post(`/users/${target.userId}/status`)), [400, 'BAD_REQUEST', 'Client did not pass any new values.']);
    assert.deepEqual(refusal(await server.owner.post('/users/999999/status', { status_text: 'x' })), [400, 'BAD_REQUEST', 'No such user']);
    assert.deepEqual(refusal(await server.owner.post(`/users/${target.userId}/status`, { status_text: 'x'.repeat(61) })), [400, 'BAD_REQUEST', 'status_text is too long (limit: 60 characters)']);
  });
});

describe('logged-in devices', () => {
  test('are registered and removed by their user, with events and register state', async () => {
    const [user, other] = [await server.createUser(), await server.createUser()];
    const events = await listen(user, { event_types: ['device'] });
    const registered = await user.post('/register_client_device');
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    const deviceId = registered.body.device_id as number;
    assert.deepEqual(await events(), [{ type: 'device', op: 'add', device_id: deviceId }]);
    const blank = { push_key_id: null, push_token_id: null, pending_push_token_id: null, push_token_last_updated_timestamp: null, push_registration_error_code: null };
    assert.deepEqual((await user.post('/register', { fetch_event_types: ['device'] })).body.devices, { [deviceId]: blank });

    assert.deepEqual(refusal(await other.post('/remove_client_device', { device_id: deviceId })), [400, 'BAD_REQUEST', 'Invalid `device_id`']);
    assert.equal((await user.post('/remove_client_device', { device_id: deviceId })).status, 200);
    assert.deepEqual(await events(), [{ type: 'device', op: 'remove', device_id: deviceId }]);
    assert.deepEqual((await user.post('/register', { fetch_event_types: ['device'] })).body.devices, {});
  });
});

describe('allowed email domains', () => {
  test('are added, changed and removed by owners, with events to everyone, and kept', async () => {
    const member = await server.createUser();
    const events = await listen(member, { event_types: ['realm_domains', 'realm'] });
    const added = await server.owner.post('/realm/domains', { domain: ' Example.ORG ', allow_subdomains: false });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.equal(added.body.new_domain[1], 'example.org');
    assert.equal((await server.owner.patch('/realm/domains/example.org', { allow_subdomains: true })).status, 200);
    assert.deepEqual((await member.get('/realm/domains')).body.domains, [{ domain: 'example.org', allow_subdomains: true }]);
    assert.deepEqual(await events(), [
      { type: 'realm_domains', op: 'add', realm_domain: { domain: 'example.org', allow_subdomains: false } },
      { type: 'realm_domains', op: 'change', realm_domain: { domain: 'example.org', allow_subdomains: true } },
    ]);
    assert.deepEqual((await member.post('/register', { fetch_event_types: ['realm_domains'] })).body.realm_domains, [{ domain: 'example.org', allow_subdomains: true }]);

    // Removing the last domain lifts a restriction to the listed domains, which would admit nobody.
    assert.equal((await server.owner.patch('/realm', { emails_restricted_to_domains: true })).status, 200);
    await events();
    assert.equal((await server.owner.delete('/realm/domains/example.org')).status, 200);
    assert.deepEqual(await events(), [
      { type: 'realm_domains', op: 'remove', domain: 'example.org' },
      { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false },
    ]);
    assert.deepEqual((await member.get('/realm/domains')).body.domains, []);
  });

  test('refuse administrators who are not owners, bad domains, duplicates and unknown domains', async () => {
    const admin = await server.createUser();
    await server.owner.patch(`/users/${admin.userId}`, { role: 200 });
    await server.owner.post('/realm/domains', { domain: 'taken.org', allow_subdomains: false });
    const cases: Array<[Promise<{ status: number; body: any }>, string]> = [
      [admin.post('/realm/domains', { domain: 'mine.org', allow_subdomains: false }), 'Must be an organization owner'],
      [server.owner.post('/realm/domains', { domain: 'nodot', allow_subdomains: false }), 'Invalid domain: Domain must have at least one dot (.)'],
      [server.owner.post('/realm/domains', { domain: 'a..b', allow_subdomains: false }), "Invalid domain: Consecutive '.' are not allowed."],
      [server.owner.post('/realm/domains', { domain: 'bad_char.org', allow_subdomains: false }), "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."],
      [server.owner.post('/realm/domains', { domain: 'taken.org', allow_subdomains: true }), 'The domain taken.org is already a part of your organization.'],
      [server.owner.patch('/realm/domains/unknown.org', { allow_subdomains: true }), 'No entry found for domain unknown.org.'],
      [server.owner.delete('/realm/domains/unknown.org'), 'No entry found for domain unknown.org.'],
      [admin.delete('/realm/domains/taken.org'), 'Must be an organization owner'],
    ];
    for (const [request, msg] of cases) {
      const response = await request;
      assert.deepEqual([response.status, response.body.msg], [400, msg]);
    }
    assert.deepEqual((await admin.get('/realm/domains')).body.domains, [{ domain: 'taken.org', allow_subdomains: false }]);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ZULIP_FEATURE_LEVEL, ZULIP_VERSION } from '../lib/version';
import { OWNER_EMAIL, OWNER_PASSWORD, TestServer } from './support/server';

let server: TestServer;
let devServer: TestServer;
before(async () => {
  [server, devServer] = await Promise.all([TestServer.start(), TestServer.start({ dev: true })]);
});
after(() => Promise.all([server.close(), devServer.close()]));

describe('GET /server_settings', () => {
  test('needs no credentials and tells the version, feature level and login methods', async () => {
    const response = await server.anonymous.get('/server_settings');
    assert.equal(response.status, 200);
    const settings = response.body;
    assert.equal(settings.zulip_feature_level, ZULIP_FEATURE_LEVEL);
    assert.equal(settings.zulip_version, ZULIP_VERSION);
    assert.equal(typeof settings.zulip_merge_base, 'string');
    assert.equal(settings.push_notifications_enabled, false);
    assert.equal(settings.authentication_methods.password, true);
    assert.equal(settings.authentication_methods.dev, false);
    assert.equal(settings.realm_url, server.url);
    assert.equal(settings.realm_uri, server.url);
    assert.equal(settings.realm_name, 'Stoa');
    assert.equal(settings.email_auth_enabled, true);
  });

  test('reports the development login when the server runs with --dev', async () => {
    const response = await devServer.anonymous.get('/server_settings');
    assert.equal(response.body.authentication_methods.dev, true);
  });
});

describe('POST /fetch_api_key', () => {
  test('gives the API key, email and user ID for the right password', async () => {
    const response = await server.anonymous.post('/fetch_api_key', { username: OWNER_EMAIL, password: OWNER_PASSWORD });
    assert.equal(response.status, 200);
    assert.equal(response.body.email, OWNER_EMAIL);
    assert.equal(response.body.api_key, server.owner.credentials!.apiKey);
    assert.match(response.body.api_key, /^[A-Za-z0-9]{32}$/);
    const me = await server.owner.get('/users/me');
    assert.equal(response.body.user_id, me.body.user_id);
  });

  test('answers 401 AUTHENTICATION_FAILED for a wrong password or an unknown user', async () => {
    for (const username of [OWNER_EMAIL, 'nobody@example.com']) {
      const response = await server.anonymous.post('/fetch_api_key', { username, password: 'wrong-password' });
      assert.equal(response.status, 401);
      assert.deepEqual(response.body, {
        result: 'error',
        msg: 'Your username or password is incorrect',
        code: 'AUTHENTICATION_FAILED',
      });
    }
  });

  test('answers 401 USER_DEACTIVATED for a deactivated account with the right password', async () => {
    const user = await server.createUser();
    await server.owner.delete(`/users/${user.userId}`);
    const response = await server.anonymous.post('/fetch_api_key', {
      username: user.credentials.email,
      password: 'secret-password',
    });
    assert.equal(response.status, 401);
    assert.equal(response.body.code, 'USER_DEACTIVATED');
  });

  test('requires both parameters', async () => {
    const response = await server.anonymous.post('/fetch_api_key', { username: OWNER_EMAIL });
    assert.equal(response.status, 400);
    assert.equal(response.body.code, 'REQUEST_VARIABLE_MISSING');
    assert.equal(response.body.var_name, 'password');
  });

  test('stores passwords only as a salted hash', () => {
    const row = server.stoa.db.prepare('SELECT password_hash FROM users WHERE email = ?').get(OWNER_EMAIL) as {
      password_hash: string;
    };
    assert.ok(!row.password_hash.includes(OWNER_PASSWORD));
    assert.match(row.password_hash, /^scrypt\$/);
  });
});

describe('the development login', () => {
  test('is refused with Zulip\'s error without --dev', async () => {
    const fetchKey = await server.anonymous.post('/dev_fetch_api_key', { username: OWNER_EMAIL });
    assert.deepEqual([fetchKey.status, fetchKey.body.code, fetchKey.body.msg], [400, 'BAD_REQUEST', 'DevAuthBackend not enabled.']);
    const list = await server.anonymous.get('/dev_list_users');
    assert.deepEqual([list.status, list.body.msg], [400, 'DevAuthBackend not enabled.']);
  });

  test('gives any active account’s API key with --dev', async () => {
    const response = await devServer.anonymous.post('/dev_fetch_api_key', { username: OWNER_EMAIL });
    assert.equal(response.status, 200);
    assert.equal(response.body.api_key, devServer.owner.credentials!.apiKey);
    assert.equal(response.body.email, OWNER_EMAIL);
    const unknown = await devServer.anonymous.post('/dev_fetch_api_key', { username: 'ghost@example.com' });
    assert.equal(unknown.status, 401);
  });

  test('lists administrators and other users with --dev', async () => {
    const member = await devServer.createUser();
    const response = await devServer.anonymous.get('/dev_list_users');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.direct_admins.map((u: { email: string }) => u.email), [OWNER_EMAIL]);
    assert.ok(response.body.direct_users.some((u: { email: string }) => u.email === member.credentials.email));
    assert.equal(response.body.direct_admins[0].realm_url, devServer.url);
  });
});

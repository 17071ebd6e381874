import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertValidResponse } from './support/openapi';
import { OWNER_EMAIL, OWNER_PASSWORD, TestServer } from './support/server';

// zulip-js, the official JavaScript client, ships no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const zulipInit = require('zulip-js') as (config: Record<string, string>) => Promise<any>;

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

describe('zulip-js', () => {
  test('logs in from the zuliprc the server wrote and reads its own profile', async () => {
    const client = await zulipInit({ zuliprc: path.join(server.data, 'zuliprc') });
    const me = await client.users.me.getProfile();
    assertValidResponse('GET', '/users/me', 200, me);
    assert.equal(me.result, 'success');
    assert.equal(me.email, OWNER_EMAIL);
    assert.equal(me.is_owner, true);
  });

  test('logs in with a username and password through /fetch_api_key (a multipart POST)', async () => {
    const client = await zulipInit({ username: OWNER_EMAIL, password: OWNER_PASSWORD, realm: server.url });
    assert.equal(client.config.apiKey, server.owner.credentials!.apiKey);
    const settings = await client.server.settings();
    assertValidResponse('GET', '/server_settings', 200, settings);
    assert.equal(settings.realm_url, server.url);
  });

  test('creates a user with a multipart POST and lists users with query parameters', async () => {
    const client = await zulipInit({ zuliprc: path.join(server.data, 'zuliprc') });
    const created = await client.users.create({
      email: 'js@example.com',
      password: 'js-password',
      full_name: 'From zulip-js',
    });
    assertValidResponse('POST', '/users', 200, created);
    assert.equal(created.result, 'success');
    const users = await client.users.retrieve({ client_gravatar: false });
    assertValidResponse('GET', '/users', 200, users);
    const person = users.members.find((m: { user_id: number }) => m.user_id === created.user_id);
    assert.equal(person.full_name, 'From zulip-js');
    assert.equal(typeof person.avatar_url, 'string');
  });

  test('receives Zulip-shaped errors', async () => {
    const client = await zulipInit({ zuliprc: path.join(server.data, 'zuliprc') });
    const duplicate = await client.users.create({ email: OWNER_EMAIL, password: 'js-password', full_name: 'Dup' });
    assertValidResponse('POST', '/users', 400, duplicate);
    assert.deepEqual(duplicate, { result: 'error', msg: 'Email is already in use.', code: 'BAD_REQUEST' });
    const missing = await client.callEndpoint('/users/999999', 'GET');
    assert.equal(missing.msg, 'No such user');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser } from './support/browser';
import { assertValidResponse12 } from './support/openapi';
import { TestServer } from './support/server';

/**
 * An account without a password (the demo's people, who sign in through the development
 * login) sets its first password with PATCH /settings and no old one; the browser's session
 * says whether the account has one.
 */

let server: TestServer;
before(async () => {
  // The demo's people have no passwords unless the first start is given one.
  server = await TestServer.start({ dev: true, config: { demo: true, adminPassword: undefined, gravatar: false } });
});
after(() => server.close());

describe('a first password', () => {
  test('is set without an old one, after which the old one is asked for as usual', async () => {
    const email = 'hamlet@zulip.com';
    const browser = new Browser(server.url);
    const signedIn = await browser.request('POST', '/accounts/dev_login', { direct_email: email });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.equal((await browser.request('GET', '/accounts/session')).body.has_password, false);
    // No password logs in yet.
    assert.equal((await server.anonymous.post('/fetch_api_key', { username: email, password: '' })).status, 401);

    const tooShort = await browser.request('PATCH', '/json/settings', { new_password: 'abc' });
    assert.equal(tooShort.status, 400);
    assert.equal(tooShort.body.msg, 'The password is too weak.');

    const set = await browser.request('PATCH', '/json/settings', { new_password: 'first-password' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assertValidResponse12('patch', '/settings', set.status, set.body);
    assert.equal((await browser.request('GET', '/accounts/session')).body.has_password, true, 'the session that set it stays and knows');
    const login = await server.anonymous.post('/fetch_api_key', { username: email, password: 'first-password' });
    assert.equal(login.status, 200);

    // Now that there is a password, a new one needs it.
    const missing = await browser.request('PATCH', '/json/settings', { new_password: 'second-password' });
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
    const wrong = await browser.request('PATCH', '/json/settings', { old_password: 'nope', new_password: 'second-password' });
    assert.equal(wrong.body.msg, 'Wrong password!');
    // After a restart the password is still there.
    await server.restart();
    assert.equal((await server.anonymous.post('/fetch_api_key', { username: email, password: 'first-password' })).status, 200);
  });

  test('an account with a password reports it to its session', async () => {
    const browser = new Browser(server.url);
    await browser.request('POST', '/accounts/dev_login', { direct_email: 'othello@zulip.com' });
    await browser.request('PATCH', '/json/settings', { new_password: 'othellos-password' });
    const again = new Browser(server.url);
    assert.equal((await again.login('othello@zulip.com', 'othellos-password')).status, 200);
    assert.equal((await again.request('GET', '/accounts/session')).body.has_password, true);
  });
});

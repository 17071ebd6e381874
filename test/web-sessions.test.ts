import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashToken } from '../lib/auth/credentials';
import { ConfigError, parseConfig, type Config } from '../lib/config';
import { LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURES_PER_EMAIL } from '../lib/stoa';
import { Browser } from './support/browser';
import { ManualClock, OWNER_EMAIL, OWNER_PASSWORD, TestServer } from './support/server';

let server: TestServer;
const clock = new ManualClock();

before(async () => {
  server = await TestServer.start({ dev: true, clock });
});
after(() => server.close());

function browser(): Browser {
  return new Browser(server.url);
}

async function signedIn(email = OWNER_EMAIL, password = OWNER_PASSWORD): Promise<Browser> {
  const b = browser();
  const response = await b.login(email, password);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return b;
}

/** A member with a password, for tests that change or lock their account. */
async function member(): Promise<{ email: string; userId: number }> {
  const client = await server.createUser();
  return { email: client.credentials.email, userId: client.userId };
}

describe('POST /accounts/login', () => {
  test('answers who signed in and the CSRF token, and sets both cookies with their attributes', async () => {
    const b = browser();
    const response = await b.login(OWNER_EMAIL, OWNER_PASSWORD);
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), ['csrf_token', 'email', 'msg', 'result', 'user_id']);
    assert.equal(response.body.user_id, server.ownerId);
    assert.equal(response.body.email, OWNER_EMAIL);
    const session = b.lastSetCookies.get('stoa_session')!;
    const csrf = b.lastSetCookies.get('csrftoken')!;
    assert.equal(csrf.value, response.body.csrf_token);
    assert.ok(session.attributes.has('httponly'), 'scripts cannot read the session cookie');
    assert.equal(session.attributes.get('samesite'), 'Lax');
    assert.equal(session.attributes.get('path'), '/');
    assert.ok(!csrf.attributes.has('httponly'), 'the page reads the CSRF cookie');
    assert.equal(csrf.attributes.get('samesite'), 'Strict');
    assert.equal(csrf.attributes.get('path'), '/');
    assert.ok(!session.attributes.has('secure') && !csrf.attributes.has('secure'), 'plain http: not Secure');
    assert.ok(Number(session.attributes.get('max-age')) > 0);
  });

  test('takes a JSON body as well as a form', async () => {
    const b = browser();
    const response = await b.request('POST', '/accounts/login', { username: OWNER_EMAIL, password: OWNER_PASSWORD }, { json: true });
    assert.equal(response.status, 200);
    assert.equal((await b.get('/users/me')).body.user_id, server.ownerId);
  });

  test('stores the session token only as its hash', async () => {
    const b = await signedIn();
    const token = b.cookies.get('stoa_session')!;
    const rows = server.stoa.db.prepare('SELECT token_hash FROM sessions').all() as Array<{ token_hash: string }>;
    assert.ok(rows.some((row) => row.token_hash === hashToken(token)));
    assert.ok(!rows.some((row) => row.token_hash === token));
  });

  test('refuses a wrong password and an unknown email alike, setting no cookie', async () => {
    const b = browser();
    const wrong = await b.login(OWNER_EMAIL, 'not-the-password');
    const unknown = await b.login('nobody@example.com', 'not-the-password');
    for (const response of [wrong, unknown]) {
      assert.equal(response.status, 401);
      assert.equal(response.body.code, 'AUTHENTICATION_FAILED');
      assert.equal(response.body.msg, 'Your username or password is incorrect');
      assert.equal(response.headers.get('www-authenticate'), null, 'no browser password dialog');
    }
    assert.equal(b.cookies.size, 0);
  });

  test('refuses a deactivated account and a deactivated organization with Zulip’s errors', async () => {
    const { email, userId } = await member();
    await server.owner.delete(`/users/${userId}`);
    const deactivated = await browser().login(email, 'secret-password');
    assert.equal(deactivated.status, 401);
    assert.equal(deactivated.body.code, 'USER_DEACTIVATED');
    assert.equal(deactivated.headers.get('www-authenticate'), 'Session realm="zulip"');

    // Zulip deactivates an organization with a management command; this stands in for it.
    server.stoa.realm.setDeactivated(true);
    try {
      const response = await browser().login(OWNER_EMAIL, OWNER_PASSWORD);
      assert.equal(response.status, 401);
      assert.equal(response.body.code, 'REALM_DEACTIVATED');
      assert.equal(response.body.msg, 'This organization has been deactivated');
    } finally {
      server.stoa.realm.setDeactivated(false);
    }
  });

  test('is rate-limited per email after repeated failures, with Zulip’s 429 and Retry-After', async () => {
    const { email } = await member();
    for (let i = 0; i < LOGIN_FAILURES_PER_EMAIL.max; i++) {
      assert.equal((await browser().login(email, 'wrong')).status, 401);
    }
    const limited = await browser().login(email, 'secret-password');
    assert.equal(limited.status, 429, 'even the right password waits');
    assert.equal(limited.body.code, 'RATE_LIMIT_HIT');
    assert.equal(limited.body.msg, 'API usage exceeded rate limit');
    assert.ok(Number.isInteger(limited.body['retry-after']) && limited.body['retry-after'] > 0);
    assert.equal(limited.headers.get('retry-after'), String(limited.body['retry-after']));
    // The same limit guards the API's password login.
    assert.equal((await server.anonymous.post('/fetch_api_key', { username: email, password: 'secret-password' })).status, 429);
    // Other accounts are not locked out by it.
    assert.equal((await browser().login(OWNER_EMAIL, OWNER_PASSWORD)).status, 200);

    clock.advance(LOGIN_FAILURES_PER_EMAIL.windowMs);
    assert.equal((await browser().login(email, 'secret-password')).status, 200, 'the window passed');
  });

  test('is rate-limited per client address across emails', async () => {
    clock.advance(LOGIN_FAILURES_PER_ADDRESS.windowMs);
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS.max; i++) {
      assert.equal((await browser().login(`guess${i}@example.com`, 'wrong')).status, 401);
    }
    const limited = await browser().login(OWNER_EMAIL, OWNER_PASSWORD);
    assert.equal(limited.status, 429);
    clock.advance(LOGIN_FAILURES_PER_ADDRESS.windowMs);
    assert.equal((await browser().login(OWNER_EMAIL, OWNER_PASSWORD)).status, 200);
  });
});

describe('behind a reverse proxy', () => {
  const forwardedFor = (chain: string) => ({ headers: { 'x-forwarded-for': chain } });
  const loginVia = (chain: string, email: string, password: string) =>
    browser().request('POST', '/accounts/login', { username: email, password }, forwardedFor(chain));

  test('on the same machine (trusted by default), failed logins count against the client it names', async () => {
    clock.advance(LOGIN_FAILURES_PER_ADDRESS.windowMs);
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS.max; i++) {
      // Addresses the client itself put before the proxy's entry are not believed.
      assert.equal((await loginVia(`198.51.100.${i}, 203.0.113.7`, `guess${i}@example.com`, 'wrong')).status, 401);
    }
    assert.equal((await loginVia('203.0.113.7', OWNER_EMAIL, OWNER_PASSWORD)).status, 429, 'that client waits');
    assert.equal((await loginVia('203.0.113.8', OWNER_EMAIL, OWNER_PASSWORD)).status, 200, 'another client behind the same proxy does not');
    assert.equal((await browser().login(OWNER_EMAIL, OWNER_PASSWORD)).status, 200, 'nor the proxy itself');
    clock.advance(LOGIN_FAILURES_PER_ADDRESS.windowMs);
  });

  test('--trusted-proxies takes addresses, ranges and names, or none, and refuses anything else', () => {
    assert.deepEqual((parseConfig([], {}) as Config).trustedProxies, ['loopback']);
    assert.deepEqual((parseConfig(['--trusted-proxies', '10.0.0.5, 192.168.0.0/16,uniquelocal'], {}) as Config).trustedProxies, ['10.0.0.5', '192.168.0.0/16', 'uniquelocal']);
    assert.deepEqual((parseConfig([], { STOA_TRUSTED_PROXIES: 'none' }) as Config).trustedProxies, []);
    for (const bad of ['proxy.example.org', '10.0.0.300', ',', '10.0.0.0/99']) {
      assert.throws(() => parseConfig(['--trusted-proxies', bad], {}), (err: Error) => err instanceof ConfigError && err.message.startsWith('--trusted-proxies must list'), bad);
    }
  });

  test("with --trusted-proxies none, the header is ignored: a client cannot choose its address", async () => {
    const untrusting = await TestServer.start({ clock, config: { trustedProxies: [] } });
    try {
      const login = (chain: string, email: string, password: string) =>
        new Browser(untrusting.url).request('POST', '/accounts/login', { username: email, password }, forwardedFor(chain));
      for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS.max; i++) {
        assert.equal((await login(`203.0.113.${i}`, `guess${i}@example.com`, 'wrong')).status, 401);
      }
      assert.equal((await login('203.0.113.200', OWNER_EMAIL, OWNER_PASSWORD)).status, 429);
    } finally {
      await untrusting.close();
    }
  });
});

describe('GET /accounts/session', () => {
  test('answers the signed-in user and renews the cookies, or 401 without a session', async () => {
    const b = await signedIn();
    const response = await b.request('GET', '/accounts/session');
    assert.equal(response.status, 200);
    assert.equal(response.body.user_id, server.ownerId);
    assert.equal(response.body.email, OWNER_EMAIL);
    assert.equal(response.body.csrf_token, b.csrfToken);
    assert.equal(b.lastSetCookies.get('stoa_session')?.attributes.get('httponly'), '');

    const anonymous = await browser().request('GET', '/accounts/session');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.code, 'UNAUTHORIZED');
  });
});

describe('/json', () => {
  test('serves the API’s routes with the session cookie, answering as /api/v1 does', async () => {
    const b = await signedIn();
    const me = await b.get('/users/me');
    assert.equal(me.status, 200);
    assert.equal(me.body.user_id, server.ownerId);
    assert.deepEqual(me.body, (await server.owner.get('/users/me')).body);
    const users = await b.get('/users');
    assert.equal(users.status, 200);
    assert.ok(users.body.members.length > 0);
  });

  test('registers a queue and long-polls events with the cookie', async () => {
    const b = await signedIn();
    const channel = await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'web' }] });
    assert.equal(channel.status, 200);
    const registered = await b.post('/register', { event_types: ['message'], fetch_event_types: [] });
    assert.equal(registered.status, 200);
    const { queue_id, last_event_id } = registered.body;
    const poll = b.get('/events', { queue_id, last_event_id });
    const sent = await server.owner.post('/messages', { type: 'stream', to: 'web', topic: 'hello', content: 'hi, browser' });
    const events = (await poll).body.events;
    assert.equal(events[0].type, 'message');
    assert.equal(events[0].message.id, sent.body.id);
  });

  test('answers 401 without a session, with no Basic challenge', async () => {
    const cookies: Array<Record<string, string>> = [{}, { cookie: 'stoa_session=not-a-real-token' }, { cookie: 'stoa_session=%%%; =;;' }];
    for (const headers of cookies) {
      const response = await browser().request('GET', '/json/users/me', {}, { headers });
      assert.equal(response.status, 401);
      assert.equal(response.body.code, 'UNAUTHORIZED');
      assert.equal(response.body.msg, 'Not logged in: API authentication or user session required');
      assert.equal(response.headers.get('www-authenticate'), 'Session realm="zulip"');
    }
    const poll = await browser().request('GET', '/json/events', { queue_id: 'x', last_event_id: -1 });
    assert.equal(poll.status, 401);
    assert.equal(poll.headers.get('www-authenticate'), 'Session realm="zulip"');
  });

  test('does not take HTTP Basic credentials: the browser’s paths go by the cookie', async () => {
    const { email, apiKey } = server.owner.credentials!;
    const basic = `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
    const response = await browser().request('GET', '/json/users/me', {}, { headers: { authorization: basic } });
    assert.equal(response.status, 401);
  });

  test('keeps endpoints that need no login open', async () => {
    const response = await browser().get('/server_settings');
    assert.equal(response.status, 200);
    assert.equal(typeof response.body.realm_name, 'string');
  });

  test('refuses unsafe methods without the right X-CSRFToken, and accepts them with it', async () => {
    const b = await signedIn();
    const missing = await b.post('/users/me/alert_words', { alert_words: ['csrf'] }, { csrf: false });
    assert.equal(missing.status, 403);
    assert.equal(missing.body.code, 'CSRF_FAILED');
    assert.equal(missing.body.msg, 'CSRF error: CSRF token missing.');
    const wrong = await b.post('/users/me/alert_words', { alert_words: ['csrf'] }, { csrf: 'x'.repeat(43) });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.msg, 'CSRF error: CSRF token incorrect.');
    for (const [method, path] of [['PATCH', '/json/settings'], ['DELETE', '/json/users/me/alert_words']] as const) {
      const response = await b.request(method, path, {}, { csrf: false });
      assert.equal(response.status, 403, method);
    }
    assert.deepEqual((await b.get('/users/me/alert_words')).body.alert_words, [], 'nothing was changed');

    const accepted = await b.post('/users/me/alert_words', { alert_words: ['csrf'] });
    assert.equal(accepted.status, 200);
    assert.deepEqual(accepted.body.alert_words, ['csrf']);
    const removed = await b.delete('/users/me/alert_words', { alert_words: ['csrf'] });
    assert.equal(removed.status, 200);
  });

  test('refuses a CSRF token of another session', async () => {
    const first = await signedIn();
    const second = await signedIn();
    const response = await first.post('/users/me/alert_words', { alert_words: ['x'] }, { csrf: second.csrfToken });
    assert.equal(response.status, 403);
  });
});

describe('uploads in the browser', () => {
  test('are downloaded with the session cookie, and refused without it', async () => {
    const uploaded = await server.owner.upload('/user_uploads', [{ name: 'notes.txt', bytes: 'for the browser', type: 'text/plain' }]);
    const url: string = uploaded.body.url;
    const b = await signedIn();
    const file = await b.download(url);
    assert.equal(file.status, 200);
    assert.equal(file.bytes.toString(), 'for the browser');
    // Without a session the browser is sent to log in and come back, as on Zulip.
    const stranger = await browser().download(url);
    assert.deepEqual([stranger.status, stranger.headers.get('location')], [302, `/login/?next=${url}`]);
    const stale = browser();
    stale.cookies.set('stoa_session', 'no-such-session');
    const refused = await stale.download(url);
    assert.equal(refused.status, 302);
  });
});

describe('uploading from the browser', () => {
  test('POST /json/user_uploads takes a multipart file with the cookie and the CSRF header, and refuses it without the header', async () => {
    const b = await signedIn();
    const upload = (headers: Record<string, string>) => {
      const form = new FormData();
      form.append('file', new Blob(['from the page'], { type: 'text/plain' }), 'page.txt');
      return fetch(new URL('/json/user_uploads', server.url), { method: 'POST', headers, body: form });
    };
    const cookie = [...b.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const refused = await upload({ cookie });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { code: string }).code, 'CSRF_FAILED');
    const accepted = await upload({ cookie, 'x-csrftoken': b.csrfToken! });
    assert.equal(accepted.status, 200);
    const { url } = (await accepted.json()) as { url: string };
    assert.equal((await b.download(url)).bytes.toString(), 'from the page');
  });
});

describe('sessions end', () => {
  test('on logout: the row is gone, the cookies cleared, the cookie no longer works', async () => {
    const b = await signedIn();
    const copy = b.clone();
    const before = server.stoa.sessions.countOf(server.ownerId);
    assert.equal((await b.logout()).status, 200);
    assert.equal(server.stoa.sessions.countOf(server.ownerId), before - 1);
    assert.equal(b.lastSetCookies.get('stoa_session')?.attributes.get('max-age'), '0');
    assert.equal(b.lastSetCookies.get('csrftoken')?.attributes.get('max-age'), '0');
    assert.equal(b.cookies.size, 0);
    assert.equal((await copy.get('/users/me')).status, 401, 'a copy of the old cookie is worthless');
  });

  test('logout needs the CSRF token', async () => {
    const b = await signedIn();
    const refused = await b.request('POST', '/accounts/logout', {}, { csrf: false });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'CSRF_FAILED');
    assert.equal((await b.get('/users/me')).status, 200, 'still signed in');
    assert.equal((await b.logout()).status, 200);
  });

  test('on a password change: every other session of the user, but not the one that changed it', async () => {
    const { email, userId } = await member();
    const changer = await signedIn(email, 'secret-password');
    const other = await signedIn(email, 'secret-password');
    const owner = await signedIn();
    const changed = await changer.patch('/settings', { old_password: 'secret-password', new_password: 'another-password' });
    assert.equal(changed.status, 200);
    assert.equal((await changer.get('/users/me')).status, 200);
    assert.equal((await other.get('/users/me')).status, 401);
    assert.equal((await owner.get('/users/me')).status, 200, 'other users keep theirs');
    assert.equal(server.stoa.sessions.countOf(userId), 1);
    assert.equal((await browser().login(email, 'another-password')).status, 200);
  });

  test('on a password change through the API: all of the user’s sessions', async () => {
    const user = await server.createUser();
    const b = await signedIn(user.credentials.email, 'secret-password');
    const changed = await user.patch('/settings', { old_password: 'secret-password', new_password: 'another-password' });
    assert.equal(changed.status, 200);
    assert.equal((await b.get('/users/me')).status, 401);
  });

  test('on deactivation, saying why, and stay ended after reactivation', async () => {
    const { email, userId } = await member();
    const b = await signedIn(email, 'secret-password');
    assert.equal((await server.owner.delete(`/users/${userId}`)).status, 200);
    // The open page learns why it was signed out, on any request and on its event poll.
    for (const refused of [await b.get('/users/me'), await b.get('/events', { queue_id: 'gone', last_event_id: -1 }), await b.request('GET', '/accounts/session')]) {
      assert.equal(refused.status, 401);
      assert.equal(refused.body.code, 'USER_DEACTIVATED');
      assert.equal(refused.body.msg, 'Account is deactivated');
    }
    assert.equal((await b.post('/users/me/alert_words', { alert_words: ['back'] })).body.code, 'USER_DEACTIVATED', 'nothing is done for it');
    assert.equal((await server.owner.post(`/users/${userId}/reactivate`)).status, 200);
    assert.equal(server.stoa.sessions.countOf(userId), 0, 'reactivation ends the old sessions');
    const after = await b.get('/users/me');
    assert.equal(after.status, 401);
    assert.equal(after.body.code, 'UNAUTHORIZED');
  });

  test('after two weeks unused', async () => {
    const b = await signedIn();
    clock.advance(15 * 24 * 60 * 60 * 1000);
    assert.equal((await b.get('/users/me')).status, 401);
    assert.equal((await b.request('GET', '/accounts/session')).status, 401);
  });
});

describe('sessions survive a restart', () => {
  test('the same cookie works on the restarted server', async () => {
    const b = await signedIn();
    const csrf = b.csrfToken;
    await server.restart();
    const again = new Browser(server.url);
    for (const [name, value] of b.cookies) again.cookies.set(name, value);
    assert.equal((await again.get('/users/me')).body.user_id, server.ownerId);
    assert.equal((await again.request('GET', '/accounts/session')).body.csrf_token, csrf);
    assert.equal((await again.post('/users/me/alert_words', { alert_words: ['restart'] })).status, 200);
  });
});

describe('POST /accounts/dev_login', () => {
  test('signs in as any user with --dev', async () => {
    const { userId, email } = await member();
    const b = browser();
    const response = await b.request('POST', '/accounts/dev_login', { user_id: userId });
    assert.equal(response.status, 200);
    assert.equal(response.body.user_id, userId);
    assert.equal(response.body.email, email);
    assert.equal((await b.get('/users/me')).body.user_id, userId);
    const unknown = await browser().request('POST', '/accounts/dev_login', { user_id: 999999 });
    assert.equal(unknown.status, 401);
  });

  test('does not exist without --dev', async () => {
    const plain = await TestServer.start();
    try {
      const response = await new Browser(plain.url).request('POST', '/accounts/dev_login', { user_id: plain.ownerId });
      assert.equal(response.status, 404);
    } finally {
      await plain.close();
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLongPoll } from '../lib/http/long-poll';
import { requestLogger } from '../lib/http/respond';
import { Client } from './support/client';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

/** Sends a raw request, for bodies and headers the test client would never produce. */
async function raw(path: string, init: RequestInit & { auth?: boolean } = {}) {
  const headers = new Headers(init.headers);
  if (init.auth !== false) {
    const { email, apiKey } = server.owner.credentials!;
    headers.set('authorization', `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`);
  }
  const response = await fetch(`${server.url}/api/v1${path}`, { ...init, headers });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

describe('parameters', () => {
  test('are read from a urlencoded body, a multipart body and the query string alike', async () => {
    for (const encoding of ['urlencoded', 'multipart', 'query'] as const) {
      const email = `enc-${encoding}@example.com`;
      const created = await server.owner.post('/users', { email, password: 'secret-pw', full_name: encoding }, encoding);
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const fetched = await server.owner.get(`/users/${created.body.user_id}`);
      assert.equal(fetched.body.user.full_name, encoding);
      assert.equal(fetched.body.user.delivery_email, email);
    }
  });

  test('in the body win over the same parameter in the query string', async () => {
    const response = await raw('/users?full_name=FromQuery&email=q@example.com&password=secret-pw', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ full_name: 'FromBody' }),
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const user = await server.owner.get(`/users/${response.body.user_id}`);
    assert.equal(user.body.user.full_name, 'FromBody');
  });

  test('that are not strings arrive JSON-encoded', async () => {
    const owner = await server.owner.get('/users/me');
    const withGravatar = await server.owner.get(`/users/${owner.body.user_id}`, { client_gravatar: true });
    assert.equal(withGravatar.body.user.avatar_url, null);
    const withoutGravatar = await server.owner.get(`/users/${owner.body.user_id}`, { client_gravatar: false });
    assert.match(withoutGravatar.body.user.avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\//);
  });

  test('that the endpoint does not know are listed, sorted, in ignored_parameters_unsupported', async () => {
    const response = await server.owner.get('/users', { zeta: 1, alpha: 'x', client_gravatar: false });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.ignored_parameters_unsupported, ['alpha', 'zeta']);
    const clean = await server.owner.get('/users', { client_gravatar: false });
    assert.equal('ignored_parameters_unsupported' in clean.body, false);
  });

  test('that are missing are named in REQUEST_VARIABLE_MISSING with var_name', async () => {
    const response = await server.owner.post('/users', { email: 'x@example.com', password: 'secret-pw' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, {
      result: 'error',
      msg: "Missing 'full_name' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'full_name',
    });
  });

  test('that are not valid JSON, or of the wrong type, get a clear 400', async () => {
    const notJson = await server.owner.get('/users', { client_gravatar: 'yes please' });
    assert.equal(notJson.status, 400);
    assert.deepEqual(notJson.body, { result: 'error', msg: 'client_gravatar is not valid JSON', code: 'BAD_REQUEST' });

    const wrongType = await server.owner.get('/users', { client_gravatar: 3 });
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.body.msg, 'client_gravatar is not a boolean');
  });
});

describe('responses', () => {
  test('of success carry result and msg', async () => {
    const response = await server.anonymous.get('/server_settings');
    assert.equal(response.status, 200);
    assert.equal(response.body.result, 'success');
    assert.equal(response.body.msg, '');
  });

  test('for an unknown endpoint are a 404 in the same JSON shape', async () => {
    const response = await server.owner.get('/no/such/endpoint');
    assert.equal(response.status, 404);
    assert.equal(response.body.result, 'error');
    assert.equal(response.body.code, 'BAD_REQUEST');
    assert.equal(typeof response.body.msg, 'string');
    const outsideApi = await fetch(`${server.url}/not-api`);
    assert.equal(outsideApi.status, 404);
    assert.equal(((await outsideApi.json()) as { result: string }).result, 'error');
  });

  test('for a known path with another method are a 405 listing the allowed methods', async () => {
    const response = await server.owner.delete('/server_settings');
    assert.equal(response.status, 405);
    assert.deepEqual(response.body.allowed_methods, ['GET']);
    assert.equal(response.headers.get('allow'), 'GET');
  });
});

describe('bad bodies', () => {
  test('of an unsupported content type are refused with 400', async () => {
    const response = await raw('/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'json@example.com' }),
    });
    assert.equal(response.status, 400);
    assert.equal(response.body.code, 'BAD_REQUEST');
    assert.match(response.body.msg, /Content-Type 'application\/json'/);
  });

  test('that are malformed multipart are refused with 400', async () => {
    const response = await raw('/users', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nContent-Disposition: form-data; name="email"\r\n\r\nhalf a part',
    });
    assert.equal(response.status, 400);
    assert.match(response.body.msg, /Malformed multipart body/);
  });

  test('that are too large are refused with 413, in either encoding', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const urlencoded = await raw('/users', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `full_name=${big}`,
    });
    assert.equal(urlencoded.status, 413);
    assert.equal(urlencoded.body.result, 'error');
    const form = new FormData();
    form.append('full_name', big);
    const multipart = await raw('/users', { method: 'POST', body: form });
    assert.equal(multipart.status, 413);
    assert.equal(multipart.body.result, 'error');
  });

  test('leave the server answering normally', async () => {
    const response = await server.owner.get('/users/me');
    assert.equal(response.status, 200);
  });
});

describe('authentication', () => {
  test('missing credentials get 401 UNAUTHORIZED with a Basic challenge', async () => {
    const response = await server.anonymous.get('/users/me');
    assert.equal(response.status, 401);
    assert.equal(response.body.code, 'UNAUTHORIZED');
    assert.equal(response.headers.get('www-authenticate'), 'Basic realm="zulip"');
  });

  test('a header that is not Basic credentials gets 401 UNAUTHORIZED', async () => {
    const response = await raw('/users/me', { auth: false, headers: { authorization: 'Bearer abc' } });
    assert.equal(response.status, 401);
    assert.equal(response.body.code, 'UNAUTHORIZED');
    assert.equal(response.headers.get('www-authenticate'), 'Basic realm="zulip"');
  });

  test('a wrong or malformed API key gets 401 INVALID_API_KEY', async () => {
    const { email, apiKey } = server.owner.credentials!;
    const wrongKey = apiKey.slice(0, -1) + (apiKey.endsWith('a') ? 'b' : 'a');
    for (const [credentials, msg] of [
      [{ email, apiKey: wrongKey }, 'Invalid API key'],
      [{ email: 'nobody@example.com', apiKey }, 'Invalid API key'],
      [{ email, apiKey: 'short' }, 'Malformed API key'],
    ] as const) {
      const response = await server.anonymous.as(credentials).get('/users/me');
      assert.equal(response.status, 401);
      assert.equal(response.body.code, 'INVALID_API_KEY');
      assert.equal(response.body.msg, msg);
      assert.equal(response.headers.get('www-authenticate'), 'Basic realm="zulip"');
    }
  });

  test('the email is matched without regard to case or surrounding spaces', async () => {
    const { email, apiKey } = server.owner.credentials!;
    const response = await server.anonymous.as({ email: ` ${email.toUpperCase()} `, apiKey }).get('/users/me');
    assert.equal(response.status, 200);
  });

  test('a deactivated user gets 401 USER_DEACTIVATED', async () => {
    const user = await server.createUser();
    await server.owner.delete(`/users/${user.userId}`);
    const response = await user.get('/users/me');
    assert.equal(response.status, 401);
    assert.equal(response.body.code, 'USER_DEACTIVATED');
    assert.equal(response.body.msg, 'Account is deactivated');
  });

  test('the notification bot cannot be used to log in', async () => {
    const bot = server.stoa.db.prepare('SELECT email, api_key FROM users WHERE is_system_bot = 1').get() as {
      email: string;
      api_key: string;
    };
    const response = await new Client(server.url, { email: bot.email, apiKey: bot.api_key }).get('/users/me');
    assert.equal(response.status, 401);
    assert.equal(response.body.code, 'INVALID_API_KEY');
  });
});

describe('the request log', () => {
  test('has one line per request with method, path, status and time, and no query string', async () => {
    server.logs.length = 0;
    await server.owner.get('/users/me', { secret_looking: 'hunter2' });
    const lines = server.logs.filter((line) => line.includes('/api/v1/users/me'));
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^GET \/api\/v1\/users\/me 200 \d+\.\dms$/);
    assert.ok(!server.logs.some((line) => line.includes('hunter2')));
  });

  test('sums up long polls answered instead of a line each, and logs a failed poll in full', async () => {
    const registered = await server.owner.post('/register', { event_types: ['message'] });
    assert.equal(registered.status, 200);
    server.logs.length = 0;
    for (let i = 0; i < 3; i++) {
      const polled = await server.owner.get('/events', { queue_id: registered.body.queue_id, last_event_id: -1, dont_block: true });
      assert.equal(polled.status, 200);
    }
    const failed = await server.owner.get('/events', { queue_id: 'no-such-queue', last_event_id: -1, dont_block: true });
    assert.equal(failed.body.code, 'BAD_EVENT_QUEUE_ID');
    const pollLines = server.logs.filter((line) => line.includes('/events'));
    // At most the minute's sum can fall on these polls; the failure is its own line.
    assert.ok(pollLines.filter((line) => / 200 /.test(line)).length === 0, pollLines.join('\n'));
    assert.ok(pollLines.filter((line) => /long polls? answered/.test(line)).length <= 1, pollLines.join('\n'));
    assert.equal(pollLines.filter((line) => /^GET \/api\/v1\/events 400 \d+\.\dms$/.test(line)).length, 1, pollLines.join('\n'));
  });

  test('the sum of long polls comes once a minute, counting the polls answered since the last', () => {
    let clock = 0;
    const lines: string[] = [];
    const logRequest = requestLogger((line) => lines.push(line), isLongPoll, () => clock);
    const answer = (method: string, url: string, statusCode = 200) => {
      const res = new EventEmitter() as EventEmitter & { writableFinished: boolean; statusCode: number };
      Object.assign(res, { writableFinished: true, statusCode });
      logRequest({ method, url } as IncomingMessage, res as unknown as ServerResponse);
      clock += 1000;
      res.emit('close');
    };
    for (let i = 0; i < 59; i++) answer('GET', '/api/v1/events?queue_id=q&last_event_id=3');
    answer('POST', '/api/v1/messages');
    assert.deepEqual(lines, ['POST /api/v1/messages 200 1000.0ms']);
    answer('GET', '/json/events?queue_id=q');
    assert.deepEqual(lines.slice(1), ['GET /events: 60 long polls answered in the last 61 s']);
    answer('GET', '/api/v1/events?queue_id=q');
    assert.equal(lines.length, 2);
  });
});

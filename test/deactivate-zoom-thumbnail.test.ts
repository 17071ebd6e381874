import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { runReactivateCommand } from '../lib/realm/reactivate-cli';
import type { Client } from './support/client';
import { assertValidResponse12, assertValidEvent12 } from './support/openapi';
import { TestServer } from './support/server';

/** The three routes of Zulip's URL table Stoa served last: Zoom calls, /thumbnail, and deactivating the organization. */

function refusal(response: { status: number; body: any }): [number, string, string] {
  return [response.status, response.body.code, response.body.msg];
}

/** A GET whose answer may be a file: status, type and bytes. */
async function fetchFile(server: TestServer, client: Client, path: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const { email, apiKey } = client.credentials!;
  const response = await fetch(new URL(path, server.url), {
    headers: { authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}` },
  });
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('Zoom calls and /thumbnail', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(() => server.close());

  test('POST /calls/zoom/create is refused: Stoa has no Zoom app', async () => {
    for (const params of [{}, { is_video_call: false }]) {
      const response = await server.owner.post('/calls/zoom/create', params);
      assert.deepEqual(refusal(response), [400, 'BAD_REQUEST', 'Zoom credentials have not been configured']);
    }
    assert.equal((await server.owner.post('/calls/zoom/create', { is_video_call: 'maybe' })).status, 400);
  });

  test('GET /thumbnail serves an upload the caller may read, and nothing else', async () => {
    const [author, stranger] = [await server.createUser(), await server.createUser()];
    const image = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 200, b: 90 } } }).png().toBuffer();
    const uploaded = await author.upload('/user_uploads', [{ name: 'pic.png', bytes: image, type: 'image/png' }]);
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
    const pathInUrl = (uploaded.body.url as string).replace(/^\//, '');

    for (const size of ['thumbnail', 'full']) {
      const served = await fetchFile(server, author, `/thumbnail?url=${encodeURIComponent(pathInUrl)}&size=${size}`);
      assert.deepEqual([served.status, served.type], [200, 'image/png']);
      assert.ok(served.bytes.equals(image), 'the full-size upload, as Zulip serves uploads it made no thumbnail for');
    }
    // Unlinked uploads are their author's alone.
    // Refusals are the pages /user_uploads answers, as on Zulip.
    const thumbnailOf = (url: string) => `/thumbnail?url=${encodeURIComponent(url)}&size=full`;
    const refused = await fetchFile(server, stranger, thumbnailOf(pathInUrl));
    assert.deepEqual([refused.status, refused.bytes.toString()], [403, '<p>You are not authorized to view this file.</p>']);
    const missing = await fetchFile(server, author, thumbnailOf('user_uploads/1/ab/nothing/here.png'));
    assert.deepEqual([missing.status, missing.bytes.toString()], [404, '<p>This file does not exist or has been deleted.</p>']);
    // Outside images are not fetched for anyone: an empty 403.
    const outside = await fetchFile(server, author, thumbnailOf('https://example.com/cat.png'));
    assert.deepEqual([outside.status, outside.bytes.length], [403, 0]);
    const noSize = await fetchFile(server, author, `/thumbnail?url=${encodeURIComponent(pathInUrl)}`);
    assert.deepEqual([noSize.status, JSON.parse(noSize.bytes.toString()).msg], [400, "Missing 'size' argument"]);
    // A visitor's browser is sent to log in and come back, as for /user_uploads.
    const visitor = await fetch(new URL(thumbnailOf(pathInUrl), server.url), { headers: { accept: 'text/html' }, redirect: 'manual' });
    assert.deepEqual([visitor.status, visitor.headers.get('location')], [302, `/login/?next=${encodeURIComponent(thumbnailOf(pathInUrl)).replace(/%2F/g, '/')}`]);
    // Zulip has it at the root only, as its uploads; /api/v1 has no such endpoint.
    assert.equal((await author.get('/thumbnail', { url: pathInUrl, size: 'full' })).status, 404);
  });
});

describe('POST /realm/deactivate', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(() => server.close());

  test('is for owners only, and checks the deletion delay as Zulip does', async () => {
    const member = await server.createUser();
    assert.deepEqual(refusal(await member.post('/realm/deactivate')), [400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner']);
    const tooSoon = await server.owner.post('/realm/deactivate', { deletion_delay_days: 3 });
    assert.deepEqual(refusal(tooSoon), [400, 'BAD_REQUEST', 'Data deletion time must be at least 14 days in the future.']);
    assert.equal((await member.get('/users/me')).status, 200, 'nothing happened');
  });

  test('closes the organization: keys, sessions and queues stop, and it stays closed after a restart', async () => {
    const member = await server.createUser();
    const registered = await member.post('/register', { event_types: ['realm'] });
    const queue = { queue_id: registered.body.queue_id, last_event_id: registered.body.last_event_id };
    // A plain poll (queue and last event id only) parked first: its key is proven and remembered.
    const parked = member.get('/events', queue);
    while (!server.stoa.queues.find(queue.queue_id)?.provenCredentials) await new Promise((resolve) => setTimeout(resolve, 10));

    const deactivated = await server.owner.post('/realm/deactivate', { deletion_delay_days: 30 });
    assertValidResponse12('post', '/realm/deactivate', deactivated.status, deactivated.body);
    assert.equal(deactivated.status, 200, JSON.stringify(deactivated.body));

    const expectDeactivated = (response: { status: number; body: any }, what: string) =>
      assert.deepEqual(refusal(response), [401, 'REALM_DEACTIVATED', 'This organization has been deactivated'], what);
    // A poll that was reading the queue's events would have had the event; the queue is closed now.
    await parked;
    expectDeactivated(await member.get('/events', { ...queue, dont_block: true }), 'GET /events');
    expectDeactivated(await member.get('/events', queue), 'the plain poll, its key remembered before');
    expectDeactivated(await member.get('/users/me'), 'an API key');
    expectDeactivated(await server.owner.post('/messages', { type: 'direct', to: JSON.stringify([server.ownerId]), content: 'hi' }), 'the owner too');
    expectDeactivated(await server.anonymous.post('/fetch_api_key', { username: member.credentials.email, password: 'secret-password' }), 'signing in');
    expectDeactivated(await server.anonymous.post('/accounts/login', { username: member.credentials.email, password: 'secret-password' }), 'the browser sign-in');
    assert.equal((await server.anonymous.get('/server_settings')).status, 200, 'server settings still answer');
    assert.equal((server.stoa.db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n, 0, 'every session ended');

    await server.restart();
    expectDeactivated(await server.owner.get('/users/me'), 'after a restart');
    assert.equal((server.stoa.db.prepare('SELECT deactivated FROM realm').get() as { deactivated: number }).deactivated, 1);

    // `stoa reactivate` on the stopped server's folder opens it again.
    await server.running.close();
    const log = console.log;
    console.log = () => {};
    try {
      assert.equal(runReactivateCommand(['--data', server.data], {}), 0);
    } finally {
      console.log = log;
    }
    await server.restart();
    assert.equal((await server.owner.get('/users/me')).status, 200);
    const again = server.anonymous.as(member.credentials);
    assert.equal((await again.get('/users/me')).status, 200);
  });

  test('tells clients that are polling', async () => {
    const fresh = await TestServer.start();
    try {
      const member = await fresh.createUser();
      const registered = await member.post('/register', { event_types: ['realm'] });
      const waiting = member.get('/events', { queue_id: registered.body.queue_id, last_event_id: registered.body.last_event_id });
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal((await fresh.owner.post('/realm/deactivate')).status, 200);
      const polled = await waiting;
      assert.equal(polled.status, 200, JSON.stringify(polled.body));
      const [event] = polled.body.events;
      assertValidEvent12(event);
      assert.deepEqual({ ...event, id: 0 }, { id: 0, type: 'realm', op: 'deactivated', realm_id: fresh.stoa.realm.get()!.id });
    } finally {
      await fresh.close();
    }
  });
});

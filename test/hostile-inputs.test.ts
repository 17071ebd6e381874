import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { addAlertWords } from '../lib/alert-words/actions';
import { handleRequest } from '../lib/events/send';
import { ACCOUNT_ROUTES, ACCOUNTS_PREFIX, API_PREFIX, JSON_PREFIX, ROUTES, type Route } from '../lib/http/routes';
import type { ParamSchema } from '../lib/http/validate';
import { createChannel } from './support/channels';
import type { Credentials } from './support/client';
import { seededRandom } from '../lib/seeded-random';
import { sendMessage } from './support/messages';
import { OWNER_EMAIL, OWNER_PASSWORD, TestServer } from './support/server';

/**
 * A hostile flood over every route of the route table, generated from each endpoint's
 * parameter schema, so a new route is covered without touching this file. Whatever a client
 * sends, the server must answer it as the client's mistake (or do it): never 5xx, always a
 * JSON body with a result, and errors with a string msg and code. At the end the server must
 * still answer and its database must be whole, also after a restart.
 */

/**
 * The same cases on every run: a failure found once is found again. To explore beyond them,
 * run this file alone with HOSTILE_SEED set to another number and HOSTILE_SCALE to a multiple
 * of the cases per route (say 5).
 */
const SEED = Number(process.env.HOSTILE_SEED ?? 0x5704);
const SCALE = Number(process.env.HOSTILE_SCALE ?? 1);

type Actor = 'owner' | 'member' | 'anonymous';
type Encoding = 'query' | 'urlencoded' | 'multipart';

/** One parameter as it goes on the wire: already percent-encoded for a query string or urlencoded body. */
interface WireField {
  name: string;
  value: string;
}

interface Case {
  label: string;
  actor: Actor;
  method: string;
  /** The raw request target: path and query, exactly as sent (malformed escapes and all). */
  target: string;
  body?: { contentType: string; data: Buffer };
  /** Headers beyond authentication and the body's, such as a browser's cookies. */
  headers?: Record<string, string>;
}

/** Percent-encodes text as a well-behaved client would. */
const enc = (text: string) => encodeURIComponent(text);

const KB100 = 'a'.repeat(100 * 1024);
const MB1 = 'b'.repeat(1000 * 1024);
const nested = (open: string, inner: string, close: string, depth: number) => open.repeat(depth) + inner + close.repeat(depth);

/** Values any parameter may get: broken escapes, invalid UTF-8, wrong JSON, extremes. Wire-encoded. */
const ANY_VALUE: readonly string[] = [
  '%zz',
  '%',
  '%E0%A4%A',
  '%ED%A0%80', // a lone surrogate, encoded as if it were UTF-8
  '%FF%FE%FD',
  '%C0%AF', // an overlong encoding of "/"
  '%00',
  '',
  enc('null'),
  enc('{}'),
  enc('[]'),
  enc('"x"'),
  enc('"\\ud800"'), // a lone surrogate inside a JSON string
  enc('true'),
  enc('1e308'),
  enc('-1e308'),
  enc('-0'),
  enc('NaN'),
  enc('Infinity'),
  enc('9223372036854775808'),
  enc('1'.repeat(400)),
  enc(' '),
  enc('\u202e\u0000\uffff'),
];

/** Further values by declared JSON type. */
const BY_TYPE: Record<string, readonly string[]> = {
  integer: [enc('-1'), enc('0'), enc('2147483648'), enc('-9223372036854775809'), enc('1.5'), enc('1e3'), enc('0x10'), enc('[1]')],
  number: [enc('1e400'), enc('-1e-400')],
  string: [enc(KB100), `${enc('x\u{1F600}')}%ED%A0%80y`, enc('{"a":[1,2]}'), enc('\r\n\t')],
  boolean: [enc('maybe'), enc('1'), enc('"true"')],
  array: [
    enc(nested('[', '', ']', 10_000)),
    enc(`[${'1,'.repeat(50_000)}1]`),
    enc('[null,{},[],"x",1e308,-0]'),
    enc('{"0":1,"length":1}'),
    enc('[["\\ud800"]]'),
  ],
  object: [
    enc(nested('{"a":', '1', '}', 10_000)),
    enc('{"__proto__":{"polluted":1},"constructor":{"prototype":1}}'),
    enc('[{"a":1}]'),
    enc(`{${Array.from({ length: 2000 }, (_, i) => `"k${i}":${i}`).join(',')}}`),
  ],
  null: [],
};

/** Hostile parameter names: broken escapes, invalid UTF-8, names that mean something to JavaScript objects. */
const HOSTILE_NAMES: readonly string[] = ['%zz', '%ED%A0%80', '%FF', '__proto__', 'constructor', 'hasOwnProperty', 'a%5Bb%5D', 'a%5B%5D', enc('x'.repeat(10_000))];

/** Path parameter values: broken escapes, surrogates, extremes of integers, text where IDs go. */
const PATH_VALUES: readonly string[] = [
  '%zz',
  '%ED%A0%80',
  '%',
  '%E0%A4%A',
  '%FF',
  '%00',
  '0',
  '-1',
  '-0',
  '1.5',
  '1e308',
  'NaN',
  '9223372036854775808',
  '18446744073709551616',
  '1'.repeat(500),
  'me',
  enc('ü@example.com'),
  '%2F..%2F',
];

function typesOf(schema: ParamSchema | undefined): string[] {
  if (!schema) return [];
  if (schema.type === undefined) return ['string', 'integer', 'array', 'object'];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

interface Fixtures {
  messageId: number;
  channelId: number;
  channelName: string;
  targetId: number;
  targetEmail: string;
}

/** A value each parameter could plausibly take, so the hostile one is not refused for another's sake. */
function plausible(name: string, schema: ParamSchema, f: Fixtures): string {
  const known: Record<string, unknown> = {
    content: 'hello',
    topic: 'fuzz',
    type: 'stream',
    to: f.channelId,
    message_id: f.messageId,
    user_id: f.targetId,
    stream_id: f.channelId,
    stream: f.channelName,
    emoji_name: 'smile',
    op: 'add',
    flag: 'read',
    anchor: 'newest',
    num_before: 1,
    num_after: 1,
    narrow: [],
    queue_id: 'no-such-queue',
    email: f.targetEmail,
  };
  if (name in known) {
    const value = known[name];
    return enc(typeof value === 'string' ? value : JSON.stringify(value));
  }
  const type = typesOf(schema)[0];
  const byType: Record<string, string> = { integer: '1', number: '1', string: 'x', boolean: 'true', array: '[]', object: '{}', null: 'null' };
  return enc(byType[type] ?? 'x');
}

function pathFor(route: Route, f: Fixtures, override?: { name: string; value: string }): string {
  const path = route.path.replace(/:(\w+)/g, (_all, name: string) => {
    if (override?.name === name) return override.value;
    if (name === 'message_id') return String(f.messageId);
    if (name === 'stream_id') return String(f.channelId);
    if (name === 'user_id' || name === 'user_id_or_email') return String(f.targetId);
    if (name === 'email') return enc(f.targetEmail);
    return '1';
  });
  return `${API_PREFIX}${path}`;
}

/** A multipart body from fields given wire-encoded; values go in raw, so invalid bytes stay invalid. */
function multipart(fields: readonly WireField[]): { contentType: string; data: Buffer } {
  const boundary = 'hostile-boundary-7d3';
  const parts: Buffer[] = [];
  for (const { name, value } of fields) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="`, 'latin1'));
    parts.push(rawBytes(name));
    parts.push(Buffer.from('"\r\n\r\n', 'latin1'));
    parts.push(rawBytes(value));
    parts.push(Buffer.from('\r\n', 'latin1'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return { contentType: `multipart/form-data; boundary=${boundary}`, data: Buffer.concat(parts) };
}

/** The bytes a wire-encoded value stands for, decoding escapes byte by byte and keeping broken ones as typed. */
function rawBytes(wire: string): Buffer {
  if (!wire.includes('%')) return Buffer.from(wire, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = wire.indexOf('%'); at >= 0; at = wire.indexOf('%', at + 1)) {
    const hex = wire.slice(at + 1, at + 3);
    if (!/^[0-9a-f]{2}$/i.test(hex)) continue;
    parts.push(Buffer.from(wire.slice(from, at), 'utf8'), Buffer.from([parseInt(hex, 16)]));
    from = at + 3;
    at += 2;
  }
  parts.push(Buffer.from(wire.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

/** Up to `count` of `items`, chosen by the seeded generator, in their original order. */
function sample<T>(items: readonly T[], count: number, pick: () => number): T[] {
  if (items.length <= count) return [...items];
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(Math.floor(pick() * items.length));
  return [...chosen].sort((a, b) => a - b).map((i) => items[i]);
}

function requestFor(
  label: string,
  actor: Actor,
  route: Route,
  path: string,
  fields: readonly WireField[],
  encoding: Encoding,
): Case {
  const query = fields.map(({ name, value }) => `${name}=${value}`).join('&');
  if (encoding === 'query') return { label, actor, method: route.method, target: query ? `${path}?${query}` : path };
  if (encoding === 'urlencoded') {
    return {
      label,
      actor,
      method: route.method,
      target: path,
      body: { contentType: 'application/x-www-form-urlencoded', data: Buffer.from(query, 'latin1') },
    };
  }
  return { label, actor, method: route.method, target: path, body: multipart(fields) };
}

/**
 * How many cases of each kind one route gets, drawn from all the kinds above: enough that
 * every kind reaches every route and the whole flood stays within a few seconds per hundred
 * routes on a small machine. Every value reaches every kind of parameter over the routes.
 */
const QUOTA = { pathValues: 10 * SCALE, values: 26 * SCALE, names: 3 * SCALE, bodies: 3 * SCALE };

/** The cases for one route, as one actor. */
function casesFor(route: Route, actor: Actor, f: Fixtures, pick: () => number): Case[] {
  const cases: Case[] = [];
  const properties = route.endpoint.params.properties;
  const pathParams = new Set([...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]));
  const bodyParams = Object.keys(properties).filter((name) => !pathParams.has(name));
  const base = (): WireField[] => bodyParams.map((name) => ({ name, value: plausible(name, properties[name], f) }));
  const encodings: Encoding[] = ['query', 'urlencoded', 'multipart'];
  const anyEncoding = () => encodings[Math.floor(pick() * encodings.length)];
  const name = `${route.method} ${route.path}`;

  for (const param of pathParams) {
    for (const value of sample(PATH_VALUES, QUOTA.pathValues, pick)) {
      cases.push(requestFor(`${name} path ${param}=${value}`, actor, route, pathFor(route, f, { name: param, value }), base(), anyEncoding()));
    }
  }
  const path = pathFor(route, f);
  const hostileValues = bodyParams.flatMap((param) =>
    [...ANY_VALUE, ...typesOf(properties[param]).flatMap((type) => BY_TYPE[type] ?? [])].map((value) => ({ param, value })),
  );
  for (const { param, value } of sample(hostileValues, QUOTA.values, pick)) {
    const fields = base().map((field) => (field.name === param ? { name: param, value } : field));
    cases.push(requestFor(`${name} ${param}=${value.slice(0, 40)}`, actor, route, path, fields, anyEncoding()));
  }
  // One parameter at ~1 MB, under the body limit, in the body.
  if (bodyParams.length > 0) {
    const param = bodyParams[Math.floor(pick() * bodyParams.length)];
    const fields = base().map((field) => (field.name === param ? { name: param, value: MB1 } : field));
    cases.push(requestFor(`${name} ${param}=<1 MB>`, actor, route, path, fields, pick() < 0.5 ? 'urlencoded' : 'multipart'));
  }
  // Duplicates: the same key twice in the body, in the query string, and in both.
  if (bodyParams.length > 0) {
    const param = bodyParams[Math.floor(pick() * bodyParams.length)];
    const other = { name: param, value: ANY_VALUE[Math.floor(pick() * ANY_VALUE.length)] };
    for (const encoding of encodings) cases.push(requestFor(`${name} duplicate ${param} (${encoding})`, actor, route, path, [...base(), other], encoding));
    const both = requestFor(`${name} duplicate ${param} (query and body)`, actor, route, `${path}?${param}=${other.value}`, base(), 'urlencoded');
    cases.push(both);
  }
  // Hostile parameter names, alongside plausible values.
  for (const bad of sample(HOSTILE_NAMES, QUOTA.names, pick)) {
    cases.push(requestFor(`${name} name ${bad.slice(0, 30)}`, actor, route, path, [...base(), { name: bad, value: '1' }], anyEncoding()));
  }
  // Raw bytes that are not UTF-8, in a value and in a name, straight in the query string.
  cases.push({ label: `${name} raw bytes in query`, actor, method: route.method, target: `${path}?\xff\xfe=\xc3\x28&content=\xed\xa0\x80` });
  // Bodies that are not what they claim.
  const bodies: Array<[string, string, Buffer]> = [
    ['broken urlencoded', 'application/x-www-form-urlencoded', Buffer.from('a=%zz&=&&b=%&%ED%A0%80=1&c')],
    ['urlencoded, unknown charset', 'application/x-www-form-urlencoded; charset=klingon', Buffer.from('a=1')],
    ['multipart without boundary', 'multipart/form-data', Buffer.from('--x\r\n')],
    ['truncated multipart', 'multipart/form-data; boundary=x', Buffer.from('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nval')],
    ['multipart with a file', 'multipart/form-data; boundary=x', Buffer.from('--x\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nhi\r\n--x--\r\n')],
    ['JSON body', 'application/json', Buffer.from('{"content":"x"}')],
    ['raw bytes in urlencoded', 'application/x-www-form-urlencoded', Buffer.from([0x61, 0x3d, 0xff, 0xfe, 0x26, 0xed, 0xa0, 0x80, 0x3d, 0x31])],
    ['no content type', '', Buffer.from('a=1')],
  ];
  for (const [what, contentType, data] of sample(bodies, QUOTA.bodies, pick)) {
    cases.push({ label: `${name} ${what}`, actor, method: route.method, target: path, body: { contentType, data } });
  }
  return cases;
}

let server: TestServer;
let fixtures: Fixtures;
const credentials: Partial<Record<Actor, Credentials>> = {};
const REGENERATES_OWN_KEY = /^\/(api\/v1|json)\/users\/me\/api_key\/regenerate(\?|$)/;
/**
 * Deactivating the organization answers every later request with REALM_DEACTIVATED, so the
 * flood leaves it out; test/deactivate-zoom-thumbnail.test.ts tries its inputs.
 */
const ENDS_THE_ORGANIZATION = (route: { path: string }) => route.path === '/realm/deactivate';
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

interface RawResponse {
  status: number;
  text: string;
}

function send(c: Case): Promise<RawResponse> {
  const url = new URL(server.url);
  const headers: Record<string, string | number> = { ...c.headers };
  const who = credentials[c.actor];
  if (who) headers.authorization = `Basic ${Buffer.from(`${who.email}:${who.apiKey}`).toString('base64')}`;
  if (c.body) {
    if (c.body.contentType) headers['content-type'] = c.body.contentType;
    headers['content-length'] = c.body.data.length;
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: c.method, path: c.target, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        // A caller that regenerated its own API key goes on with the new one.
        if (who && res.statusCode === 200 && REGENERATES_OWN_KEY.test(c.target)) who.apiKey = JSON.parse(text).api_key;
        resolve({ status: res.statusCode!, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(c.body?.data);
  });
}

/** What is wrong with a response, or null when it is an acceptable answer. */
function problemWith(response: RawResponse): string | null {
  if (response.status >= 500) return `status ${response.status}: ${response.text.slice(0, 200)}`;
  // Avatars and the organization's pictures answer with a redirect to the file, as on Zulip.
  if (response.status === 302) return null;
  let body: any;
  try {
    body = JSON.parse(response.text);
  } catch {
    return `status ${response.status} with a body that is not JSON: ${response.text.slice(0, 200)}`;
  }
  if (body?.result === 'success') return response.status === 200 ? null : `success with status ${response.status}`;
  if (body?.result !== 'error') return `no result in ${response.text.slice(0, 200)}`;
  if (typeof body.msg !== 'string' || typeof body.code !== 'string') return `error without string msg and code: ${response.text.slice(0, 200)}`;
  if (response.status < 400) return `error with status ${response.status}`;
  return null;
}

/** Sends cases a few at a time (as several clients would) and lists the bad answers. */
async function flood(cases: readonly Case[]): Promise<string[]> {
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      const response = await send(c);
      const problem = problemWith(response);
      if (problem) problems.push(`${c.actor}: ${c.label}: ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return problems;
}

/** What a client reads of the organization, to compare before and after a restart. */
async function snapshot(): Promise<unknown> {
  const read = (target: string) => send({ label: target, actor: 'owner', method: 'GET', target: `${API_PREFIX}${target}` });
  const parts = await Promise.all(
    ['/users', '/streams', `/messages/${fixtures.messageId}`, '/users/me/alert_words', '/realm/linkifiers', '/user_groups'].map(read),
  );
  return parts.map(({ status, text }) => {
    const body = JSON.parse(text);
    // Presence and other clocks move; what the flood may have changed is what matters.
    delete body.presence;
    return { status, body };
  });
}

before(async () => {
  server = await TestServer.start();
  const member = await server.createUser('Member');
  const target = await server.createUser('Target');
  const channel = await createChannel(server.owner, { principals: [member.userId, target.userId] });
  const messageId = await sendMessage(server.owner, { type: 'stream', to: channel.id, topic: 'fuzz', content: 'hello' });
  fixtures = { messageId, channelId: channel.id, channelName: channel.name, targetId: target.userId, targetEmail: target.credentials.email };
  credentials.owner = server.owner.credentials;
  credentials.member = member.credentials;
});

after(async () => {
  agent.destroy();
  await server?.close();
});

test('an undecodable path parameter is a bad request on every route that has one, before routing and login', async () => {
  const routes = ROUTES.filter((route) => route.path.includes(':'));
  assert.ok(routes.length > 0);
  for (const route of routes) {
    for (const bad of ['%zz', '%ED%A0%80', '%', '%E0%A4%A']) {
      const target = `${API_PREFIX}${route.path.replace(/:\w+/, bad).replace(/:\w+/g, '1')}`;
      for (const actor of ['owner', 'anonymous'] as const) {
        const response = await send({ label: target, actor, method: route.method, target });
        assert.equal(response.status, 400, `${route.method} ${target}: ${response.text}`);
        assert.deepEqual(JSON.parse(response.text), {
          result: 'error',
          msg: 'Malformed URL: the path is not valid percent-encoded UTF-8',
          code: 'BAD_REQUEST',
        });
      }
    }
  }
  for (const target of [`${API_PREFIX}/events%zz`, `${API_PREFIX}/%ED%A0%80/events`, `${API_PREFIX}/events/%`]) {
    const response = await send({ label: target, actor: 'owner', method: 'GET', target: `${target}?queue_id=x` });
    assert.equal(response.status, 400, response.text);
    assert.equal(JSON.parse(response.text).code, 'BAD_REQUEST');
  }
});

test('GET /events answers broken escapes alike on the long-poll path and through Express', async () => {
  for (const query of ['queue_id=%zz', 'queue_id=%ED%A0%80&last_event_id=%', 'queue_id=x&last_event_id=%FF', 'dont_block=%zz&queue_id=%']) {
    const target = `${API_PREFIX}/events?${query}`;
    // A plain poll takes the long-poll path; one with a body goes through Express.
    const polled = await send({ label: target, actor: 'owner', method: 'GET', target });
    const body = { contentType: 'application/x-www-form-urlencoded', data: Buffer.from('unused=1') };
    const routed = await send({ label: target, actor: 'owner', method: 'GET', target, body });
    assert.equal(polled.status, 400, polled.text);
    const { ignored_parameters_unsupported: _ignored, ...routedBody } = JSON.parse(routed.text);
    assert.deepEqual([routed.status, routedBody], [polled.status, JSON.parse(polled.text)], query);
  }
});

test('a request that fails after some of its writes leaves none of them behind', async () => {
  const { stoa } = server;
  const before = stoa.alertWords.forUser(server.ownerId);
  assert.throws(
    () =>
      handleRequest(stoa, () => {
        addAlertWords(stoa, server.ownerId, ['half-written']);
        throw new Error('a crash after the first write');
      }),
    /a crash/,
  );
  // The turn's shared transaction commits on the next turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(stoa.alertWords.forUser(server.ownerId), before);
  const response = await send({ label: 'words', actor: 'owner', method: 'GET', target: `${API_PREFIX}/users/me/alert_words` });
  assert.deepEqual(JSON.parse(response.text).alert_words, before);
});

test('every route answers hostile input as a client error, never 5xx, and the data stays whole', async () => {
  const pick = seededRandom(SEED);
  const cases: Case[] = [];
  for (const route of ROUTES.filter((r) => !ENDS_THE_ORGANIZATION(r))) {
    cases.push(...casesFor(route, 'owner', fixtures, pick));
    // Members and strangers get a sample: their answers mostly stop at access checks.
    const others = casesFor(route, pick() < 0.5 ? 'member' : 'anonymous', fixtures, pick);
    cases.push(...sample(others, 6 * SCALE, pick));
  }
  // Mixed, as many clients' requests are; slow ones (password hashing) spread out.
  const order = new Map(cases.map((c) => [c, pick()]));
  // Deactivating oneself ends a caller's run, and a new API key turns away the requests still
  // in flight with the old one; both go last.
  const last = (c: Case) => (c.method === 'DELETE' && /^\/api\/v1\/users\/me(\?|$)/.test(c.target)) || REGENERATES_OWN_KEY.test(c.target);
  cases.sort((a, b) => Number(last(a)) - Number(last(b)) || order.get(a)! - order.get(b)!);

  const problems = await flood(cases);
  // The server logs the stack of each 500; the first few say where the causes are.
  const stacks = server.logs.filter((line) => line.startsWith('error:')).slice(0, 3).map((line) => line.slice(0, 1500));
  assert.deepEqual(problems.slice(0, 30), [], `${problems.length} of ${cases.length} answers were bad\n${stacks.join('\n')}`);

  const ownUser = await send({ label: 'me', actor: 'owner', method: 'GET', target: `${API_PREFIX}/users/me` });
  assert.equal(ownUser.status, 200, ownUser.text);
  const integrity = server.stoa.db.pragma('integrity_check', { simple: true });
  assert.equal(integrity, 'ok');

  const before = await snapshot();
  await server.restart();
  assert.deepEqual(await snapshot(), before);
  assert.equal(server.stoa.db.pragma('integrity_check', { simple: true }), 'ok');
});

test('the browser’s paths answer malformed cookies and CSRF headers as client errors, never 5xx', async () => {
  // A real session, so that a CSRF header is checked against something.
  const login = await fetch(new URL(`${ACCOUNTS_PREFIX}/login`, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: OWNER_EMAIL, password: OWNER_PASSWORD }),
  });
  assert.equal(login.status, 200);
  const session = login.headers.getSetCookie().find((line) => line.startsWith('stoa_session='))!.split(';')[0];
  const cookies = [
    session,
    `${session}; ${session}x`,
    'stoa_session=',
    'stoa_session',
    `stoa_session=${'A'.repeat(6000)}`,
    'stoa_session=%ZZ%ED%A0%80; csrftoken=\u00ff',
    '=; ;;=;stoa_session==a=b',
    `stoa_session="${session.slice('stoa_session='.length)}"`,
  ];
  const csrfHeaders = ['', 'x', '\u00ff'.repeat(3), 'A'.repeat(4000), ' , '];
  const pick = seededRandom(SEED + 1);
  const cases: Case[] = [];
  const unsafe = [
    ...ROUTES.map((route) => ({ route, prefix: JSON_PREFIX })),
    ...ACCOUNT_ROUTES.map((route) => ({ route, prefix: ACCOUNTS_PREFIX })),
  ].filter(({ route }) => route.method !== 'GET');
  for (const { route, prefix } of unsafe) {
    for (const cookie of sample(cookies, 3, pick)) {
      const csrf = csrfHeaders[Math.floor(pick() * csrfHeaders.length)];
      cases.push({
        label: `${route.method} ${prefix}${route.path} cookie ${cookie.slice(0, 30)} csrf ${csrf.slice(0, 10)}`,
        actor: 'anonymous',
        method: route.method,
        target: `${prefix}${pathFor(route, fixtures).slice(API_PREFIX.length)}`,
        headers: { cookie, 'x-csrftoken': csrf },
      });
    }
  }
  const problems = await flood(cases);
  assert.deepEqual(problems.slice(0, 30), [], `${problems.length} of ${cases.length} answers were bad`);
  // The session took no harm from any of it.
  const me = await fetch(new URL(`${JSON_PREFIX}/users/me`, server.url), { headers: { cookie: session } });
  assert.equal(me.status, 200);
});

import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { TestServer } from './support/server';

// A registration is long (a large answer, much state): when many arrive together they wait
// in line and are served a few at a time between turns of the event loop, so that short
// requests arriving meanwhile are not held behind all of them (lib/http/turns.ts).

let server: TestServer;
let authorization: string;
before(async () => {
  server = await TestServer.start();
  const person = await server.createUser();
  authorization = `Basic ${Buffer.from(`${person.credentials.email}:${person.credentials.apiKey}`).toString('base64')}`;
});
after(() => server.close());

interface Answer {
  status: number;
  body: string;
}

/** One request through `agent`; `onHeaders` runs when the answer begins. */
function request(agent: http.Agent | false, method: string, path: string, body?: string, onHeaders?: () => void): Promise<Answer> {
  const url = new URL(`/api/v1${path}`, server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          Authorization: authorization,
          ...(body !== undefined ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        onHeaders?.();
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `count` connections of `agent` opened and left idle, so that later requests are read at once. */
async function openConnections(agent: http.Agent, count: number): Promise<void> {
  const answers = await Promise.all(Array.from({ length: count }, () => request(agent, 'GET', '/users/me')));
  for (const answer of answers) assert.equal(answer.status, 200, answer.body);
}

describe('registrations wait in line', () => {
  test('many arriving together are all answered, each with a queue of its own', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => request(false, 'POST', '/register', 'apply_markdown=true')));
    for (const answer of answers) assert.equal(answer.status, 200, answer.body);
    const queues = new Set(answers.map((answer) => JSON.parse(answer.body).queue_id as string));
    assert.equal(queues.size, 40);
  });

  test('a short request sent while they wait is answered before the last of them', async () => {
    const count = 80;
    const crowd = new http.Agent({ keepAlive: true, maxSockets: count });
    const other = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await openConnections(crowd, count);
      await openConnections(other, 1);
      const order: string[] = [];
      let shortAnswer: Promise<Answer> | undefined;
      // Written together on open connections: the server reads them all in one turn.
      const registrations = Array.from({ length: count }, () =>
        request(crowd, 'POST', '/register', 'apply_markdown=true', () => {
          shortAnswer ??= request(other, 'GET', '/users/me').then((answer) => (order.push('short'), answer));
        }).then((answer) => (order.push('register'), answer)),
      );
      for (const answer of await Promise.all(registrations)) assert.equal(answer.status, 200, answer.body);
      assert.equal((await shortAnswer!).status, 200);
      const registrationsAfter = order.length - 1 - order.indexOf('short');
      assert.ok(registrationsAfter >= 10, `only ${registrationsAfter} of ${count} registrations were answered after the short request`);
    } finally {
      crowd.destroy();
      other.destroy();
    }
  });

  test('one whose client gave up while it waited does not hold the others', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 30 });
    try {
      await openConnections(agent, 30);
      const abandoned = http.request(new URL('/api/v1/register', server.url), {
        method: 'POST',
        agent: false,
        headers: { Authorization: authorization, 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': 19 },
      });
      abandoned.on('error', () => {});
      const waiting = Array.from({ length: 30 }, () => request(agent, 'POST', '/register', 'apply_markdown=true'));
      abandoned.end('apply_markdown=true');
      setImmediate(() => abandoned.destroy());
      for (const answer of await Promise.all(waiting)) assert.equal(answer.status, 200, answer.body);
      // And the line keeps moving afterwards.
      assert.equal((await request(false, 'POST', '/register', 'apply_markdown=true')).status, 200);
    } finally {
      agent.destroy();
    }
  });
});

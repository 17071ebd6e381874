/**
 * The load side of the event fan-out benchmark, run in its own process (forked by
 * bench/events.ts) so that receiving 10,000 answers does not share a CPU turn with the
 * server. It registers queues, parks one long-poll on each, and reports when each round's
 * event has reached every poll, as wall-clock times comparable across processes.
 */
import http from 'node:http';
import type { FromLoadClient, ToLoadClient, Credentials } from './protocol';

const send = (message: FromLoadClient) => process.send!(message);

let base: URL;
let agent: http.Agent;

interface Queue {
  id: string;
  auth: string;
  lastEventId: number;
}

function authHeader({ email, apiKey }: Credentials): string {
  return `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
}

/** One request over the keep-alive agent; resolves with the status, the body and when it ended. */
function request(method: string, path: string, auth: string, form?: Record<string, string>) {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise<{ status: number; body: any; receivedAt: number }>((resolve, reject) => {
    const req = http.request(
      new URL(`/api/v1${path}`, base),
      {
        method,
        agent,
        headers: {
          Authorization: auth,
          ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          // The moment the whole answer is here, before parsing, is when this client holds the event.
          const receivedAt = performance.timeOrigin + performance.now();
          resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()), receivedAt });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function fail(what: string, detail: unknown): never {
  send({ type: 'error', message: `${what}: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}` });
  process.exit(1);
}

/** Runs task over items with at most `width` at a time. */
async function inParallel<T>(items: T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

async function registerQueues(users: Credentials[], count: number): Promise<Queue[]> {
  const queues: Queue[] = [];
  // Queues are spread over the users in turn; each asks only for what the benchmark triggers.
  await inParallel([...Array(count).keys()], 32, async (index) => {
    const auth = authHeader(users[index % users.length]);
    const response = await request('POST', '/register', auth, { event_types: '["realm_user"]', fetch_event_types: '[]' });
    if (response.status !== 200) fail('register', response.body);
    queues.push({ id: response.body.queue_id, auth, lastEventId: response.body.last_event_id });
  });
  return queues;
}

let parkedQueues: Queue[] = [];
let roundTimes: number[] = [];

function poll(queue: Queue): void {
  const path = `/events?queue_id=${queue.id}&last_event_id=${queue.lastEventId}`;
  request('GET', path, queue.auth).then(
    (response) => {
      if (response.status !== 200) fail('poll', response.body);
      const events = response.body.events as Array<{ id: number; type: string }>;
      if (events.some((event) => event.type === 'heartbeat')) fail('poll', 'a heartbeat came during the benchmark');
      queue.lastEventId = events.at(-1)!.id;
      roundTimes.push(response.receivedAt);
      if (roundTimes.length === parkedQueues.length) {
        send({ type: 'received', times: roundTimes });
        roundTimes = [];
      }
    },
    (err) => fail('poll', String(err)),
  );
}

/** Opens the polls a few hundred at a time, so new connections do not overflow the listen backlog. */
async function parkAll(queues: Queue[]): Promise<void> {
  for (let i = 0; i < queues.length; i += 250) {
    for (const queue of queues.slice(i, i + 250)) poll(queue);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  send({ type: 'parking' });
}

let idleQueues: Queue[] = [];

process.on('message', async (message: ToLoadClient) => {
  switch (message.type) {
    case 'setup':
      base = new URL(message.url);
      agent = new http.Agent({ keepAlive: true, maxSockets: message.maxSockets, maxFreeSockets: message.maxSockets });
      break;
    case 'register-idle':
      idleQueues = await registerQueues(message.users, message.count);
      send({ type: 'registered' });
      break;
    case 'delete-idle':
      await inParallel(idleQueues, 32, async (queue) => {
        const response = await request('DELETE', `/events?queue_id=${queue.id}`, queue.auth);
        if (response.status !== 200) fail('delete', response.body);
      });
      idleQueues = [];
      send({ type: 'deleted' });
      break;
    case 'register-and-park':
      parkedQueues = await registerQueues(message.users, message.count);
      send({ type: 'registered' });
      await parkAll(parkedQueues);
      break;
    case 'repoll':
      await parkAll(parkedQueues);
      break;
    case 'exit':
      agent.destroy();
      process.exit(0);
  }
});
send({ type: 'ready' });

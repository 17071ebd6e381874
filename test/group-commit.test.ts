import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { afterCommit, handleRequest, sendEvent, write } from '../lib/events/send';
import { GROUP_COMMIT_MAX_MS } from '../lib/stoa';
import { queueSettings } from '../lib/events/register';
import { TestServer } from './support/server';

// Requests handled in one turn of the event loop share one transaction (lib/events/send.ts).
// These tests drive the mechanism directly, where the turn is under the test's control, and
// then through HTTP with many requests at once.

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A queue for the user that takes every event, and a way to read what it holds. */
function watch(userId: number) {
  const user = server.stoa.users.byId(userId)!;
  const queue = server.stoa.queues.create(
    queueSettings(user, { event_types: null, narrow: [], client_capabilities: {}, queue_lifespan_secs: 0 } as never),
  );
  return () => queue.contents().events.map((text) => (JSON.parse(text) as { type: string }).type);
}

/** Counts the COMMITs the server's database runs from now on. */
function countCommits() {
  const { db } = server.stoa;
  const exec = db.exec.bind(db);
  let commits = 0;
  db.exec = (sql: string) => {
    if (sql === 'COMMIT') commits++;
    return exec(sql);
  };
  return { get commits() { return commits; }, stop: () => void (db.exec = exec) };
}

describe('group commit', () => {
  test('writes of requests in one turn share one commit, and answers and events wait for it', async () => {
    const first = await server.createUser('First Before');
    const second = await server.createUser('Second Before');
    const events = watch(first.userId);
    const counter = countCommits();
    const answered: string[] = [];
    // The turn is what is tested, not the time bound: a pause of the machine must not end it.
    server.stoa.groupCommitMaxMs = Infinity;
    try {
      for (const [user, name] of [[first, 'First After'], [second, 'Second After']] as const) {
        handleRequest(server.stoa, () =>
          write(server.stoa, () => {
            server.stoa.users.setFullName(user.userId, name);
            sendEvent(server.stoa, { type: 'custom_probe', name }, [first.userId]);
          }),
        );
        afterCommit(server.stoa, (failure) => answered.push(`${name}: ${failure === null ? 'committed' : 'failed'}`));
      }
      assert.ok(server.stoa.db.inTransaction, 'the transaction is still open within the turn');
      assert.deepEqual(answered, [], 'nobody is answered before the commit');
      assert.deepEqual(events(), [], 'no event is delivered before the commit');
      await nextTurn();
      assert.equal(counter.commits, 1);
      assert.ok(!server.stoa.db.inTransaction);
      assert.deepEqual(answered, ['First After: committed', 'Second After: committed']);
      assert.deepEqual(events(), ['custom_probe', 'custom_probe']);
    } finally {
      counter.stop();
      server.stoa.groupCommitMaxMs = GROUP_COMMIT_MAX_MS;
    }
    assert.equal((await first.get('/users/me')).body.full_name, 'First After');
    assert.equal((await second.get('/users/me')).body.full_name, 'Second After');
  });

  test('a request whose write fails undoes only its own writes and events', async () => {
    const kept = await server.createUser('Kept Before');
    const undone = await server.createUser('Undone Before');
    const events = watch(kept.userId);
    handleRequest(server.stoa, () =>
      write(server.stoa, () => {
        server.stoa.users.setFullName(kept.userId, 'Kept After');
        sendEvent(server.stoa, { type: 'custom_probe', name: 'kept' }, [kept.userId]);
      }),
    );
    assert.throws(() =>
      handleRequest(server.stoa, () =>
        write(server.stoa, () => {
          server.stoa.users.setFullName(undone.userId, 'Undone After');
          sendEvent(server.stoa, { type: 'custom_probe', name: 'undone' }, [kept.userId]);
          throw new Error('refused');
        }),
      ),
    );
    await nextTurn();
    assert.deepEqual(events(), ['custom_probe']);
    assert.equal(server.stoa.users.byId(kept.userId)!.full_name, 'Kept After');
    assert.equal(server.stoa.users.byId(undone.userId)!.full_name, 'Undone Before');
  });

  test('a commit that fails undoes the whole turn, tells every waiting request and delivers nothing', async () => {
    const user = await server.createUser('Before Failure');
    const events = watch(user.userId);
    const outcomes: unknown[] = [];
    handleRequest(server.stoa, () =>
      write(server.stoa, () => {
        server.stoa.users.setFullName(user.userId, 'Lost In Failure');
        sendEvent(server.stoa, { type: 'custom_probe' }, [user.userId]);
      }),
    );
    afterCommit(server.stoa, (failure) => outcomes.push(failure));
    // A foreign key checked only at COMMIT makes the commit itself fail.
    handleRequest(server.stoa, () =>
      write(server.stoa, () => {
        server.stoa.db.pragma('defer_foreign_keys = ON');
        server.stoa.db.prepare('INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, 0)').run(user.userId, 2 ** 40);
      }),
    );
    afterCommit(server.stoa, (failure) => outcomes.push(failure));
    await nextTurn();
    assert.equal(outcomes.length, 2);
    for (const failure of outcomes) assert.match(String(failure), /FOREIGN KEY constraint failed/);
    assert.deepEqual(events(), []);
    assert.ok(!server.stoa.db.inTransaction);
    assert.equal((await user.get('/users/me')).body.full_name, 'Before Failure');
  });

  test('many messages sent at once are all stored, answered and delivered, the refused ones alone refused', async () => {
    const channel = `group commit ${Date.now()}`;
    assert.equal((await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: channel }] })).status, 200);
    const registered = await server.owner.post('/register', { event_types: ['message'], fetch_event_types: [] });
    const counter = countCommits();
    let answers;
    try {
      answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 8 === 7
            ? server.owner.post('/messages', { type: 'stream', to: 'no such channel', topic: 't', content: `refused ${i}` })
            : server.owner.post('/messages', { type: 'stream', to: channel, topic: 't', content: `accepted ${i}` }),
        ),
      );
    } finally {
      counter.stop();
    }
    const accepted = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.id as number);
    assert.equal(accepted.length, 35);
    assert.equal(answers.filter((answer) => answer.status === 400).length, 5);
    assert.ok(counter.commits <= 35, `${counter.commits} commits for 35 messages`);
    const delivered = await server.owner.get('/events', { queue_id: registered.body.queue_id, last_event_id: -1, dont_block: true });
    assert.deepEqual(
      delivered.body.events.map((event: { message: { id: number } }) => event.message.id).sort((a: number, b: number) => a - b),
      [...accepted].sort((a, b) => a - b),
    );

    await server.restart();
    const stored = await server.owner.get('/messages', {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: channel }],
    });
    // The notification bot's creation notice opens the channel; the rest are ours.
    const ours = stored.body.messages.filter((message: { sender_id: number }) => message.sender_id === server.ownerId);
    assert.deepEqual(ours.map((message: { id: number }) => message.id), [...accepted].sort((a, b) => a - b));
  });
});

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { applyEvent, comparable } from './support/apply-events';
import type { Client } from './support/client';
import { assertValidEvent } from './support/openapi';
import { TestServer } from './support/server';

/** A small deterministic generator (mulberry32), so a failing seed can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] };
}

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

interface Observer {
  client: Client;
  params: Record<string, unknown>;
  state: Record<string, any>;
  queueId: string;
  lastEventId: number;
}

async function observe(client: Client, params: Record<string, unknown>): Promise<Observer> {
  const response = await client.post('/register', params);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return { client, params, state: response.body, queueId: response.body.queue_id, lastEventId: response.body.last_event_id };
}

async function drain(observer: Observer): Promise<void> {
  const response = await observer.client.get('/events', {
    queue_id: observer.queueId,
    last_event_id: observer.lastEventId,
    dont_block: true,
  });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  for (const event of response.body.events) {
    assertValidEvent(event);
    applyEvent(observer.state, event, observer.params.include_subscribers === true);
    observer.lastEventId = event.id;
  }
}

const TIMEZONES = ['', 'UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata'];
const NAMES = ['Ada', 'Grace', 'Edsger', 'Barbara', 'Alan'];
const WORDS = ['deploy', 'Outage', 'lunch', 'RELEASE'];

for (const seed of [1, 2, 3, 4, 5]) {
  test(`register state plus the queue's events equals a fresh register (seed ${seed})`, async () => {
    const rng = random(seed);
    const others: Array<Client & { userId: number }> = [];
    for (let i = 0; i < 3; i++) others.push(await server.createUser());
    const member = await server.createUser();
    // Observers are never deactivated (that would end their queues); others may be.
    const bystander = await server.createUser();
    const ownerId = (await server.owner.get('/users/me')).body.user_id as number;

    // One modern client and one that predates the user_settings object.
    const observers = [
      await observe(server.owner, { client_capabilities: { user_settings_object: true }, include_subscribers: true }),
      await observe(member, { include_subscribers: true }),
      await observe(bystander, {}),
    ];
    const actors = [server.owner as Client & { userId: number }, member, bystander, ...others];

    const channelNames: string[] = [];
    const newChannel = () => {
      const name = `seed ${seed} channel ${channelNames.length}`;
      channelNames.push(name);
      return name;
    };
    const someChannel = () => (channelNames.length > 0 ? rng.pick(channelNames) : newChannel());
    const someUserId = () => rng.pick([member.userId, ...others.map((o) => o.userId)]);

    const operations: Array<() => Promise<unknown>> = [
      () => rng.pick(actors).post('/users/me/subscriptions', { subscriptions: [{ name: newChannel() }] }),
      () =>
        server.owner.post('/users/me/subscriptions', {
          subscriptions: [{ name: newChannel() }],
          invite_only: true,
          principals: [ownerId, someUserId()],
        }),
      () => rng.pick(actors).post('/users/me/subscriptions', { subscriptions: [{ name: someChannel() }] }),
      () => server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: someChannel() }], principals: [someUserId()] }),
      () => rng.pick(actors).delete('/users/me/subscriptions', { subscriptions: [someChannel()] }),
      () => server.owner.delete('/users/me/subscriptions', { subscriptions: [someChannel()], principals: [someUserId()] }),
      async () => others.push(await server.createUser(rng.pick(NAMES))),
      () => rng.pick(actors).post('/users/me/alert_words', { alert_words: [rng.pick(WORDS), rng.pick(WORDS).toLowerCase()] }),
      () => rng.pick(actors).delete('/users/me/alert_words', { alert_words: [rng.pick(WORDS)] }),
      () => rng.pick(actors).patch('/settings', { full_name: rng.pick(NAMES) }),
      () => rng.pick(actors).patch('/settings', { timezone: rng.pick(TIMEZONES) }),
      () => rng.pick(actors).patch('/settings', { twenty_four_hour_time: rng.next() < 0.5, enable_sounds: rng.next() < 0.5 }),
      () => rng.pick(actors).patch('/settings', { default_language: rng.pick(['en', 'de', 'fr']) }),
      () => rng.pick(actors).patch('/settings', { email_address_visibility: rng.pick([1, 2, 3, 4, 5]) }),
      () => server.owner.patch(`/users/${rng.pick(others).userId}`, { role: rng.pick([200, 300, 400, 600]) }),
      () => server.owner.patch(`/users/${member.userId}`, { role: rng.pick([200, 300, 400, 600]) }),
      () => server.owner.patch(`/users/${rng.pick(others).userId}`, { full_name: rng.pick(NAMES) }),
      () => server.owner.delete(`/users/${rng.pick(others).userId}`),
      () => server.owner.post(`/users/${rng.pick(others).userId}/reactivate`),
      () => rng.pick(actors).delete('/users/me/avatar'),
    ];
    for (let step = 0; step < 60; step++) {
      await rng.pick(operations)();
      // Draining now and then (not only at the end) exercises acknowledged, pruned queues too.
      if (rng.next() < 0.2) for (const observer of observers) await drain(observer);
    }

    for (const observer of observers) {
      await drain(observer);
      const fresh = await observer.client.post('/register', observer.params);
      assert.deepEqual(comparable(observer.state), comparable(fresh.body));
    }
    // Every account that changed role or activity must still be reachable by the owner.
    assert.equal((await server.owner.get(`/users/${ownerId}`)).status, 200);
  });
}

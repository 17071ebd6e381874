import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { applyEvent, comparable, differences } from './support/apply-events';
import type { Client } from './support/client';
import { assertValidEvent } from './support/openapi';
import { backgroundSettled } from '../lib/push/background';
import { TestRelay } from './support/relay';
import { ManualClock, TestServer } from './support/server';

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
let relay: TestRelay;
before(async () => {
  relay = await TestRelay.start();
  // A relay that refuses registrations sealed with a stale key, so some devices fail.
  relay.answer = (request) =>
    request.body.bouncer_public_key === 'stale'
      ? { status: 400, body: { result: 'error', code: 'INVALID_BOUNCER_PUBLIC_KEY', msg: 'Invalid bouncer_public_key' } }
      : TestRelay.success();
  // Time stands still: presence changes that only polling reveals (a report a minute after
  // the last) cannot happen, so every presence change comes with an event.
  server = await TestServer.start({ clock: new ManualClock(), pushRelay: relay.url });
});
after(async () => {
  await server.close();
  await relay.close();
});

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
  // Device registrations finish after their request; their events must be queued first.
  await backgroundSettled(server.stoa);
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

for (const seed of [1, 2, 3, 4, 5, 6]) {
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
      await observe(server.owner, {
        client_capabilities: {
          user_settings_object: true,
          archived_channels: true,
          include_deactivated_groups: true,
          simplified_presence_events: true,
          linkifier_url_template: true,
        },
        include_subscribers: true,
        slim_presence: true,
      }),
      await observe(member, { client_capabilities: { archived_channels: true }, include_subscribers: true }),
      await observe(bystander, { client_capabilities: { archived_channels: true } }),
    ];
    const actors = [server.owner as Client & { userId: number }, member, bystander, ...others];
    // Never deactivated: a reactivated user's presence and status come back without an event.
    const steadyActors = actors.slice(0, 3);

    let botCount = 0;
    const channelNames: string[] = [];
    const newChannel = () => {
      const name = `seed ${seed} channel ${channelNames.length}`;
      channelNames.push(name);
      return name;
    };
    const someChannel = () => (channelNames.length > 0 ? rng.pick(channelNames) : newChannel());
    const someUserId = () => rng.pick([member.userId, ...others.map((o) => o.userId)]);
    const moderators = server.stoa.groups.byName('role:moderators')!.id;
    const nobody = server.stoa.groups.byName('role:nobody')!.id;
    const groupIds: number[] = [];
    const someGroup = () => (groupIds.length > 0 ? rng.pick(groupIds) : moderators);
    const someUserIds = () => [...new Set([someUserId(), someUserId()])].slice(0, 1 + Math.floor(rng.next() * 2));

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
      async () => {
        const id = (await server.owner.get('/get_stream_id', { stream: someChannel() })).body.stream_id;
        if (id === undefined) return;
        const changes = [
          { description: rng.pick(NAMES) },
          { is_private: rng.next() < 0.5 },
          { is_default_stream: rng.next() < 0.3 },
          { can_administer_channel_group: { new: { direct_members: [someUserId()], direct_subgroups: [] } } },
          { can_add_subscribers_group: { new: rng.pick([moderators, nobody]) } },
        ];
        return server.owner.patch(`/streams/${id}`, rng.pick(changes));
      },
      async () => {
        const id = (await server.owner.get('/get_stream_id', { stream: someChannel() })).body.stream_id;
        if (id !== undefined) return server.owner.delete(`/streams/${id}`);
      },
      async () => {
        const archived = (await server.owner.get('/streams', { exclude_archived: false, include_all: true })).body.streams.filter(
          (s: { is_archived: boolean }) => s.is_archived,
        );
        if (archived.length > 0) return server.owner.patch(`/streams/${rng.pick(archived as Array<{ stream_id: number }>).stream_id}`, { is_archived: false });
      },
      async () => {
        const id = (await server.owner.get('/get_stream_id', { stream: someChannel() })).body.stream_id;
        if (id !== undefined) return server.owner[rng.pick(['post', 'delete'] as const)]('/default_streams', { stream_id: id });
      },
      async () => {
        const id = (await server.owner.get('/get_stream_id', { stream: someChannel() })).body.stream_id;
        if (id !== undefined) return server.owner.post(`/streams/${id}/delete_topic`, { topic_name: rng.pick(['lunch', 'deploys']) });
      },
      () => rng.pick(actors).patch('/users/me/subscriptions', { add: [{ name: someChannel() }], delete: [someChannel()] }),
      () => {
        const changes = [{ emojiset: rng.pick(['text', 'google']) }, { enter_sends: rng.next() < 0.5 }, { web_font_size_px: rng.pick([14, 16]) }];
        return server.owner.patch('/realm/user_settings_defaults', rng.pick(changes));
      },
      async () => {
        const actor = rng.pick(actors);
        const id = (await actor.get('/get_stream_id', { stream: someChannel() })).body.stream_id;
        if (id === undefined) return;
        return actor.post('/user_topics', { stream_id: id, topic: rng.pick(['lunch', 'Lunch', 'deploys']), visibility_policy: rng.pick([0, 1, 2, 3]) });
      },
      () => {
        const actor = rng.pick(actors);
        return actor[rng.pick(['post', 'delete'] as const)](`/users/me/muted_users/${someUserId()}`);
      },
      async () => {
        const actor = rng.pick(actors);
        const subs = (await actor.get('/users/me/subscriptions')).body.subscriptions ?? [];
        if (subs.length === 0) return;
        const property = rng.pick(['is_muted', 'pin_to_top', 'in_home_view', 'audible_notifications']);
        return actor.post('/users/me/subscriptions/properties', {
          subscription_data: [{ stream_id: rng.pick(subs as Array<{ stream_id: number }>).stream_id, property, value: rng.next() < 0.5 }],
        });
      },
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
      () =>
        rng.pick(actors).post('/messages', {
          type: 'stream',
          to: someChannel(),
          topic: rng.pick(['lunch', 'deploys']),
          content: rng.pick(WORDS),
          read_by_sender: rng.next() < 0.5,
        }),
      () => {
        const sender = rng.pick(actors);
        const to = [...new Set([someUserId(), ...(rng.next() < 0.5 ? [someUserId()] : [])])];
        return sender.post('/messages', { type: 'direct', to: JSON.stringify(to), content: rng.pick(WORDS) });
      },
      async () => {
        const actor = rng.pick(actors);
        const recent = (await actor.get('/messages', { anchor: 'newest', num_before: 8, num_after: 0 })).body.messages ?? [];
        if (recent.length === 0) return;
        const ids = recent.filter(() => rng.next() < 0.5).map((m: { id: number }) => m.id);
        return actor.post('/messages/flags', {
          messages: JSON.stringify(ids),
          op: rng.pick(['add', 'remove']),
          flag: rng.pick(['read', 'starred']),
        });
      },
      // Any message at all: reactions to messages the actor cannot read are refused, and
      // reacting from a channel's history gives the reactor a historical copy, as starring does.
      ...[1, 2, 3].map(() => async () => {
        const reactions = server.stoa.db
          .prepare('SELECT message_id, user_id, emoji_code, reaction_type FROM reactions')
          .all() as Array<{ message_id: number; user_id: number; emoji_code: string; reaction_type: string }>;
        const removable = reactions.filter((r) => actors.some((actor) => actor.userId === r.user_id));
        if (removable.length > 0 && rng.next() < 0.4) {
          const { message_id, user_id, emoji_code, reaction_type } = rng.pick(removable);
          const reactor = actors.find((actor) => actor.userId === user_id)!;
          return reactor.delete(`/messages/${message_id}/reactions`, { emoji_code, reaction_type });
        }
        const newest = server.stoa.messages.maxId();
        if (newest === null) return;
        const emoji = rng.pick([
          { emoji_name: 'octopus' },
          { emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'unicode_emoji' },
          { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' },
        ]);
        return rng.pick(actors).post(`/messages/${1 + Math.floor(rng.next() * newest)}/reactions`, emoji);
      }),
      () => rng.pick(actors).post('/mark_all_as_read'),
      async () => {
        const actor = rng.pick(actors);
        const recent = (await actor.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0 })).body.messages ?? [];
        if (recent.length === 0) return;
        const target = rng.pick(recent as Array<{ id: number; type: string }>);
        const choice = rng.next();
        if (choice < 0.3) return actor.patch(`/messages/${target.id}`, { content: rng.pick(WORDS) });
        if (choice < 0.6 && target.type === 'stream') {
          return actor.patch(`/messages/${target.id}`, {
            topic: rng.pick(['lunch', 'deploys', 'moved']),
            propagate_mode: rng.pick(['change_one', 'change_later', 'change_all']),
          });
        }
        if (choice < 0.8 && target.type === 'stream') {
          const id = (await actor.get('/get_stream_id', { stream: someChannel() })).body.stream_id;
          if (id !== undefined) return actor.patch(`/messages/${target.id}`, { stream_id: id, propagate_mode: 'change_all' });
        }
        return actor.delete(`/messages/${target.id}`);
      },
      () => rng.pick(steadyActors).post('/users/me/presence', { status: rng.pick(['active', 'idle']) }),
      () => rng.pick(steadyActors).patch('/settings', { presence_enabled: rng.next() < 0.5 }),
      () => {
        const change: Record<string, unknown> = {};
        if (rng.next() < 0.5) change.status_text = rng.pick(['', 'lunch', 'in a meeting']);
        if (rng.next() < 0.4) Object.assign(change, rng.pick([{ emoji_name: '' }, { emoji_name: 'car', emoji_code: '1f697' }, { emoji_name: 'zulip', reaction_type: 'service_extra_emoji' }]));
        if (rng.next() < 0.3 || Object.keys(change).length === 0) change.away = rng.next() < 0.5;
        return rng.pick(steadyActors).post('/users/me/status', change);
      },
      async () => {
        const id = (await server.owner.get('/get_stream_id', { stream: someChannel() })).body.stream_id;
        const drafts = [
          { type: 'private', to: [someUserId()], topic: '', content: rng.pick(WORDS) },
          { type: '', to: [], topic: '', content: rng.pick(NAMES) },
          ...(id === undefined ? [] : [{ type: 'stream', to: [id], topic: rng.pick(WORDS), content: rng.pick(NAMES) }]),
        ];
        return rng.pick(actors).post('/drafts', { drafts: drafts.slice(0, 1 + Math.floor(rng.next() * drafts.length)) });
      },
      async () => {
        const actor = rng.pick(actors);
        const drafts = (await actor.get('/drafts')).body.drafts ?? [];
        if (drafts.length === 0) return;
        const { id } = rng.pick(drafts as Array<{ id: number }>);
        if (rng.next() < 0.5) return actor.delete(`/drafts/${id}`);
        return actor.patch(`/drafts/${id}`, { draft: { type: 'private', to: [someUserId()], topic: '', content: rng.pick(WORDS) } });
      },
      () => rng.pick(actors).patch('/settings', { enable_drafts_synchronization: rng.next() < 0.7 }),
      () => rng.pick(actors).post('/saved_snippets', { title: rng.pick(NAMES), content: rng.pick(WORDS) }),
      async () => {
        const actor = rng.pick(actors);
        const snippets = (await actor.get('/saved_snippets')).body.saved_snippets ?? [];
        if (snippets.length === 0) return;
        const { id } = rng.pick(snippets as Array<{ id: number }>);
        if (rng.next() < 0.4) return actor.delete(`/saved_snippets/${id}`);
        return actor.patch(`/saved_snippets/${id}`, rng.pick([{ title: rng.pick(NAMES) }, { content: rng.pick(WORDS) }]));
      },
      () => server.owner.post('/realm/filters', { pattern: `${rng.pick(WORDS)}-(?P<id>[0-9]+)`, url_template: `https://${seed}.example/{id}` }),
      async () => {
        const ids = (await server.owner.get('/realm/linkifiers')).body.linkifiers.map((l: { id: number }) => l.id) as number[];
        if (ids.length === 0) return;
        const choice = rng.next();
        if (choice < 0.3) return server.owner.delete(`/realm/filters/${rng.pick(ids)}`);
        if (choice < 0.6) return server.owner.patch('/realm/linkifiers', { ordered_linkifier_ids: [...ids].reverse() });
        return server.owner.patch(`/realm/filters/${rng.pick(ids)}`, { pattern: `${rng.pick(NAMES)}#(?P<n>\\d+)`, url_template: 'https://n.example/{n}' });
      },
      () =>
        server.owner.post('/realm/playgrounds', {
          name: rng.pick(NAMES),
          highlighter_language: rng.pick(['Python', 'Rust', 'c++']),
          url_template: `https://${seed}.example/run{?code}`,
        }),
      async () => {
        // Logged-in devices come and go, and register for push (some with a stale key, which fails).
        const actor = rng.pick(actors);
        const devices = Object.keys((await actor.post('/register', { fetch_event_types: ['device'] })).body.devices ?? {});
        const choice = rng.next();
        if (devices.length === 0 || choice < 0.3) return actor.post('/register_client_device');
        const device_id = Number(rng.pick(devices));
        if (choice < 0.4) return actor.post('/remove_client_device', { device_id });
        const keyId = rng.pick([1, 2, 3]);
        return actor.post('/mobile_push/register', {
          device_id,
          push_key: Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, keyId)]).toString('base64'),
          push_key_id: keyId,
          token_kind: rng.pick(['fcm', 'apns']),
          token_id: Buffer.from(rng.pick(WORDS).padEnd(8, '.')).toString('base64'),
          bouncer_public_key: rng.pick(['current', 'stale']),
          encrypted_push_registration: rng.pick(WORDS),
        });
      },
      async () => {
        const playgrounds = (await server.owner.post('/register', { fetch_event_types: ['realm_playgrounds'] })).body.realm_playgrounds;
        if (playgrounds.length > 0) return server.owner.delete(`/realm/playgrounds/${rng.pick(playgrounds as Array<{ id: number }>).id}`);
      },
      () =>
        server.owner.post('/realm/profile_fields', {
          name: `${rng.pick(NAMES)} ${Math.floor(rng.next() * 1000)}`,
          ...rng.pick([
            { field_type: 1 },
            { field_type: 2 },
            { field_type: 3, field_data: { a: { text: 'A', order: '1' }, b: { text: 'B', order: '2' } } },
            { field_type: 6 },
          ]),
        }),
      async () => {
        const fields = (await server.owner.get('/realm/profile_fields')).body.custom_fields as Array<{ id: number; type: number }>;
        if (fields.length === 0) return;
        const field = rng.pick(fields);
        const choice = rng.next();
        if (choice < 0.15) return server.owner.delete(`/realm/profile_fields/${field.id}`);
        if (choice < 0.3) return server.owner.patch('/realm/profile_fields', { order: fields.map((f) => f.id).reverse() });
        if (choice < 0.4 && field.type === 3) {
          return server.owner.patch(`/realm/profile_fields/${field.id}`, { field_data: { [rng.pick(['a', 'b'])]: { text: 'Kept', order: '1' } } });
        }
        const value = field.type === 3 ? rng.pick(['a', 'b']) : field.type === 6 ? [someUserId()] : rng.pick(WORDS);
        const actor = rng.pick(steadyActors);
        if (rng.next() < 0.2) return actor.delete('/users/me/profile_data', { data: [field.id] });
        if (rng.next() < 0.3) return server.owner.patch(`/users/${someUserId()}`, { profile_data: [{ id: field.id, value }] });
        return actor.patch('/users/me/profile_data', { data: [{ id: field.id, value }] });
      },
      () => {
        botCount += 1;
        return rng.pick(steadyActors).post('/bots', { full_name: `${rng.pick(NAMES)} bot ${seed}.${botCount}`, short_name: `s${seed}b${botCount}`, bot_type: rng.pick([1, 2]) });
      },
      async () => {
        const actor = rng.pick(steadyActors);
        const bots = (await actor.post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots as Array<{ user_id: number }>;
        if (bots.length === 0) return;
        const { user_id: botId } = rng.pick(bots);
        const choice = rng.next();
        if (choice < 0.15) return actor.delete(`/bots/${botId}`);
        if (choice < 0.25) return server.owner.post(`/users/${botId}/reactivate`);
        if (choice < 0.35) return actor.post(`/bots/${botId}/api_key/regenerate`);
        if (choice < 0.6) return actor.patch(`/bots/${botId}`, { bot_owner_id: rng.pick([...steadyActors.map((a) => a.userId), someUserId()]) });
        return actor.patch(`/bots/${botId}`, rng.pick([{ full_name: `${rng.pick(NAMES)} renamed ${botId}` }, { default_all_public_streams: rng.next() < 0.5 }]));
      },
      // Scheduled an hour or more ahead: time stands still here, so none is sent.
      async () => {
        const id = (await server.owner.get('/get_stream_id', { stream: someChannel() })).body.stream_id;
        const due = Math.floor(server.stoa.clock.now() / 1000) + 3600 + Math.floor(rng.next() * 600);
        const messages = [
          { type: 'direct', to: someUserIds(), content: rng.pick(WORDS), scheduled_delivery_timestamp: due },
          ...(id === undefined ? [] : [{ type: 'stream', to: id, topic: rng.pick(WORDS), content: rng.pick(NAMES), scheduled_delivery_timestamp: due }]),
        ];
        return rng.pick(actors).post('/scheduled_messages', rng.pick(messages));
      },
      async () => {
        const actor = rng.pick(actors);
        const scheduled = (await actor.get('/scheduled_messages')).body.scheduled_messages ?? [];
        if (scheduled.length === 0) return;
        const { scheduled_message_id: id } = rng.pick(scheduled as Array<{ scheduled_message_id: number }>);
        if (rng.next() < 0.4) return actor.delete(`/scheduled_messages/${id}`);
        const due = Math.floor(server.stoa.clock.now() / 1000) + 3600 + Math.floor(rng.next() * 600);
        return actor.patch(`/scheduled_messages/${id}`, rng.pick([{ content: rng.pick(WORDS) }, { scheduled_delivery_timestamp: due }, { type: 'direct', to: someUserIds() }]));
      },
    ];
    // Organization settings change what register derives from them, so they get their own share.
    const realmOperations: Array<() => Promise<unknown>> = [
      () => {
        const changes = [
          { allow_message_editing: rng.next() < 0.5 },
          { message_content_edit_limit_seconds: rng.pick([600, 3600, 'unlimited']) },
          { message_edit_history_visibility_policy: rng.pick(['all', 'moves', 'none']) },
          { topics_policy: rng.pick(['allow_empty_topic', 'disable_empty_topic']) },
          { jitsi_server_url: rng.pick(['default', 'https://jitsi.example.org']) },
          { name: rng.pick(NAMES), description: rng.pick(WORDS) },
          { waiting_period_threshold: rng.pick([0, 3]), enable_spectator_access: rng.next() < 0.5 },
          { video_chat_provider: rng.pick([0, 1]), gif_rating_policy: rng.pick([1, 2]) },
        ];
        return server.owner.patch('/realm', rng.pick(changes));
      },
      async () => {
        const id = channelNames.length > 0 ? (await server.owner.get('/get_stream_id', { stream: someChannel() })).body.stream_id : -1;
        return server.owner.patch('/realm', { [rng.pick(['new_stream_announcements_stream_id', 'signup_announcements_stream_id'])]: rng.next() < 0.3 ? -1 : id });
      },
      () => {
        const group = (name: string) => server.stoa.groups.byName(name)!.id;
        const changes = [
          { can_create_public_channel_group: { new: rng.pick([group('role:members'), group('role:moderators'), group('role:fullmembers')]) } },
          { can_create_private_channel_group: { new: { direct_members: [ownerId, someUserId()], direct_subgroups: [group('role:members')] } } },
          { can_create_web_public_channel_group: { new: rng.pick([group('role:owners'), group('role:administrators'), nobody]) } },
          { can_mention_many_users_group: { new: rng.pick([nobody, moderators, { direct_members: [someUserId()], direct_subgroups: [] }]) } },
          { can_add_subscribers_group: { new: rng.pick([group('role:members'), { direct_members: someUserIds(), direct_subgroups: [moderators] }]) } },
        ];
        return server.owner.patch('/realm', rng.pick(changes));
      },
    ];
    // User groups touch groups, channels and users alike, so they get a larger share of the steps.
    const groupOperations: Array<() => Promise<unknown>> = [
      async () => {
        const created = await rng.pick(actors).post('/user_groups/create', {
          name: `seed ${seed} group ${groupIds.length}`,
          description: '',
          members: someUserIds(),
          subgroups: groupIds.length > 0 && rng.next() < 0.3 ? [someGroup()] : [],
          ...(rng.next() < 0.5 ? { can_join_group: rng.pick([moderators, server.stoa.groups.byName('role:members')!.id]) } : {}),
        });
        if (created.status === 200) groupIds.push(created.body.group_id);
      },
      () => {
        const changes = [
          { name: `seed ${seed} renamed ${rng.pick(NAMES)} ${Math.floor(rng.next() * 1000)}` },
          { description: rng.pick(NAMES) },
          { can_manage_group: { new: { direct_members: [someUserId()], direct_subgroups: [] } } },
          { can_leave_group: { new: rng.pick([nobody, moderators]) } },
          { deactivated: false },
        ];
        return server.owner.patch(`/user_groups/${someGroup()}`, rng.pick(changes));
      },
      () => server.owner.post(`/user_groups/${someGroup()}/members`, { [rng.pick(['add', 'delete'])]: someUserIds() }),
      async () => {
        const actor = rng.pick(actors);
        return actor.post(`/user_groups/${someGroup()}/members`, { [rng.pick(['add', 'delete'])]: [actor.userId] });
      },
      () => server.owner.post(`/user_groups/${someGroup()}/subgroups`, { [rng.pick(['add', 'delete'])]: [someGroup()] }),
      () => server.owner.post(`/user_groups/${someGroup()}/deactivate`),
      async () => {
        const id = (await server.owner.get('/get_stream_id', { stream: someChannel() })).body.stream_id;
        if (id !== undefined) return server.owner.patch(`/streams/${id}`, { can_subscribe_group: { new: someGroup() } });
      },
    ];
    for (let step = 0; step < 60; step++) {
      // The first few group steps make groups, so that the others have some to work on.
      const groupStep = groupIds.length < 3 ? groupOperations[0] : rng.pick(groupOperations);
      const choice = rng.next();
      await (choice < 0.3 ? groupStep : choice < 0.4 ? rng.pick(realmOperations) : rng.pick(operations))();
      // Draining now and then (not only at the end) exercises acknowledged, pruned queues too.
      if (rng.next() < 0.2) for (const observer of observers) await drain(observer);
    }

    for (const observer of observers) {
      await drain(observer);
      const fresh = await observer.client.post('/register', observer.params);
      const [kept, expected] = [comparable(observer.state), comparable(fresh.body, observer.state)];
      assert.deepEqual(kept, expected, differences(kept, expected).join('\n'));
    }
    // Every account that changed role or activity must still be reachable by the owner.
    assert.equal((await server.owner.get(`/users/${ownerId}`)).status, 200);
  });
}

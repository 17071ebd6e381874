import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backgroundSettled } from '../lib/push/background';
import { refusingUrl, TestRelay } from './support/relay';
import { ManualClock, TestServer } from './support/server';

const APNS_TOKEN = 'c0ffee00c0ffee00c0ffee00c0ffee00';

describe('push notification devices without a relay', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(() => server.close());

  test('push notifications are reported off', async () => {
    assert.equal((await server.anonymous.get('/server_settings')).body.push_notifications_enabled, false);
    const state = await server.owner.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(state.body.realm_push_notifications_enabled, false);
  });

  test('tokens are registered and removed, and survive a restart', async () => {
    const user = await server.createUser();
    assert.equal((await user.post('/users/me/apns_device_token', { token: APNS_TOKEN, appid: 'org.zulip.Zulip' })).status, 200);
    assert.equal((await user.post('/users/me/android_gcm_reg_id', { token: 'android-token' })).status, 200);
    await server.restart();
    const again = server.anonymous.as(user.credentials);
    assert.equal((await again.delete('/users/me/android_gcm_reg_id', { token: 'android-token' })).status, 200);
    const gone = await again.delete('/users/me/android_gcm_reg_id', { token: 'android-token' });
    assert.deepEqual([gone.status, gone.body.code, gone.body.msg], [400, 'BAD_REQUEST', 'Token does not exist']);
    assert.equal((await again.delete('/users/me/platform_device_token', { token: APNS_TOKEN })).status, 200);
    const twice = await again.delete('/users/me/platform_device_token', { token: APNS_TOKEN });
    assert.equal(twice.body.msg, 'Token does not exist');
  });

  test('bad tokens are refused in Zulip words', async () => {
    const user = await server.createUser();
    for (const [path, params] of [
      ['/users/me/android_gcm_reg_id', { token: '' }],
      ['/users/me/android_gcm_reg_id', { token: 'x'.repeat(4097) }],
      ['/users/me/apns_device_token', { token: '', appid: 'org.zulip.Zulip' }],
    ] as const) {
      const response = await user.post(path, params);
      assert.deepEqual([response.status, response.body.msg], [400, 'Empty or invalid length token'], path);
    }
    const empty = await user.delete('/users/me/platform_device_token', { token: '' });
    assert.deepEqual([empty.status, empty.body.code, empty.body.msg], [400, 'BAD_REQUEST', 'Empty or invalid length token']);
    const apns = await user.post('/users/me/apns_device_token', { token: 'abcde', appid: 'org.zulip.Zulip' });
    assert.deepEqual([apns.status, apns.body.msg], [400, 'Invalid APNS token']);
    const noAppId = await user.post('/users/me/apns_device_token', { token: APNS_TOKEN });
    assert.equal(noAppId.body.msg, "Missing 'appid' argument");
    const other = await user.delete('/users/me/apns_device_token', { token: APNS_TOKEN });
    assert.equal(other.body.msg, 'Token does not exist', "another kind's token is not this kind's");
  });

  test('test notifications answer what is missing', async () => {
    const user = await server.createUser();
    const unknown = await user.post('/mobile_push/test_notification', { token: 'nope' });
    assert.deepEqual([unknown.status, unknown.body.code, unknown.body.msg], [400, 'INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized']);
    const off = await user.post('/mobile_push/test_notification');
    assert.deepEqual([off.status, off.body.code], [400, 'PUSH_SERVICE_NOT_CONFIGURED']);
    const e2ee = await user.post('/mobile_push/e2ee/test_notification');
    assert.deepEqual([e2ee.status, e2ee.body.code, e2ee.body.msg], [400, 'NO_ACTIVE_PUSH_DEVICE', 'No active registered push device']);
    // Registration by device is refused the same way; test/push-devices-12.test.ts covers it.
  });
});

describe('push notification devices with a relay', () => {
  let relay: TestRelay;
  let server: TestServer;
  before(async () => {
    relay = await TestRelay.start();
    server = await TestServer.start({ pushRelay: relay.url });
  });
  after(async () => {
    await server.close();
    await relay.close();
  });

  test('push notifications are reported on', async () => {
    assert.equal((await server.anonymous.get('/server_settings')).body.push_notifications_enabled, true);
    const state = await server.owner.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(state.body.realm_push_notifications_enabled, true);
  });

  test('tokens are registered with the relay, under the server credentials', async () => {
    const user = await server.createUser();
    assert.equal((await user.post('/users/me/apns_device_token', { token: APNS_TOKEN, appid: 'org.zulip.Zulip' })).status, 200);
    const [registered] = relay.to('push/register').slice(-1);
    assert.equal(registered.authorization, `Basic ${Buffer.from('stoa-id:stoa-key').toString('base64')}`);
    assert.deepEqual(registered.body, {
      realm_url: server.url,
      user_id: user.userId,
      token: APNS_TOKEN,
      token_kind: 1,
      ios_app_id: 'org.zulip.Zulip',
    });
    assert.equal((await user.delete('/users/me/apns_device_token', { token: APNS_TOKEN })).status, 200);
    assert.deepEqual(relay.to('push/unregister').slice(-1)[0].body.token, APNS_TOKEN);
  });

  test('a test notification reaches every token, or the one named', async () => {
    const user = await server.createUser();
    await user.post('/users/me/apns_device_token', { token: APNS_TOKEN, appid: 'org.zulip.Zulip' });
    await user.post('/users/me/android_gcm_reg_id', { token: 'android-token' });
    assert.equal((await user.post('/mobile_push/test_notification')).status, 200);
    const sent = relay.to('push/notify').slice(-1)[0].body;
    assert.deepEqual([sent.apple_devices, sent.android_devices], [[APNS_TOKEN], ['android-token']]);
    assert.equal(sent.gcm_payload.event, 'test');
    assert.equal((await user.post('/mobile_push/test_notification', { token: 'android-token' })).status, 200);
    const one = relay.to('push/notify').slice(-1)[0].body;
    assert.deepEqual([one.apple_devices, one.android_devices], [[], ['android-token']]);
  });

  test("the relay's failures reach the client as Zulip reports them", async () => {
    const user = await server.createUser();
    await user.post('/users/me/android_gcm_reg_id', { token: 'failing-token' });
    try {
      relay.answer = () => ({ status: 503, body: 'unavailable' });
      const down = await user.post('/mobile_push/test_notification');
      assert.deepEqual([down.status, down.body.code, down.body.msg], [
        502,
        'INTERNAL_SERVER_ERROR_ON_BOUNCER',
        'Internal server error on Zulip push notification service, retry later.',
      ]);
      relay.answer = () => ({ status: 401, body: { result: 'error', code: 'INVALID_ZULIP_SERVER', msg: 'bad credentials' } });
      const refused = await user.post('/mobile_push/test_notification');
      assert.deepEqual([refused.status, refused.body.code, refused.body.msg], [
        403,
        'ADMIN_ACTION_REQUIRED',
        'Push notification configuration issue on server, contact the server administrator or retry later.',
      ]);
      const registering = await user.post('/users/me/android_gcm_reg_id', { token: 'another-token' });
      assert.equal(registering.body.code, 'ADMIN_ACTION_REQUIRED', 'a token the relay refused is not kept');
      relay.answer = TestRelay.success;
      assert.equal((await user.delete('/users/me/android_gcm_reg_id', { token: 'another-token' })).body.msg, 'Token does not exist');
    } finally {
      relay.answer = TestRelay.success;
    }
  });

  test('an unreachable relay is a network error', async () => {
    const lonely = await TestServer.start({ pushRelay: await refusingUrl() });
    try {
      const response = await lonely.owner.post('/users/me/android_gcm_reg_id', { token: 'token' });
      assert.deepEqual([response.status, response.body.code, response.body.msg], [
        502,
        'FAILED_TO_CONNECT_BOUNCER',
        'Network error while connecting to Zulip push notification service.',
      ]);
      // Sending a message never waits on, or fails with, the relay.
      const sent = await lonely.owner.post('/messages', { type: 'direct', to: JSON.stringify([lonely.ownerId]), content: 'hi' });
      assert.equal(sent.status, 200);
      await backgroundSettled(lonely.stoa);
    } finally {
      await lonely.close();
    }
  });

  test('an organization requiring end-to-end encryption keeps message content off the legacy path', async () => {
    const [sender, recipient] = [await server.createUser('Ann'), await server.createUser('Ben')];
    await recipient.post('/users/me/android_gcm_reg_id', { token: 'ben-phone' });
    assert.equal((await server.owner.patch('/realm', { require_e2ee_push_notifications: true })).status, 200);
    const before = relay.to('push/notify').length;
    await sender.post('/messages', { type: 'direct', to: JSON.stringify([recipient.userId]), content: 'The code is 1234' });
    await backgroundSettled(server.stoa);
    const [{ body }] = relay.to('push/notify').slice(before);
    assert.deepEqual([body.gcm_payload.content, body.apns_payload.alert.body], ['New message', 'New message']);
    assert.equal((await server.owner.post('/register', { fetch_event_types: ['realm'] })).body.realm_require_e2ee_push_notifications, true);
    assert.equal((await server.owner.patch('/realm', { require_e2ee_push_notifications: false })).status, 200);
  });

  test('direct messages and mentions are pushed to the recipient, other messages are not', async () => {
    const [sender, recipient] = [await server.createUser('Ada'), await server.createUser('Grace')];
    await recipient.post('/users/me/android_gcm_reg_id', { token: 'grace-phone' });
    const before = relay.to('push/notify').length;
    await sender.post('/messages', { type: 'direct', to: JSON.stringify([recipient.userId]), content: 'Are you **there**?' });
    await backgroundSettled(server.stoa);
    const pushed = relay.to('push/notify').slice(before);
    assert.equal(pushed.length, 1);
    const { body } = pushed[0];
    assert.deepEqual(body.android_devices, ['grace-phone']);
    assert.equal(body.user_id, recipient.userId);
    assert.equal(body.gcm_payload.event, 'message');
    assert.equal(body.gcm_payload.content, 'Are you there?');
    assert.equal(body.gcm_payload.recipient_type, 'private');
    assert.equal(body.apns_payload.alert.title, 'Ada');

    await sender.post('/users/me/subscriptions', { subscriptions: [{ name: 'push lounge' }], principals: [sender.userId, recipient.userId] });
    await sender.post('/messages', { type: 'stream', to: 'push lounge', topic: 'chat', content: 'nobody in particular' });
    await sender.post('/messages', { type: 'stream', to: 'push lounge', topic: 'chat', content: '@**Grace** look' });
    await backgroundSettled(server.stoa);
    const later = relay.to('push/notify').slice(before + 1);
    assert.equal(later.length, 1, 'only the mention is pushed');
    assert.equal(later[0].body.gcm_payload.stream, 'push lounge');
    assert.equal(later[0].body.apns_payload.alert.title, '#push lounge > chat');
  });

  test("a channel's push setting, followed topics and alert words push too, as the person's settings say", async () => {
    const [sender, recipient] = [await server.createUser('Ada'), await server.createUser('Grace')];
    await recipient.post('/users/me/android_gcm_reg_id', { token: 'grace-tablet' });
    await sender.post('/users/me/subscriptions', { subscriptions: [{ name: 'push garden' }], principals: [sender.userId, recipient.userId] });
    const channelId = (await recipient.get('/get_stream_id', { stream: 'push garden' })).body.stream_id as number;
    const pushedTexts = async (send: () => Promise<unknown>) => {
      const before = relay.to('push/notify').length;
      await send();
      await backgroundSettled(server.stoa);
      return relay.to('push/notify').slice(before).map((p) => p.body.gcm_payload.content as string);
    };
    const say = (topic: string, content: string) => () => sender.post('/messages', { type: 'stream', to: 'push garden', topic, content });

    assert.deepEqual(await pushedTexts(say('plants', 'watered the roses')), [], 'a channel message is not pushed by default');
    // The channel's own setting.
    await recipient.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: channelId, property: 'push_notifications', value: true }] });
    assert.deepEqual(await pushedTexts(say('plants', 'watered the tulips')), ['watered the tulips']);
    await recipient.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: channelId, property: 'push_notifications', value: false }] });
    // A followed topic, by the followed-topic setting.
    await recipient.post('/user_topics', { stream_id: channelId, topic: 'harvest', visibility_policy: 3 });
    assert.deepEqual(await pushedTexts(say('harvest', 'apples are ready')), ['apples are ready']);
    await recipient.patch('/settings', { enable_followed_topic_push_notifications: false });
    assert.deepEqual(await pushedTexts(say('harvest', 'pears too')), []);
    // An alert word, like a mention.
    await recipient.post('/users/me/alert_words', { alert_words: ['compost'] });
    assert.deepEqual(await pushedTexts(say('plants', 'the compost is warm')), ['the compost is warm']);
    // @all mentions follow the channel's setting for them.
    await recipient.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: channelId, property: 'wildcard_mentions_notify', value: false }] });
    assert.deepEqual(await pushedTexts(say('plants', '@**all** lunch')), []);
  });
});

describe('push notifications while the person is active elsewhere', () => {
  let relay: TestRelay;
  let server: TestServer;
  const clock = new ManualClock();
  before(async () => {
    relay = await TestRelay.start();
    server = await TestServer.start({ pushRelay: relay.url, clock });
  });
  after(async () => {
    await server.close();
    await relay.close();
  });

  test('wait while an open client reports them active, as on Zulip, for people who turned pushes while online off', async () => {
    const [sender, recipient] = [await server.createUser('Ada'), await server.createUser('Grace')];
    await recipient.post('/users/me/android_gcm_reg_id', { token: 'grace-phone' });
    const pushesAfter = async (content: string): Promise<number> => {
      const before = relay.to('push/notify').length;
      await sender.post('/messages', { type: 'direct', to: JSON.stringify([recipient.userId]), content });
      await backgroundSettled(server.stoa);
      return relay.to('push/notify').length - before;
    };
    const active = async () => assert.equal((await recipient.post('/users/me/presence', { status: 'active' })).status, 200);
    // On by default, as on Zulip: pushes then come whether or not the person is elsewhere.
    await active();
    assert.equal(await pushesAfter('pushed while online by default'), 1);
    assert.equal((await recipient.patch('/settings', { enable_online_push_notifications: false })).status, 200);

    await active();
    assert.equal(await pushesAfter('no open client: pushed'), 1, 'active a moment ago, but no client is open');
    const registered = await recipient.post('/register', { event_types: JSON.stringify(['message']) });
    assert.equal(registered.status, 200);
    await active();
    assert.equal(await pushesAfter('reading in the browser'), 0, 'an open client that reports them active sees it');
    const other = await recipient.post('/register', { event_types: JSON.stringify(['presence']) });
    assert.equal(other.status, 200);
    clock.advance(200_000);
    assert.equal(await pushesAfter('away from the keyboard'), 1, 'no activity within the offline threshold: away');

    await active();
    assert.equal((await recipient.patch('/settings', { enable_online_push_notifications: true })).status, 200);
    assert.equal(await pushesAfter('pushed even so'), 1, 'they asked for pushes while online');
  });

  test("what a client never fetched is pushed when the person's last queue goes (Zulip's missedmessage hook)", async () => {
    const [sender, recipient] = [await server.createUser('Sam'), await server.createUser('Rae')];
    await recipient.post('/users/me/android_gcm_reg_id', { token: 'rae-phone' });
    assert.equal((await recipient.patch('/settings', { enable_online_push_notifications: false })).status, 200);
    const pushedTexts = (from: number) => relay.to('push/notify').slice(from).map((p) => p.body.gcm_payload.content as string);
    const dm = async (content: string) => {
      const sent = await sender.post('/messages', { type: 'direct', to: JSON.stringify([recipient.userId]), content });
      assert.equal(sent.status, 200);
      return sent.body.id as number;
    };
    const open = async (timeout = 60) => {
      const registered = await recipient.post('/register', { event_types: JSON.stringify(['message']), idle_queue_timeout: timeout });
      assert.equal(registered.status, 200);
      assert.equal((await recipient.post('/users/me/presence', { status: 'active' })).status, 200);
      return registered.body.queue_id as string;
    };
    /** The queue's lifespan passes without a poll; collection takes it. */
    const idle = async (seconds = 61) => {
      clock.advance(seconds * 1000);
      server.stoa.queues.collectGarbage();
      await backgroundSettled(server.stoa);
    };

    // Read in the browser? Not pushed while the tab is open; pushed once the tab's queue is gone.
    let before = relay.to('push/notify').length;
    const queueId = await open();
    await dm('are you still there?');
    await backgroundSettled(server.stoa);
    assert.deepEqual(pushedTexts(before), [], 'held back while a client is open');
    await idle();
    assert.equal(server.stoa.queues.find(queueId), undefined, 'the queue is gone');
    assert.deepEqual(pushedTexts(before), ['are you still there?']);
    await idle();
    assert.deepEqual(pushedTexts(before), ['are you still there?'], 'once only');

    // A message read meanwhile, or one the client fetched and acknowledged, is not pushed.
    before = relay.to('push/notify').length;
    const reading = await open();
    const readId = await dm('read elsewhere');
    assert.equal((await recipient.post('/messages/flags', { messages: JSON.stringify([readId]), op: 'add', flag: 'read' })).status, 200);
    await dm('fetched by the client');
    const fetched = await recipient.get('/events', { queue_id: reading, last_event_id: -1, dont_block: true });
    assert.equal(fetched.status, 200);
    const lastId = Math.max(...(fetched.body.events as Array<{ id: number }>).map((e) => e.id));
    await dm('never fetched');
    assert.equal((await recipient.get('/events', { queue_id: reading, last_event_id: lastId, dont_block: true })).status, 200);
    await idle();
    assert.deepEqual(pushedTexts(before), ['never fetched'], 'only what the client never acknowledged');

    // While another client of theirs stays open, a queue going is not the last: nothing yet.
    before = relay.to('push/notify').length;
    const phone = await open(600);
    // Polled once, it lives its full lifespan (a queue never polled goes after a minute).
    assert.equal((await recipient.get('/events', { queue_id: phone, last_event_id: -1, dont_block: true })).status, 200);
    const shortLived = await open(60);
    await dm('the phone app is still open');
    await idle();
    assert.equal(server.stoa.queues.find(shortLived), undefined);
    assert.deepEqual(pushedTexts(before), [], 'another queue of theirs still receives messages');
    // A client that deletes its queue (a closed tab) counts as gone too.
    const closing = await open();
    await dm('closed the tab');
    for (const queue of [...server.stoa.queues.queuesOf(recipient.userId)]) {
      if (queue.id === closing) continue;
      server.stoa.queues.delete(queue);
    }
    assert.deepEqual(pushedTexts(before), []);
    assert.equal((await recipient.delete('/events', { queue_id: closing })).status, 200);
    await backgroundSettled(server.stoa);
    assert.deepEqual(pushedTexts(before), ['closed the tab']);
  });
});

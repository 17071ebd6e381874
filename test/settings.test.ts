import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listen, listen12 } from './support/events';
import { assertValidResponse12 } from './support/openapi';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

const MODERN = { client_capabilities: { user_settings_object: true } };

describe('PATCH /settings', () => {
  test('changes a setting, which register then reports', async () => {
    const user = await server.createUser();
    const response = await user.patch('/settings', { twenty_four_hour_time: true, color_scheme: 2 });
    assert.equal(response.status, 200);
    const state = await user.post('/register', { fetch_event_types: ['user_settings'], ...MODERN });
    assert.equal(state.body.user_settings.twenty_four_hour_time, true);
    assert.equal(state.body.user_settings.color_scheme, 2);
    assert.equal(state.body.user_settings.enter_sends, false, 'untouched settings keep their defaults');
  });

  test('sends user_settings events only: the legacy display and notification events are gone (level 439)', async () => {
    const user = await server.createUser();
    const modern = await listen12(user, MODERN);
    const legacy = await listen12(user);
    await user.patch('/settings', { twenty_four_hour_time: true, enable_sounds: false, display_emoji_reaction_users: false });

    const expected = [
      { type: 'user_settings', op: 'update', property: 'twenty_four_hour_time', value: true },
      { type: 'user_settings', op: 'update', property: 'enable_sounds', value: false },
      { type: 'user_settings', op: 'update', property: 'display_emoji_reaction_users', value: false },
    ];
    assert.deepEqual(await modern(), expected);
    assert.deepEqual(await legacy(), expected, 'a client without user_settings_object gets the same events');
  });

  test('has the settings Zulip added after 10.2, with their defaults, changeable and announced', async () => {
    const user = await server.createUser();
    const state = await user.post('/register', { fetch_event_types: ['user_settings'], ...MODERN });
    assertValidResponse12('POST', '/register', state.status, state.body);
    const settings = state.body.user_settings;
    assert.equal(settings.resolved_topic_notice_auto_read_policy, 'except_followed');
    assert.equal(settings.web_left_sidebar_unreads_count_summary, true);
    assert.equal(settings.web_left_sidebar_show_channel_folders, true);
    assert.equal(settings.web_inbox_show_channel_folders, true);
    assert.equal(settings.web_home_view, 'inbox');

    const events = await listen12(user, MODERN);
    const changes = {
      resolved_topic_notice_auto_read_policy: 'never',
      web_left_sidebar_unreads_count_summary: false,
      web_left_sidebar_show_channel_folders: false,
      web_inbox_show_channel_folders: false,
      web_home_view: 'recent',
    };
    assert.equal((await user.patch('/settings', changes)).status, 200);
    assert.deepEqual(
      await events(),
      Object.entries(changes).map(([property, value]) => ({ type: 'user_settings', op: 'update', property, value })),
    );
    const after = await user.post('/register', { fetch_event_types: ['user_settings'], ...MODERN });
    for (const [name, value] of Object.entries(changes)) assert.equal(after.body.user_settings[name], value, name);

    // Clients older than level 454 still name the view 'recent_topics'; it is kept as 'recent'.
    await user.patch('/settings', { web_home_view: 'inbox' });
    assert.equal((await user.patch('/settings', { web_home_view: 'recent_topics' })).status, 200);
    const renamed = await user.post('/register', { fetch_event_types: ['user_settings'], ...MODERN });
    assert.equal(renamed.body.user_settings.web_home_view, 'recent');

    for (const [params, msg] of [
      [{ web_home_view: 'recent_conversations' }, 'Invalid web_home_view'],
      [{ resolved_topic_notice_auto_read_policy: 'sometimes' }, 'Invalid resolved_topic_notice_auto_read_policy'],
    ] as const) {
      const refused = await user.patch('/settings', params);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.msg, msg);
    }
  });

  test('names the language of a default_language change', async () => {
    const user = await server.createUser();
    const events = await listen(user, MODERN);
    await user.patch('/settings', { default_language: 'de' });
    const [event] = await events();
    assert.equal(event.property, 'default_language');
    assert.equal(event.value, 'de');
    assert.equal(event.language_name, 'German');
  });

  test('sends nothing for a value that does not change', async () => {
    const user = await server.createUser();
    const events = await listen(user, MODERN);
    const response = await user.patch('/settings', { enter_sends: false, timezone: '' });
    assert.equal(response.status, 200);
    assert.deepEqual(await events(), []);
  });

  test('refuses values outside each setting’s type or choices, changing nothing', async () => {
    const user = await server.createUser();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ twenty_four_hour_time: 3 }, 'twenty_four_hour_time is not a boolean'],
      [{ color_scheme: 7 }, 'Invalid color_scheme'],
      [{ timezone: 'Mars/Olympus_Mons' }, "Invalid timezone 'Mars/Olympus_Mons'"],
      [{ notification_sound: 'trumpet-fanfare' }, "Invalid notification sound 'trumpet-fanfare'"],
      [{ default_language: 'not a language' }, 'Invalid default_language'],
      [{ enter_sends: true, color_scheme: 9 }, 'Invalid color_scheme'],
    ];
    for (const [params, msg] of cases) {
      const response = await user.patch('/settings', params);
      assert.equal(response.status, 400, msg);
      assert.equal(response.body.msg, msg);
    }
    const state = await user.post('/register', { fetch_event_types: ['user_settings'], ...MODERN });
    assert.equal(state.body.user_settings.enter_sends, false, 'a refused request changes nothing');
  });

  test('lists parameters it does not know', async () => {
    const user = await server.createUser();
    const response = await user.patch('/settings', { enter_sends: true, no_such_setting: 1 });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.ignored_parameters_unsupported, ['no_such_setting']);
  });

  test('reads parameters from the query string too, as zulip-js sends PATCH', async () => {
    const user = await server.createUser();
    const response = await user.patch('/settings', { left_side_userlist: true }, 'query');
    assert.equal(response.status, 200);
    const state = await user.post('/register', { fetch_event_types: ['user_settings'], ...MODERN });
    assert.equal(state.body.user_settings.left_side_userlist, true);
  });

  test('renames the user for everyone', async () => {
    const user = await server.createUser('Before');
    const watcher = await listen(server.owner, { event_types: ['realm_user'] });
    assert.equal((await user.patch('/settings', { full_name: '  After  ' })).status, 200);
    const events = await watcher();
    assert.deepEqual(events, [
      { type: 'realm_user', op: 'update', person: { user_id: user.userId, full_name: 'After' } },
    ]);
    assert.equal((await server.owner.get(`/users/${user.userId}`)).body.user.full_name, 'After');
    const tooLong = await user.patch('/settings', { full_name: 'x'.repeat(101) });
    assert.equal(tooLong.body.msg, 'Name too long!');
  });

  test('changes the timezone shown on the user for everyone', async () => {
    const user = await server.createUser();
    const watcher = await listen(server.owner, { event_types: ['realm_user'] });
    await user.patch('/settings', { timezone: 'Europe/Berlin' });
    const [event] = await watcher();
    assert.deepEqual(event.person, { user_id: user.userId, email: user.credentials.email, timezone: 'Europe/Berlin' });
    assert.equal((await server.owner.get(`/users/${user.userId}`)).body.user.timezone, 'Europe/Berlin');
  });

  test('hiding one’s email replaces the API email and hides the real one from those not allowed', async () => {
    const user = await server.createUser();
    const member = await server.createUser();
    const memberEvents = await listen(member, { event_types: ['realm_user'] });
    const ownerEvents = await listen(server.owner, { event_types: ['realm_user'] });
    await user.patch('/settings', { email_address_visibility: 3 });

    const stand_in = `user${user.userId}@stoa.local`;
    const seenByMember = (await memberEvents()).map((e) => e.person);
    assert.deepEqual(seenByMember, [
      { user_id: user.userId, delivery_email: null },
      { user_id: user.userId, new_email: stand_in },
    ]);
    const seenByOwner = (await ownerEvents()).map((e) => e.person);
    assert.deepEqual(seenByOwner, [{ user_id: user.userId, new_email: stand_in }], 'administrators still see it');

    const asMember = (await member.get(`/users/${user.userId}`)).body.user;
    assert.equal(asMember.email, stand_in);
    assert.equal(asMember.delivery_email, null);
    const asOwner = (await server.owner.get(`/users/${user.userId}`)).body.user;
    assert.equal(asOwner.delivery_email, user.credentials.email);
    // The real address still logs in.
    assert.equal((await user.get('/users/me')).status, 200);
  });

  test('changes the password only with the old one', async () => {
    const user = await server.createUser();
    const wrong = await user.patch('/settings', { old_password: 'nope', new_password: 'brand-new-pw' });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.msg, 'Wrong password!');
    const missing = await user.patch('/settings', { new_password: 'brand-new-pw' });
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
    const changed = await user.patch('/settings', { old_password: 'secret-password', new_password: 'brand-new-pw' });
    assert.equal(changed.status, 200);
    const login = await server.anonymous.post('/fetch_api_key', { username: user.credentials.email, password: 'brand-new-pw' });
    assert.equal(login.status, 200);
  });

  test('without a mail server (--smtp), refuses to change the email address, which needs a confirmation mail (see test/email-accounts.test.ts)', async () => {
    const user = await server.createUser();
    const response = await user.patch('/settings', { email: 'elsewhere@example.com' });
    assert.equal(response.status, 400);
    assert.equal(response.body.msg, 'Email changes are not available on this server.');
    const same = await user.patch('/settings', { email: user.credentials.email });
    assert.equal(same.status, 200);
  });
});

describe('settings', () => {
  test('survive a restart', async () => {
    const restartable = await TestServer.start();
    try {
      await restartable.owner.patch('/settings', { color_scheme: 3, timezone: 'Asia/Kolkata', full_name: 'Kept' });
      await restartable.owner.post('/users/me/alert_words', { alert_words: ['persisted'] });
      await restartable.restart();
      const state = await restartable.owner.post('/register', {
        fetch_event_types: ['user_settings', 'alert_words', 'realm_user'],
        ...MODERN,
      });
      assert.equal(state.body.user_settings.color_scheme, 3);
      assert.equal(state.body.user_settings.timezone, 'Asia/Kolkata');
      assert.equal(state.body.full_name, 'Kept');
      assert.deepEqual(state.body.alert_words, ['persisted']);
    } finally {
      await restartable.close();
    }
  });
});

describe('alert words', () => {
  test('are added without duplicates in any letter case, listed, and removed', async () => {
    const user = await server.createUser();
    const events = await listen(user, { event_types: ['alert_words'] });
    const added = await user.post('/users/me/alert_words', { alert_words: ['Deploy', ' outage ', '', 'deploy'] });
    assert.deepEqual(added.body.alert_words, ['Deploy', 'outage']);
    assert.deepEqual((await user.get('/users/me/alert_words')).body.alert_words, ['Deploy', 'outage']);
    const removed = await user.delete('/users/me/alert_words', { alert_words: ['DEPLOY'] });
    assert.deepEqual(removed.body.alert_words, ['outage']);
    assert.deepEqual((await events()).map((e) => e.alert_words), [['Deploy', 'outage'], ['outage']]);
  });

  test('are refused when too long or not a list', async () => {
    const user = await server.createUser();
    const long = await user.post('/users/me/alert_words', { alert_words: ['x'.repeat(101)] });
    assert.equal(long.body.msg, 'alert_words[0] is too long (limit: 100 characters)');
    const notList = await user.post('/users/me/alert_words', { alert_words: { word: 'x' } });
    assert.equal(notList.body.msg, 'alert_words is not a list');
    const missing = await user.post('/users/me/alert_words', {});
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
  });
});

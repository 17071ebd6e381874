import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { USER_SETTINGS } from '../lib/users/settings';
import type { Client } from './support/client';
import { listen } from './support/events';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function defaults(client: Client = server.owner): Promise<Record<string, unknown>> {
  const registered = await client.post('/register', { fetch_event_types: ['realm_user_settings_defaults'] });
  assert.equal(registered.status, 200, JSON.stringify(registered.body));
  return registered.body.realm_user_settings_defaults as Record<string, unknown>;
}

async function ownSettings(client: Client): Promise<Record<string, unknown>> {
  const registered = await client.post('/register', { fetch_event_types: ['user_settings'] });
  return registered.body.user_settings as Record<string, unknown>;
}

describe('PATCH /realm/user_settings_defaults', () => {
  test('register describes every default, Stoa’s own to begin with', async () => {
    const state = await defaults();
    for (const def of USER_SETTINGS) {
      if (def.name === 'timezone') assert.equal(def.name in state, false);
      else assert.equal(state[def.name], def.default, def.name);
    }
    assert.ok(Array.isArray(state.available_notification_sounds));
    assert.ok(Array.isArray(state.emojiset_choices));
  });

  test('an administrator changes them; everyone hears; they last; new users start with them and existing ones keep theirs', async () => {
    let existing: Client = await server.createUser();
    const credentials = (existing as Client & { credentials: NonNullable<Client['credentials']> }).credentials;
    const events = await listen(existing, { event_types: ['realm_user_settings_defaults'] });
    const response = await server.owner.patch('/realm/user_settings_defaults', {
      emojiset: 'text',
      twenty_four_hour_time: true,
      enter_sends: true,
      email_address_visibility: 3,
      notification_sound: 'ding',
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(await events(), [
      { type: 'realm_user_settings_defaults', op: 'update', property: 'emojiset', value: 'text' },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'twenty_four_hour_time', value: true },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'enter_sends', value: true },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'email_address_visibility', value: 3 },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'notification_sound', value: 'ding' },
    ]);
    // Setting a value it already has changes nothing and tells nobody.
    assert.equal((await server.owner.patch('/realm/user_settings_defaults', { emojiset: 'text' })).status, 200);
    assert.deepEqual(await events(), []);

    await server.restart();
    // The server listens on a new port after a restart.
    existing = server.anonymous.as(credentials);
    const state = await defaults(existing);
    assert.equal(state.emojiset, 'text');
    assert.equal(state.twenty_four_hour_time, true);
    assert.equal(state.email_address_visibility, 3);

    const newcomer = await server.createUser();
    const settings = await ownSettings(newcomer);
    assert.equal(settings.emojiset, 'text');
    assert.equal(settings.twenty_four_hour_time, true);
    assert.equal(settings.enter_sends, true);
    assert.equal(settings.notification_sound, 'ding');
    assert.equal(settings.email_address_visibility, 3);
    // Administrators only may see the newcomer's real address.
    const seenByMember = (await existing.get(`/users/${newcomer.userId}`)).body.user;
    assert.equal(seenByMember.delivery_email, null);
    assert.match(seenByMember.email as string, /^user\d+@/);
    assert.notEqual(seenByMember.email, newcomer.credentials.email);

    const unchanged = await ownSettings(existing);
    assert.equal(unchanged.emojiset, 'google');
    assert.equal(unchanged.twenty_four_hour_time, false);

    // Back to Stoa's default: stored as no change, and new users get it again.
    assert.equal((await server.owner.patch('/realm/user_settings_defaults', { emojiset: 'google', email_address_visibility: 1 })).status, 200);
    assert.equal((await ownSettings(await server.createUser())).emojiset, 'google');
  });

  test('only administrators may, every value is checked, and one bad value changes nothing', async () => {
    const member = await server.createUser();
    const refused = await member.patch('/realm/user_settings_defaults', { enter_sends: false });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });

    const before = await defaults();
    const badSound = await server.owner.patch('/realm/user_settings_defaults', { color_scheme: 2, notification_sound: 'kazoo' });
    assert.deepEqual(badSound.body, { result: 'error', msg: "Invalid notification sound 'kazoo'", code: 'BAD_REQUEST' });
    const badChoice = await server.owner.patch('/realm/user_settings_defaults', { color_scheme: 2, emojiset: 'wingdings' });
    assert.equal(badChoice.status, 400);
    const badType = await server.owner.patch('/realm/user_settings_defaults', { color_scheme: 2, enter_sends: 'yes' });
    assert.equal(badType.status, 400);
    assert.deepEqual(await defaults(), before);
  });

  test('settings each person keeps for themselves are not organization defaults to change', async () => {
    const response = await server.owner.patch('/realm/user_settings_defaults', {
      default_language: 'de',
      timezone: 'Europe/Berlin',
      enable_login_emails: false,
      web_home_view: 'all_messages',
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(response.body.ignored_parameters_unsupported, ['default_language', 'enable_login_emails', 'timezone']);
    const state = await defaults();
    assert.equal(state.default_language, 'en');
    assert.equal(state.enable_login_emails, true);
    assert.equal(state.web_home_view, 'all_messages');
  });
});

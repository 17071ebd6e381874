import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { REALM_FETCH_KEYS } from '../lib/realm/settings';
import { USER_SETTINGS, USER_SETTINGS_EXTRAS } from '../lib/users/settings';
import { OWNER_EMAIL, TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function fetchState(types: string[], params: Record<string, unknown> = {}) {
  const response = await server.owner.post('/register', { fetch_event_types: types, ...params });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body;
}

const ALWAYS = ['result', 'msg', 'queue_id', 'idle_queue_timeout_secs', 'last_event_id', 'zulip_version', 'zulip_feature_level', 'zulip_merge_base'];

describe('register state', () => {
  test('for `realm` has every key of the fetch type, with the server’s limits', async () => {
    const state = await fetchState(['realm']);
    assert.deepEqual(Object.keys(state).filter((k) => !ALWAYS.includes(k)).sort(), [...REALM_FETCH_KEYS].sort());
    assert.equal(state.max_stream_name_length, 60);
    assert.equal(state.max_stream_description_length, 1024);
    assert.equal(state.max_topic_length, 60);
    assert.equal(state.max_message_length, 10000);
    assert.ok(state.event_queue_longpoll_timeout_seconds >= 90);
    assert.equal(state.realm_name, 'Stoa');
    assert.equal(state.realm_url, server.url);
    const members = server.stoa.groups.byName('role:members')!.id;
    assert.equal(state.realm_can_create_public_channel_group, members);
    assert.equal(state.realm_create_public_stream_policy, 1, 'the legacy policy matches the group');
  });

  test('for `realm` describes what each group setting may name and starts as', async () => {
    const { server_supported_permission_settings: supported } = await fetchState(['realm']);
    assert.deepEqual(Object.keys(supported).sort(), ['group', 'realm', 'stream']);
    // Each realm entry describes a setting register reports.
    const realmEntries = Object.keys(supported.realm);
    assert.ok(realmEntries.length >= 20, `${realmEntries.length} realm group settings described`);
    for (const name of realmEntries) assert.ok(REALM_FETCH_KEYS.includes(`realm_${name}`), name);
    assert.deepEqual(supported.realm.can_access_all_users_group, {
      require_system_group: true,
      allow_internet_group: false,
      allow_nobody_group: false,
      allow_everyone_group: true,
      default_group_name: 'role:everyone',
      default_for_system_groups: null,
      allowed_system_groups: ['role:everyone', 'role:members'],
    });
    assert.equal(supported.realm.can_create_public_channel_group.allow_everyone_group, false);
    assert.equal(supported.stream.can_administer_channel_group.default_group_name, 'channel_creator');
    assert.equal(supported.stream.can_send_message_group.default_group_name, 'role:everyone');
    assert.equal(supported.group.can_manage_group.default_group_name, 'group_creator');
    assert.equal(supported.group.can_manage_group.default_for_system_groups, 'role:nobody');
    assert.equal(supported.group.can_mention_group.default_for_system_groups, 'role:everyone');
    // What is described for system groups is what they have.
    const groups = (await fetchState(['realm_user_groups'])).realm_user_groups as Record<string, unknown>[];
    const owners = groups.find((g) => g.name === 'role:owners')!;
    const nobody = groups.find((g) => g.name === 'role:nobody')!.id;
    const everyone = groups.find((g) => g.name === 'role:everyone')!.id;
    assert.equal(owners.can_manage_group, nobody);
    assert.equal(owners.can_mention_group, everyone);
  });

  test('for `realm` names the emoji data by an absolute URL anyone may download', async () => {
    const state = await fetchState(['realm']);
    assert.ok(state.server_emoji_data_url.startsWith(`${server.url}/`), state.server_emoji_data_url);
    const response = await fetch(state.server_emoji_data_url);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(response.headers.get('cache-control') ?? '', /immutable/);
    const data = (await response.json()) as { code_to_names: Record<string, string[]> };
    assert.deepEqual(Object.keys(data), ['code_to_names']);
    assert.deepEqual(data.code_to_names['1f642'], ['smile']);
    assert.deepEqual(data.code_to_names['1f44d'], ['+1', 'thumbs_up', 'like']);
    assert.ok(Object.keys(data.code_to_names).every((code) => /^[0-9a-f]{4,}(-[0-9a-f]{4,})*$/.test(code) && !code.includes('fe0f')));
  });

  test('the zulip emoji’s picture is served where Zulip’s clients look for it, to anyone', async () => {
    const response = await fetch(`${server.url}/static/generated/emoji/images/emoji/unicode/zulip.png`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/png');
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 64, 64]);
  });

  test('for `realm_emoji` is the organization’s custom emoji, none at first', async () => {
    const state = await fetchState(['realm_emoji']);
    assert.deepEqual(state.realm_emoji, {});
  });

  test('for `realm_user` has every user, the caller’s identity and the cross-realm bots', async () => {
    const member = await server.createUser('Member');
    const state = await fetchState(['realm_user']);
    assert.equal(state.email, OWNER_EMAIL);
    assert.equal(state.delivery_email, OWNER_EMAIL);
    assert.equal(state.is_owner, true);
    assert.equal(state.is_admin, true);
    assert.equal(state.is_moderator, true, 'owners and administrators count as moderators (level 380)');
    assert.equal(state.is_guest, false);
    assert.equal(state.can_create_public_streams, true);
    assert.equal(state.can_create_web_public_streams, false);
    assert.equal(state.avatar_source, 'G');
    assert.ok(state.realm_users.some((u: { user_id: number }) => u.user_id === member.userId));
    assert.ok(state.realm_users.every((u: { profile_data?: unknown }) => 'profile_data' in u));
    assert.deepEqual(state.realm_non_active_users, []);
    // The notification bot, and Welcome Bot since it greeted the member.
    assert.deepEqual(state.cross_realm_bots.map((bot: { email: string }) => bot.email).sort(), ['notification-bot@stoa.local', 'welcome-bot@stoa.local']);
    for (const bot of state.cross_realm_bots) {
      assert.equal(bot.is_system_bot, true);
      assert.ok(!state.realm_users.some((u: { user_id: number }) => u.user_id === bot.user_id));
    }
  });

  test('for `realm_user` gives avatar_url null under client_gravatar', async () => {
    const state = await fetchState(['realm_user'], { client_gravatar: true });
    assert.ok(state.realm_users.every((u: { avatar_url: unknown }) => u.avatar_url === null));
  });

  test('for `user_settings` has every setting and the lists clients choose from', async () => {
    const state = await fetchState(['user_settings']);
    const expected = [...USER_SETTINGS.map((s) => s.name), ...Object.keys(USER_SETTINGS_EXTRAS)];
    assert.deepEqual(Object.keys(state.user_settings).sort(), expected.sort());
    assert.equal(state.user_settings.default_language, 'en');
  });

  test('for the legacy settings types is nothing, with or without user_settings_object (level 439)', async () => {
    const types = ['update_display_settings', 'update_global_notifications'];
    for (const capabilities of [{}, { user_settings_object: true }]) {
      const state = await fetchState(types, { client_capabilities: capabilities });
      assert.deepEqual(Object.keys(state).filter((k) => !ALWAYS.includes(k)), []);
    }
  });

  test('for `realm_user_groups` has the system groups with their settings', async () => {
    const state = await fetchState(['realm_user_groups']);
    const names = state.realm_user_groups.map((g: { name: string }) => g.name).sort();
    assert.deepEqual(names, [
      'role:administrators',
      'role:everyone',
      'role:fullmembers',
      'role:internet',
      'role:members',
      'role:moderators',
      'role:nobody',
      'role:owners',
    ]);
    const owners = state.realm_user_groups.find((g: { name: string }) => g.name === 'role:owners');
    const admins = state.realm_user_groups.find((g: { name: string }) => g.name === 'role:administrators');
    assert.deepEqual(owners.members, [server.ownerId]);
    assert.deepEqual(admins.direct_subgroup_ids, [owners.id]);
    assert.equal(owners.is_system_group, true);
    assert.equal(owners.deactivated, false);
  });

  test('for `custom_profile_fields` has no fields and the field types', async () => {
    const state = await fetchState(['custom_profile_fields']);
    assert.deepEqual(state.custom_profile_fields, []);
    assert.deepEqual(state.custom_profile_field_types.SHORT_TEXT, { id: 1, name: 'Text (short)' });
  });

  test('for message is the newest message ID, -1 before any', async () => {
    const state = await fetchState(['message']);
    assert.equal(state.max_message_id, -1);
    assert.equal('unread_msgs' in state, false, 'unread_msgs needs update_message_flags too');
  });

  test('for an unknown or not-yet-built type is empty rather than invented', async () => {
    const state = await fetchState(['drafts_not_built_yet', 'no_such_type']);
    assert.deepEqual(Object.keys(state).filter((k) => !ALWAYS.includes(k)), []);
  });
});

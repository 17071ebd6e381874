import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { listen, listen12 } from './support/events';
import { assertValidResponse12 } from './support/openapi';
import { TestServer } from './support/server';

type User = Client & { userId: number };

let server: TestServer;
let administrator: User;
let member: User;

before(async () => {
  server = await TestServer.start();
  administrator = await server.createUser('Administrator');
  member = await server.createUser('Member');
  assert.equal((await server.owner.patch(`/users/${administrator.userId}`, { role: 200 })).status, 200);
});
after(() => server.close());

async function realmState(client: Client = server.owner): Promise<Record<string, any>> {
  const response = await client.post('/register', { fetch_event_types: ['realm'] });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body;
}

function assertError(response: { status: number; body: any }, msg: string, code = 'BAD_REQUEST'): void {
  assert.equal(response.status, 400, JSON.stringify(response.body));
  assert.equal(response.body.msg, msg);
  assert.equal(response.body.code, code);
}

describe('PATCH /realm changes plain settings', () => {
  test('a boolean setting answers its new value, tells everyone, and shows in register', async () => {
    const memberEvents = await listen(member);
    const response = await server.owner.patch('/realm', { inline_image_preview: false });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.inline_image_preview, false);
    assert.deepEqual(await memberEvents(), [{ type: 'realm', op: 'update', property: 'inline_image_preview', value: false }]);
    assert.equal((await realmState(member)).realm_inline_image_preview, false);
  });

  test('setting a value that is already current changes nothing and sends nothing', async () => {
    const events = await listen(member);
    const response = await server.owner.patch('/realm', { send_welcome_emails: true });
    assert.equal(response.status, 200);
    assert.equal('send_welcome_emails' in response.body, false);
    assert.deepEqual(await events(), []);
  });

  test('the name and description answer "updated"; server_settings shows them, the description rendered', async () => {
    const events = await listen12(member);
    const response = await server.owner.patch('/realm', { name: 'The Agora', description: 'We **talk** here' });
    assert.equal(response.body.name, 'updated');
    assert.equal(response.body.description, 'updated');
    // The description comes with its HTML, in the update_dict shape (level 464).
    const data = { description: 'We **talk** here', rendered_description: '<p>We <strong>talk</strong> here</p>' };
    assert.deepEqual(await events(), [
      { type: 'realm', op: 'update', property: 'name', value: 'The Agora' },
      { type: 'realm', op: 'update_dict', property: 'default', data },
    ]);
    const settings = (await server.anonymous.get('/server_settings')).body;
    assert.equal(settings.realm_name, 'The Agora');
    assert.equal(settings.realm_description, '<p>We <strong>talk</strong> here</p>');
    assert.equal((await realmState()).realm_description, 'We **talk** here');
  });

  test('has the settings and facts of Zulip 12, as zulip-12.yaml describes them', async () => {
    const response = await server.owner.post('/register', { fetch_event_types: ['realm', 'giphy', 'tenor', 'klipy'] });
    assertValidResponse12('POST', '/register', response.status, response.body);
    const state = response.body;
    assert.match(state.realm_uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(state.realm_gif_rating_policy, 2);
    assert.equal(state.gif_rating_policy_options.disabled.id, 0);
    assert.equal('realm_giphy_rating' in state || 'giphy_rating_options' in state, false, 'the names before level 453 are gone');
    assert.equal('realm_is_zephyr_mirror_realm' in state, false, 'removed at level 426');
    assert.equal(state.realm_media_preview_size, 100);
    assert.equal(state.realm_send_channel_events_messages, true);
    assert.equal(state.realm_owner_full_content_access, false);
    assert.equal(state.realm_default_avatar_source, 'G');
    assert.equal(state.realm_workplace_users_group, server.groupId('role:members'));
    assert.deepEqual([state.giphy_api_key, state.tenor_api_key, state.klipy_api_key], ['', '', ''], 'no GIF provider is configured');
    const settings = (await server.anonymous.get('/server_settings')).body;
    assert.equal(settings.authentication_methods.discord, false);

    const events = await listen12(member);
    const changed = await server.owner.patch('/realm', { gif_rating_policy: 3, media_preview_size: 150, send_channel_events_messages: false });
    assert.deepEqual([changed.status, changed.body.gif_rating_policy, changed.body.media_preview_size], [200, 3, 150]);
    assert.deepEqual(await events(), [
      { type: 'realm', op: 'update', property: 'gif_rating_policy', value: 3 },
      { type: 'realm', op: 'update', property: 'media_preview_size', value: 150 },
      { type: 'realm', op: 'update', property: 'send_channel_events_messages', value: false },
    ]);
    for (const [params, msg] of [
      [{ media_preview_size: 120 }, 'Invalid media_preview_size 120'],
      [{ default_avatar_source: 'U' }, 'Invalid default_avatar_source'],
    ] as const) {
      const refused = await server.owner.patch('/realm', params);
      assert.deepEqual([refused.status, refused.body.msg], [400, msg]);
    }
    // With channel events switched off, a new channel gets no creation notice.
    const quiet = await createChannel(server.owner);
    const history = await server.owner.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([['channel', quiet.id]]) });
    assert.deepEqual(history.body.messages, []);
    await server.owner.patch('/realm', { gif_rating_policy: 2, media_preview_size: 100, send_channel_events_messages: true });
    assert.equal((await server.owner.post('/register', { fetch_event_types: ['realm'] })).body.realm_uuid, state.realm_uuid, 'the UUID stays');
  });

  test('a time limit takes seconds or "unlimited", announced in the update_dict shape', async () => {
    const events = await listen(member);
    const unlimited = await server.owner.patch('/realm', { message_content_edit_limit_seconds: 'unlimited' });
    assert.equal(unlimited.body.message_content_edit_limit_seconds, null);
    await server.owner.patch('/realm', { message_content_edit_limit_seconds: 1200 });
    assert.deepEqual(await events(), [
      { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: null } },
      { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: 1200 } },
    ]);
    const moves = await server.owner.patch('/realm', { move_messages_within_stream_limit_seconds: 'unlimited' });
    assert.equal(moves.body.move_messages_within_stream_limit_seconds, null);
    const state = await realmState();
    assert.equal(state.realm_message_content_edit_limit_seconds, 1200);
    assert.equal(state.realm_move_messages_within_stream_limit_seconds, null);
  });

  test('edit history visibility is named, and the legacy allow_edit_history follows it', async () => {
    const events = await listen(member);
    const response = await server.owner.patch('/realm', { message_edit_history_visibility_policy: 'none' });
    assert.equal(response.body.message_edit_history_visibility_policy, 'none');
    assert.deepEqual(await events(), [
      { type: 'realm', op: 'update', property: 'message_edit_history_visibility_policy', value: 'none' },
    ]);
    assert.equal((await realmState()).realm_allow_edit_history, false);
    await server.owner.patch('/realm', { message_edit_history_visibility_policy: 'moves' });
    assert.equal((await realmState()).realm_allow_edit_history, true);
  });

  test('topics_policy comes with the derived mandatory_topics, whose own parameter is gone (feature level 392)', async () => {
    const events = await listen(member);
    await server.owner.patch('/realm', { topics_policy: 'disable_empty_topic' });
    assert.deepEqual(await events(), [
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { topics_policy: 'disable_empty_topic', mandatory_topics: true },
      },
    ]);
    let state = await realmState();
    assert.equal(state.realm_topics_policy, 'disable_empty_topic');
    assert.equal(state.realm_mandatory_topics, true);
    const ignored = await server.owner.patch('/realm', { mandatory_topics: false });
    assert.deepEqual(ignored.body.ignored_parameters_unsupported, ['mandatory_topics']);
    state = await realmState();
    assert.equal(state.realm_topics_policy, 'disable_empty_topic');
    assert.equal(state.realm_mandatory_topics, true);
    await server.owner.patch('/realm', { topics_policy: 'allow_empty_topic' });
    assert.equal((await realmState()).realm_mandatory_topics, false);
  });

  test('the Jitsi server takes a URL, and "default" returns to the server\'s own', async () => {
    await server.owner.patch('/realm', { jitsi_server_url: 'https://jitsi.example.org' });
    let state = await realmState();
    assert.equal(state.realm_jitsi_server_url, 'https://jitsi.example.org');
    assert.equal(state.jitsi_server_url, 'https://jitsi.example.org');
    const response = await server.owner.patch('/realm', { jitsi_server_url: 'default' });
    assert.equal(response.body.jitsi_server_url, null);
    state = await realmState();
    assert.equal(state.realm_jitsi_server_url, null);
    assert.equal(state.jitsi_server_url, state.server_jitsi_server_url);
  });

  test('several settings change in one request, each with its own event', async () => {
    const events = await listen(member);
    const response = await server.owner.patch('/realm', { digest_weekday: 4, org_type: 30, default_language: 'de' });
    assert.deepEqual(response.body.digest_weekday, 4);
    assert.deepEqual(response.body.org_type, 30);
    assert.deepEqual(response.body.default_language, 'updated');
    const properties = (await events()).map((e) => e.property).sort();
    assert.deepEqual(properties, ['default_language', 'digest_weekday', 'org_type']);
  });
});

describe('PATCH /realm changes group settings', () => {
  test('a group setting answers and announces its new value, and the legacy policy follows', async () => {
    const moderators = server.groupId('role:moderators');
    const events = await listen(member);
    const response = await server.owner.patch('/realm', { can_create_public_channel_group: { new: moderators } });
    assert.equal(response.body.can_create_public_channel_group, moderators);
    assert.deepEqual(await events(), [
      { type: 'realm', op: 'update_dict', property: 'default', data: { can_create_public_channel_group: moderators } },
    ]);
    const state = await realmState();
    assert.equal(state.realm_can_create_public_channel_group, moderators);
    assert.equal(state.realm_create_public_stream_policy, 4);
  });

  test('the change takes effect at once: a member may no longer create public channels', async () => {
    const refused = await member.post('/users/me/subscriptions', { subscriptions: [{ name: 'members may not' }] });
    assertError(refused, 'Insufficient permission');
    await server.owner.patch('/realm', { can_create_public_channel_group: { new: server.groupId('role:members') } });
    await createChannel(member);
  });

  test('an ad-hoc set of users and groups is kept as such', async () => {
    const value = { direct_members: [member.userId], direct_subgroups: [server.groupId('role:administrators')] };
    const response = await server.owner.patch('/realm', { can_mention_many_users_group: { new: value } });
    assert.deepEqual(response.body.can_mention_many_users_group, value);
    const state = await realmState();
    assert.deepEqual(state.realm_can_mention_many_users_group, value);
    // An ad-hoc group is no system group, so the legacy code is the documented fallback.
    assert.equal(state.realm_wildcard_mention_policy, 5);
  });

  test('a wrong old value is refused without a change', async () => {
    const before = (await realmState()).realm_can_add_subscribers_group;
    const response = await server.owner.patch('/realm', {
      can_add_subscribers_group: { new: server.groupId('role:moderators'), old: server.groupId('role:nobody') },
    });
    assertError(response, "'old' value does not match the expected value.", 'EXPECTATION_MISMATCH');
    assert.equal((await realmState()).realm_can_add_subscribers_group, before);
  });

  test('a group the setting may not name is refused in Zulip\'s words', async () => {
    assertError(
      await server.owner.patch('/realm', { can_create_public_channel_group: { new: server.groupId('role:everyone') } }),
      "'can_create_public_channel_group' setting cannot be set to 'role:everyone' group.",
    );
    assertError(
      await server.owner.patch('/realm', { can_manage_all_groups: { new: server.groupId('role:nobody') } }),
      "'can_manage_all_groups' setting cannot be set to 'role:nobody' group.",
    );
    assertError(await server.owner.patch('/realm', { can_create_groups: { new: 99999 } }), 'Invalid user group');
  });

  test('a returning user is sent again in the ad-hoc setting groups that name them', async () => {
    const returning = await server.createUser('Returning');
    const value = { direct_members: [member.userId, returning.userId], direct_subgroups: [] };
    await server.owner.patch('/realm', { can_resolve_topics_group: { new: value } });
    await server.owner.delete(`/users/${returning.userId}`);
    assert.deepEqual((await realmState()).realm_can_resolve_topics_group, { direct_members: [member.userId], direct_subgroups: [] });
    const events = await listen(member);
    await server.owner.post(`/users/${returning.userId}/reactivate`);
    const realmEvents = (await events()).filter((e) => e.type === 'realm');
    assert.deepEqual(realmEvents, [{ type: 'realm', op: 'update_dict', property: 'default', data: { can_resolve_topics_group: value } }]);
  });
});

describe('PATCH /realm sets the announcement channels', () => {
  test('a channel the administrator can see is accepted, and -1 turns it off', async () => {
    const channel = await createChannel(member);
    const events = await listen(member);
    const response = await administrator.patch('/realm', { new_stream_announcements_stream_id: channel.id });
    assert.equal(response.body.new_stream_announcements_stream_id, channel.id);
    assert.equal((await realmState()).realm_new_stream_announcements_stream_id, channel.id);
    await administrator.patch('/realm', { new_stream_announcements_stream_id: -1 });
    assert.deepEqual(await events(), [
      { type: 'realm', op: 'update', property: 'new_stream_announcements_stream_id', value: channel.id },
      { type: 'realm', op: 'update', property: 'new_stream_announcements_stream_id', value: -1 },
    ]);
  });

  test('an unknown channel is refused', async () => {
    assertError(await server.owner.patch('/realm', { signup_announcements_stream_id: 99999 }), 'Invalid channel ID');
  });

  test('the moderation request channel must be private', async () => {
    const open = await createChannel(server.owner);
    assertError(
      await server.owner.patch('/realm', { moderation_request_channel_id: open.id }),
      'Moderation request channel must be private.',
    );
    const closed = await createChannel(server.owner, { invite_only: true });
    assert.equal((await server.owner.patch('/realm', { moderation_request_channel_id: closed.id })).status, 200);
  });
});

describe('PATCH /realm permissions', () => {
  test('members and moderators may not change organization settings', async () => {
    assertError(await member.patch('/realm', { inline_url_embed_preview: true }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    assert.equal((await realmState()).realm_inline_url_embed_preview, false);
  });

  test('administrators change most settings, group settings included', async () => {
    assert.equal((await administrator.patch('/realm', { inline_url_embed_preview: true })).status, 200);
    const moderators = server.groupId('role:moderators');
    assert.equal((await administrator.patch('/realm', { can_delete_any_message_group: { new: moderators } })).status, 200);
    assert.equal((await realmState()).realm_can_delete_any_message_group, moderators);
  });

  test('only owners change who may join, what is kept and who manages groups', async () => {
    const ownersOnly: Array<Record<string, unknown>> = [
      { invite_required: false },
      { emails_restricted_to_domains: true },
      { disallow_disposable_email_addresses: false },
      { waiting_period_threshold: 3 },
      { message_retention_days: 30 },
      { create_multiuse_invite_group: { new: server.groupId('role:moderators') } },
      { can_create_groups: { new: server.groupId('role:moderators') } },
      { can_invite_users_group: { new: server.groupId('role:moderators') } },
      { can_manage_all_groups: { new: server.groupId('role:administrators') } },
      { can_manage_billing_group: { new: server.groupId('role:owners') } },
    ];
    for (const change of ownersOnly) {
      assertError(await administrator.patch('/realm', change), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    }
    const before = await realmState();
    assert.equal(before.realm_invite_required, true);
    assert.equal(before.realm_message_retention_days, -1);
    for (const change of ownersOnly) {
      const response = await server.owner.patch('/realm', change);
      assert.equal(response.status, 200, `${JSON.stringify(change)}: ${JSON.stringify(response.body)}`);
    }
    const after = await realmState();
    assert.equal(after.realm_invite_required, false);
    assert.equal(after.realm_waiting_period_threshold, 3);
    assert.equal(after.realm_message_retention_days, 30);
    assert.equal(after.realm_can_manage_all_groups, server.groupId('role:administrators'));
    await server.owner.patch('/realm', { message_retention_days: 'unlimited' });
    assert.equal((await realmState()).realm_message_retention_days, -1);
  });
});

describe('PATCH /realm validation', () => {
  const cases: Array<[string, Record<string, unknown>, string, string?]> = [
    ['an unknown language', { default_language: 'not-a-language' }, "Invalid language 'not-a-language'"],
    ['an unavailable video call provider', { video_chat_provider: 3 }, 'Invalid video_chat_provider 3'],
    ['an unknown GIF rating', { gif_rating_policy: 9 }, 'Invalid gif_rating_policy 9'],
    ['a Jitsi server that is no URL', { jitsi_server_url: 'jitsi here' }, 'jitsi_server_url is not an allowed_type'],
    ['an unknown edit history policy', { message_edit_history_visibility_policy: 'some' }, 'Invalid message_edit_history_visibility_policy'],
    ['an unknown topics policy', { topics_policy: 'inherit' }, 'Invalid topics_policy'],
    ['a zero time limit', { message_content_delete_limit_seconds: 0 }, "Bad value for 'message_content_delete_limit_seconds': 0", 'REQUEST_VARIABLE_INVALID'],
    ['a time limit given in words', { move_messages_between_streams_limit_seconds: 'forever' }, "Bad value for 'move_messages_between_streams_limit_seconds': forever", 'REQUEST_VARIABLE_INVALID'],
    ['retention that follows nothing', { message_retention_days: 'realm_default' }, "Bad value for 'message_retention_days': realm_default", 'REQUEST_VARIABLE_INVALID'],
    ['a negative waiting period', { waiting_period_threshold: -1 }, 'waiting_period_threshold is too small'],
    ['an eighth weekday', { digest_weekday: 7 }, 'Invalid digest_weekday'],
    ['an unknown organization type', { org_type: 11 }, 'Invalid org_type'],
    ['a name over 40 characters', { name: 'n'.repeat(41) }, 'name is too long (limit: 40 characters)'],
    ['a description over 1000 characters', { description: 'd'.repeat(1001) }, 'description is too long (limit: 1000 characters)'],
    ['a boolean that is not one', { invite_required: 3 }, 'invite_required is not a boolean'],
    ['a group setting without new', { can_create_bots_group: { old: 1 } }, 'can_create_bots_group["new"] is missing'],
  ];
  for (const [what, params, msg, code] of cases) {
    test(`${what} is refused`, async () => {
      assertError(await server.owner.patch('/realm', params), msg, code);
    });
  }

  test('a request with one bad value changes nothing at all', async () => {
    const before = await realmState();
    const response = await server.owner.patch('/realm', { name: 'Half done', gif_rating_policy: 9 });
    assertError(response, 'Invalid gif_rating_policy 9');
    assert.equal((await realmState()).realm_name, before.realm_name);
  });
});

describe('organization settings are stored', () => {
  test('every kind of setting survives a restart', async () => {
    const data = (await import('./support/server')).tempDir();
    const stored = await TestServer.start({ data });
    try {
      const members = stored.groupId('role:members');
      const target = await stored.createUser('Named');
      const changes = {
        name: 'Kept',
        description: 'Still here',
        enable_read_receipts: false,
        message_content_delete_limit_seconds: 'unlimited',
        message_edit_history_visibility_policy: 'moves',
        default_code_block_language: 'python',
        can_create_private_channel_group: { new: { direct_members: [target.userId], direct_subgroups: [members] } },
        can_summarize_topics_group: { new: stored.groupId('role:moderators') },
      };
      assert.equal((await stored.owner.patch('/realm', changes)).status, 200);
      const before = (await stored.owner.post('/register', { fetch_event_types: ['realm'] })).body;
      await stored.restart();
      const after = (await stored.owner.post('/register', { fetch_event_types: ['realm'] })).body;
      for (const key of [
        'realm_name',
        'realm_description',
        'realm_enable_read_receipts',
        'realm_message_content_delete_limit_seconds',
        'realm_message_edit_history_visibility_policy',
        'realm_default_code_block_language',
        'realm_can_create_private_channel_group',
        'realm_can_summarize_topics_group',
      ]) {
        assert.deepEqual(after[key], before[key], key);
      }
      assert.equal(after.realm_name, 'Kept');
      assert.deepEqual(after.realm_can_create_private_channel_group, { direct_members: [target.userId], direct_subgroups: [members] });
    } finally {
      await stored.close();
      (await import('node:fs')).rmSync(data, { recursive: true, force: true });
    }
  });
});

describe('web-public channels need all three switches of the state table', () => {
  let webServer: TestServer;
  before(async () => {
    webServer = await TestServer.start({ webPublic: true });
  });
  after(() => webServer.close());

  test('the server setting: without --web-public, spectator access does not allow web-public channels', async () => {
    const state = await realmState();
    assert.equal(state.server_web_public_streams_enabled, false);
    await server.owner.patch('/realm', { enable_spectator_access: true });
    const refused = await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'for the web' }], is_web_public: true });
    assertError(refused, 'Web-public channels are not enabled.');
    const channel = await createChannel(server.owner);
    assertError(await server.owner.patch(`/streams/${channel.id}`, { is_web_public: true }), 'Web-public channels are not enabled.');
  });

  test('the realm setting: with --web-public but without spectator access, they are refused', async () => {
    assert.equal((await realmState(webServer.owner)).server_web_public_streams_enabled, true);
    const refused = await webServer.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'too early' }], is_web_public: true });
    assertError(refused, 'Web-public channels are not enabled.');
    assert.equal((await webServer.anonymous.get('/server_settings')).body.realm_web_public_access_enabled, false);
  });

  test('with both switches on, the owner creates one and spectators are told there is something to read', async () => {
    assert.equal((await webServer.owner.patch('/realm', { enable_spectator_access: true })).status, 200);
    const channel = await createChannel(webServer.owner, { is_web_public: true });
    const found = (await webServer.owner.get(`/streams/${channel.id}`)).body.stream;
    assert.equal(found.is_web_public, true);
    assert.equal((await webServer.anonymous.get('/server_settings')).body.realm_web_public_access_enabled, true);
  });

  test('the permission: only can_create_web_public_channel_group may make a channel web-public', async () => {
    const admin = await webServer.createUser('Web administrator');
    await webServer.owner.patch(`/users/${admin.userId}`, { role: 200 });
    const channel = await createChannel(admin);
    assertError(await admin.patch(`/streams/${channel.id}`, { is_web_public: true }), 'Insufficient permission');
    const administrators = webServer.groupId('role:administrators');
    await webServer.owner.patch('/realm', { can_create_web_public_channel_group: { new: administrators } });
    assert.equal((await realmState(webServer.owner)).realm_create_web_public_stream_policy, 2);
    const allowed = await admin.patch(`/streams/${channel.id}`, { is_web_public: true });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    assert.equal((await admin.get(`/streams/${channel.id}`)).body.stream.is_web_public, true);
  });
});

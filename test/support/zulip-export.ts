import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

type Row = Record<string, any>;

/**
 * A data export laid out as Zulip 10's `manage.py export` lays it out, built here from what
 * Zulip's export and import code say of its format (not copied from any export): realm.json
 * with Zulip's tables and the fields of its models, foreign keys named without `_id`, dates as
 * UNIX seconds with their fraction, messages split over two messages-NNNNNN.json files, one-to-one
 * direct messages addressed to the receiver's personal recipient, a direct message group in
 * zerver_huddle, the server's own bots in zerver_userprofile_crossrealm, and tables, fields and
 * files Stoa has no use for. Tests change it through `edit` before it is written.
 */
export interface ZulipExportFixture {
  realm: Row;
  messageFiles: Array<{ zerver_message: Row[]; zerver_usermessage: Row[] }>;
  attachment: { zerver_attachment: Row[] };
  records: Record<'uploads' | 'avatars' | 'emoji' | 'realm_icons', Row[]>;
  /** Files by path inside the export folder. */
  files: Map<string, Buffer>;
}

export const ZULIP_IDS = {
  realm: 2,
  alice: 10,
  bob: 11,
  carol: 12,
  dave: 13,
  robot: 14,
  eve: 15,
  notificationBot: 1,
  welcomeBot: 2,
  general: 20,
  engineering: 21,
  huddle: 5,
  emoji: 3,
  field: 4,
  attachment: 50,
  /** Recipients: a user's is 100 + their ID; channels' and the group's below. */
  generalRecipient: 40,
  engineeringRecipient: 41,
  huddleRecipient: 42,
  groups: {
    'role:internet': 60,
    'role:owners': 61,
    'role:administrators': 62,
    'role:moderators': 63,
    'role:fullmembers': 64,
    'role:members': 65,
    'role:everyone': 66,
    'role:nobody': 67,
    frontend: 68,
    /** The anonymous group that manages frontend: Alice alone. */
    frontendManagers: 69,
  },
} as const;

/** Zulip's UserMessage flag bits by name (bit i of flags_mask). */
const FLAG_BIT = { read: 1, starred: 2, mentioned: 8, group_mentioned: 64, is_private: 2048 } as const;

const T0 = 1_700_000_000.123456;
export const UPLOAD_PATH = `${ZULIP_IDS.realm}/4f/qA1b2C3d4E5f6G7h8I9j0KlM/spec.txt`;
export const UPLOAD_BYTES = Buffer.from('the spec\n');

export async function zulipExportFixture(): Promise<ZulipExportFixture> {
  const ids = ZULIP_IDS;
  const personal = (userId: number) => 100 + userId;
  const group = ids.groups;

  // Every Zulip user row carries the model's fields, personal settings among them.
  const user = (id: number, fields: Row): Row => ({
    id,
    realm: ids.realm,
    email: fields.delivery_email,
    full_name: '',
    is_active: true,
    is_bot: false,
    bot_type: null,
    bot_owner: null,
    role: 400,
    date_joined: T0 + id,
    last_login: T0 + 1000,
    last_reminder: null,
    is_mirror_dummy: false,
    is_billing_admin: false,
    can_create_users: false,
    can_forge_sender: false,
    can_change_user_emails: false,
    tos_version: '-1',
    timezone: 'Europe/Paris',
    avatar_source: 'G',
    avatar_version: 1,
    avatar_hash: null,
    email_address_visibility: 1,
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    last_active_message_id: null,
    long_term_idle: false,
    is_imported_stub: false,
    recipient: personal(id),
    user_permissions: [],
    groups: [],
    twenty_four_hour_time: false,
    enter_sends: false,
    emojiset: 'google',
    default_language: 'en',
    left_side_userlist: false,
    web_home_view: 'recent_topics',
    enable_offline_push_notifications: true,
    presence_enabled: true,
    ...fields,
  });
  const users = [
    user(ids.alice, { delivery_email: 'alice@acme.example', full_name: 'Alice Owner', role: 100, twenty_four_hour_time: true }),
    user(ids.bob, {
      delivery_email: 'bob@acme.example',
      email: `user${ids.bob}@acme.zulipchat.example`,
      email_address_visibility: 3,
      full_name: 'Bob Builder',
      avatar_source: 'U',
      avatar_version: 2,
      emojiset: 'text',
    }),
    user(ids.carol, { delivery_email: 'carol@acme.example', full_name: 'Carol Guest', role: 600 }),
    user(ids.dave, { delivery_email: 'dave@acme.example', full_name: 'Dave Moderator', role: 300, is_active: false }),
    user(ids.robot, { delivery_email: 'robot-bot@acme.example', full_name: 'Robot', is_bot: true, bot_type: 3, bot_owner: ids.bob }),
  ];
  const mirrorDummy = user(ids.eve, { delivery_email: 'eve@elsewhere.example', full_name: 'Eve Elsewhere', is_active: false, is_mirror_dummy: true });

  const stream = (id: number, recipient: number, fields: Row): Row => ({
    id,
    realm: ids.realm,
    description: '',
    rendered_description: '',
    date_created: T0 + 50,
    creator: ids.alice,
    deactivated: false,
    invite_only: false,
    is_web_public: false,
    history_public_to_subscribers: true,
    message_retention_days: null,
    first_message_id: null,
    recipient,
    is_recently_active: true,
    subscriber_count: 0,
    can_add_subscribers_group: group['role:nobody'],
    can_administer_channel_group: group['role:administrators'],
    can_remove_subscribers_group: group['role:administrators'],
    can_send_message_group: group['role:everyone'],
    can_subscribe_group: group['role:nobody'],
    ...fields,
  });
  const streams = [
    stream(ids.general, ids.generalRecipient, { name: 'general', description: 'For **everyone**', rendered_description: '<p>For <strong>everyone</strong></p>' }),
    stream(ids.engineering, ids.engineeringRecipient, { name: 'engineering', invite_only: true, can_send_message_group: group['role:members'] }),
  ];

  const humans = [ids.alice, ids.bob, ids.carol, ids.dave, ids.robot, ids.eve];
  const recipients = [
    ...humans.map((id) => ({ id: personal(id), type: 1, type_id: id })),
    { id: ids.generalRecipient, type: 2, type_id: ids.general },
    { id: ids.engineeringRecipient, type: 2, type_id: ids.engineering },
    { id: ids.huddleRecipient, type: 3, type_id: ids.huddle },
  ];
  let subscriptionId = 1;
  const subscription = (userId: number, recipient: number, fields: Row = {}): Row => ({
    id: subscriptionId++,
    user_profile: userId,
    recipient,
    active: true,
    is_user_active: true,
    color: '#76ce90',
    is_muted: false,
    pin_to_top: false,
    desktop_notifications: null,
    audible_notifications: null,
    push_notifications: null,
    email_notifications: null,
    wildcard_mentions_notify: null,
    ...fields,
  });
  const subscriptions = [
    ...humans.map((id) => subscription(id, personal(id))),
    subscription(ids.alice, ids.generalRecipient),
    subscription(ids.bob, ids.generalRecipient, { color: '#e79ab5', pin_to_top: true, push_notifications: false }),
    subscription(ids.carol, ids.generalRecipient),
    subscription(ids.alice, ids.engineeringRecipient),
    subscription(ids.bob, ids.engineeringRecipient, { is_muted: true }),
    ...[ids.alice, ids.bob, ids.carol].map((id) => subscription(id, ids.huddleRecipient)),
  ];

  const systemGroup = (name: keyof typeof group, description: string): Row => ({
    id: group[name],
    usergroup_ptr: group[name],
    realm_for_sharding: ids.realm,
    name,
    description,
    is_system_group: true,
    deactivated: false,
    date_created: T0,
    creator: null,
    can_add_members_group: group['role:nobody'],
    can_join_group: group['role:nobody'],
    can_leave_group: group['role:nobody'],
    can_manage_group: group['role:nobody'],
    can_mention_group: group['role:everyone'],
    can_remove_members_group: group['role:nobody'],
  });
  const namedGroups = [
    systemGroup('role:internet', 'Everyone on the Internet'),
    systemGroup('role:owners', 'Owners of this organization'),
    systemGroup('role:administrators', 'Administrators of this organization, including owners'),
    systemGroup('role:moderators', 'Moderators of this organization, including administrators'),
    systemGroup('role:fullmembers', 'Members of this organization, not including new accounts and guests'),
    systemGroup('role:members', 'Members of this organization, not including guests'),
    systemGroup('role:everyone', 'Everyone in this organization, including guests'),
    systemGroup('role:nobody', 'Nobody'),
    {
      ...systemGroup('frontend' as keyof typeof group, 'People who build the web app'),
      is_system_group: false,
      creator: ids.alice,
      can_manage_group: group.frontendManagers,
      can_join_group: group['role:members'],
      can_leave_group: group['role:everyone'],
    },
  ];
  let membershipId = 1;
  const member = (groupId: number, userId: number) => ({ id: membershipId++, user_group: groupId, user_profile: userId });
  let subgroupId = 1;
  const subgroup = (supergroup: number, sub: number) => ({ id: subgroupId++, supergroup, subgroup: sub });

  const realm: Row = {
    zerver_realm: [
      {
        id: ids.realm,
        name: 'Acme',
        string_id: 'acme',
        description: 'Where Acme talks',
        date_created: T0,
        deactivated: false,
        uuid: '7c1c8b1e-0d4e-4d7b-9e1f-2f0f4f5f6a7b',
        uuid_owner_secret: 'zuliprealm_secret',
        plan_type: 2,
        max_invites: null,
        push_notifications_enabled: false,
        icon_source: 'G',
        icon_version: 1,
        logo_source: 'D',
        night_logo_source: 'D',
        demo_organization_scheduled_deletion_date: null,
        org_type: 10,
        waiting_period_threshold: 5,
        invite_required: true,
        message_content_edit_limit_seconds: 600,
        message_edit_history_visibility_policy: 2,
        mandatory_topics: true,
        allow_message_editing: true,
        default_language: 'en',
        new_stream_announcements_stream: ids.general,
        signup_announcements_stream: null,
        zulip_update_announcements_stream: null,
        moderation_request_channel: null,
        zulip_update_announcements_level: 12,
        can_create_public_channel_group: group['role:administrators'],
        can_create_private_channel_group: group['role:members'],
        can_add_custom_emoji_group: group['role:members'],
        direct_message_permission_group: group['role:members'],
        direct_message_initiator_group: group['role:members'],
        can_access_all_users_group: group['role:everyone'],
      },
    ],
    zerver_client: [
      { id: 1, name: 'website' },
      { id: 2, name: 'ZulipMobile' },
      { id: 3, name: 'Internal' },
    ],
    zerver_userprofile: users,
    zerver_userprofile_mirrordummy: [mirrorDummy],
    zerver_userprofile_crossrealm: [
      { id: ids.notificationBot, email: 'notification-bot@zulip.com', recipient_id: 1 },
      { id: ids.welcomeBot, email: 'welcome-bot@zulip.com', recipient_id: 2 },
    ],
    zerver_stream: streams,
    zerver_huddle: [
      {
        id: ids.huddle,
        huddle_hash: createHash('sha1').update([ids.alice, ids.bob, ids.carol].join(',')).digest('hex'),
        group_size: 3,
        recipient: ids.huddleRecipient,
      },
    ],
    zerver_recipient: recipients,
    zerver_subscription: subscriptions,
    zerver_realmauthenticationmethod: [{ id: 1, realm: ids.realm, name: 'Email' }],
    zerver_defaultstream: [{ id: 1, realm: ids.realm, stream: ids.general }],
    zerver_realmemoji: [{ id: ids.emoji, realm: ids.realm, author: ids.alice, name: 'acme', file_name: `${ids.emoji}.png`, is_animated: false, deactivated: false }],
    zerver_realmdomain: [{ id: 1, realm: ids.realm, domain: 'acme.example', allow_subdomains: false }],
    zerver_realmfilter: [
      {
        id: 1,
        realm: ids.realm,
        pattern: 'ACME-(?P<id>[0-9]+)',
        url_template: 'https://tracker.acme.example/{id}',
        order: 0,
        example_input: 'ACME-12',
        reverse_template: 'ACME-{id}',
        alternative_url_templates: ['https://old-tracker.acme.example/{id}'],
      },
    ],
    zerver_realmplayground: [{ id: 1, realm: ids.realm, name: 'Rust playground', pygments_language: 'rust', url_template: 'https://play.rust.example/?code={code}' }],
    zerver_userpresence: [{ id: 1, user_profile: ids.alice, realm: ids.realm, last_active_time: T0 + 500.5, last_connected_time: T0 + 600.25, last_update_id: 7 }],
    zerver_presencesequence: [{ id: 1, realm: ids.realm, last_update_id: 7 }],
    zerver_useractivity: [{ id: 1, user_profile: ids.alice, client: 1, query: 'send_message_backend', count: 12, last_visit: T0 + 700 }],
    zerver_useractivityinterval: [{ id: 1, user_profile: ids.alice, start: T0, end: T0 + 900 }],
    zerver_realmauditlog: [{ id: 1, realm: ids.realm, event_type: 215, event_time: T0, acting_user: ids.alice, modified_user: null, extra_data: {} }],
    zerver_customprofilefield: [
      { id: ids.field, realm: ids.realm, name: 'Team', hint: 'Where you work', field_type: 1, field_data: '', order: 1, display_in_profile_summary: true, required: false, editable_by_user: true },
    ],
    zerver_customprofilefieldvalue: [{ id: 1, user_profile: ids.bob, field: ids.field, value: 'Frontend', rendered_value: '<p>Frontend</p>' }],
    zerver_reaction: [
      { id: 1, user_profile: ids.bob, message: 1000, emoji_name: 'acme', emoji_code: String(ids.emoji), reaction_type: 'realm_emoji' },
      { id: 2, user_profile: ids.carol, message: 1000, emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' },
    ],
    zerver_usergroup: [...Object.values(group).map((id) => ({ id, realm: ids.realm }))],
    zerver_namedusergroup: namedGroups,
    zerver_usergroupmembership: [
      member(group['role:owners'], ids.alice),
      member(group['role:moderators'], ids.dave),
      member(group['role:fullmembers'], ids.bob),
      member(group['role:members'], ids.bob),
      member(group['role:members'], ids.robot),
      member(group['role:fullmembers'], ids.robot),
      member(group['role:everyone'], ids.carol),
      member(group.frontend, ids.bob),
      member(group.frontendManagers, ids.alice),
    ],
    zerver_groupgroupmembership: [
      subgroup(group['role:administrators'], group['role:owners']),
      subgroup(group['role:moderators'], group['role:administrators']),
      subgroup(group['role:fullmembers'], group['role:moderators']),
      subgroup(group['role:members'], group['role:fullmembers']),
      subgroup(group['role:everyone'], group['role:members']),
      subgroup(group['role:internet'], group['role:everyone']),
    ],
    zerver_usertopic: [
      { id: 1, user_profile: ids.bob, stream: ids.general, recipient: ids.generalRecipient, topic_name: 'welcome', last_updated: T0 + 800, visibility_policy: 3 },
    ],
    zerver_muteduser: [{ id: 1, user_profile: ids.bob, muted_user: ids.carol, date_muted: T0 + 810 }],
    zerver_userstatus: [
      { id: 1, user_profile: ids.bob, timestamp: T0 + 820, client: 1, status_text: 'Building', emoji_name: 'hammer', emoji_code: '1f528', reaction_type: 'unicode_emoji' },
    ],
    zerver_alertword: [{ id: 1, user_profile: ids.bob, realm: ids.realm, word: 'Deploy' }],
    // Zulip 10.2 writes the whole RealmUserDefault row: every setting of its UserBaseSettings,
    // here at Zulip's defaults but for twenty_four_hour_time, enter_sends and emojiset.
    zerver_realmuserdefault: [
      {
        id: 1,
        realm: ids.realm,
        enter_sends: true,
        left_side_userlist: false,
        default_language: 'en',
        web_home_view: 'inbox',
        web_escape_navigates_to_home_view: true,
        fluid_layout_width: false,
        high_contrast_mode: false,
        translate_emoticons: false,
        display_emoji_reaction_users: true,
        twenty_four_hour_time: true,
        starred_message_counts: true,
        web_suggest_update_timezone: true,
        color_scheme: 1,
        web_font_size_px: 16,
        web_line_height_percent: 140,
        web_animate_image_previews: 'on_hover',
        demote_inactive_streams: 1,
        web_mark_read_on_scroll_policy: 1,
        web_channel_default_view: 1,
        emojiset: 'google-blob',
        user_list_style: 3,
        web_stream_unreads_count_display_policy: 2,
        web_navigate_to_sent_message: true,
        email_notifications_batching_period_seconds: 120,
        enable_stream_desktop_notifications: false,
        enable_stream_email_notifications: false,
        enable_stream_push_notifications: false,
        enable_stream_audible_notifications: false,
        notification_sound: 'zulip',
        wildcard_mentions_notify: true,
        enable_followed_topic_desktop_notifications: true,
        enable_followed_topic_email_notifications: true,
        enable_followed_topic_push_notifications: true,
        enable_followed_topic_audible_notifications: true,
        enable_followed_topic_wildcard_mentions_notify: true,
        enable_desktop_notifications: true,
        pm_content_in_desktop_notifications: true,
        enable_sounds: true,
        enable_offline_email_notifications: true,
        message_content_in_email_notifications: true,
        enable_offline_push_notifications: true,
        enable_online_push_notifications: true,
        desktop_icon_count_display: 1,
        enable_digest_emails: true,
        enable_login_emails: true,
        enable_marketing_emails: true,
        presence_enabled: true,
        realm_name_in_email_notifications_policy: 1,
        automatically_follow_topics_policy: 3,
        automatically_unmute_topics_in_muted_streams_policy: 2,
        automatically_follow_topics_where_mentioned: true,
        enable_drafts_synchronization: true,
        send_stream_typing_notifications: true,
        send_private_typing_notifications: true,
        send_read_receipts: true,
        allow_private_data_export: false,
        receives_typing_notifications: true,
        email_address_visibility: 1,
        hide_ai_features: false,
      },
    ],
    // Zulip 10.2 writes every field of SavedSnippet, date_created in seconds.
    zerver_savedsnippet: [{ id: 7, realm: ids.realm, user_profile: ids.bob, title: 'Standup', content: 'Yesterday:\nToday:', date_created: T0 + 900.5 }],
    zerver_scheduledmessage: [
      {
        id: 2,
        sender: ids.bob,
        recipient: personal(ids.bob),
        subject: '',
        content: 'remember the milk',
        rendered_content: '<p>remember the milk</p>',
        sending_client: 1,
        stream: null,
        realm: ids.realm,
        scheduled_timestamp: 4_000_000_000,
        read_by_sender: true,
        delivered: false,
        // A reminder (Zulip's REMIND) of message 1006, with its note (levels 381 and 415).
        delivery_type: 2,
        reminder_target_message_id: 1006,
        reminder_note: 'milk',
        failed: false,
        has_attachment: false,
      },
      {
        id: 1,
        sender: ids.bob,
        recipient: ids.generalRecipient,
        subject: 'later',
        content: 'a message for later',
        rendered_content: '<p>a message for later</p>',
        sending_client: 1,
        stream: ids.general,
        realm: ids.realm,
        // Far ahead, so the server does not send it as soon as it starts.
        scheduled_timestamp: 4_000_000_000,
        read_by_sender: true,
        delivered: false,
        delivered_message: null,
        has_attachment: false,
        failed: false,
        failure_message: null,
        delivery_type: 1,
      },
    ],
    zerver_botstoragedata: [{ id: 1, bot_profile: ids.robot, key: 'counter', value: '3' }],
    zerver_botconfigdata: [],
    zerver_service: [{ id: 1, name: 'robot', base_url: 'https://robot.acme.example/hook', user_profile: ids.robot, interface: 1, token: 'tokenfromzulip' }],
    zerver_userprofile_user_permissions: [],
    import_source: 'zulip',
  };

  let userMessageId = 1;
  const message = (id: number, sender: number, recipient: number, content: string, rendered: string, fields: Row = {}): Row => ({
    id,
    sender,
    recipient,
    realm: ids.realm,
    subject: '',
    content,
    rendered_content: rendered,
    rendered_content_version: 1,
    date_sent: T0 + id,
    sending_client: 1,
    last_edit_time: null,
    edit_history: null,
    has_attachment: false,
    has_image: false,
    has_link: false,
    type: 1,
    is_channel_message: recipient === ids.generalRecipient || recipient === ids.engineeringRecipient,
    ...fields,
  });
  const userMessage = (userId: number, messageId: number, flags: Array<keyof typeof FLAG_BIT>) => ({
    id: userMessageId++,
    user_profile: userId,
    message: messageId,
    flags_mask: flags.reduce((mask, name) => mask | FLAG_BIT[name], 0),
  });
  const edits = [
    // Zulip writes edit times as whole seconds.
    { user_id: ids.bob, timestamp: Math.floor(T0 + 2000), prev_topic: 'draft', topic: 'design' },
    {
      user_id: ids.bob,
      timestamp: Math.floor(T0 + 1500),
      prev_content: 'The plan, see the spec',
      prev_rendered_content: '<p>The plan, see the spec</p>',
      prev_rendered_content_version: 1,
    },
  ];
  const messageFiles = [
    {
      zerver_message: [
        message(1000, ids.alice, ids.generalRecipient, 'Hello @**Bob Builder** and @*frontend*', `<p>Hello <span class="user-mention" data-user-id="${ids.bob}">@Bob Builder</span> and <span class="user-group-mention" data-user-group-id="${group.frontend}">@frontend</span></p>`, { subject: 'welcome' }),
        message(1001, ids.bob, personal(ids.alice), 'Hi Alice', '<p>Hi Alice</p>', { sending_client: 2 }),
        message(1002, ids.alice, personal(ids.bob), 'Hi Bob', '<p>Hi Bob</p>'),
      ],
      zerver_usermessage: [
        userMessage(ids.alice, 1000, ['read']),
        userMessage(ids.bob, 1000, ['read', 'mentioned', 'group_mentioned', 'starred']),
        userMessage(ids.carol, 1000, []),
        userMessage(ids.bob, 1001, ['read', 'is_private']),
        userMessage(ids.alice, 1001, ['is_private']),
        userMessage(ids.alice, 1002, ['read', 'is_private']),
        userMessage(ids.bob, 1002, ['is_private']),
      ],
    },
    {
      zerver_message: [
        message(1003, ids.bob, ids.huddleRecipient, 'All three of us', '<p>All three of us</p>'),
        message(1004, ids.welcomeBot, personal(ids.bob), 'Welcome to Acme!', '<p>Welcome to Acme!</p>', { sending_client: 3 }),
        message(1005, ids.bob, ids.engineeringRecipient, `The plan, see [spec.txt](/user_uploads/${UPLOAD_PATH})`, `<p>The plan, see <a href="/user_uploads/${UPLOAD_PATH}">spec.txt</a></p>`, {
          subject: 'design',
          has_attachment: true,
          has_link: true,
          // Zulip's last_edit_time is the last change of any kind: here the move.
          last_edit_time: T0 + 2000,
          edit_history: JSON.stringify(edits),
        }),
        message(1006, ids.bob, personal(ids.bob), 'note to self', '<p>note to self</p>'),
      ],
      zerver_usermessage: [
        userMessage(ids.alice, 1003, ['read', 'is_private']),
        userMessage(ids.bob, 1003, ['read', 'is_private']),
        userMessage(ids.carol, 1003, ['is_private']),
        userMessage(ids.bob, 1004, ['is_private']),
        userMessage(ids.alice, 1005, ['starred']),
        userMessage(ids.bob, 1005, ['read']),
        userMessage(ids.bob, 1006, ['read', 'is_private']),
      ],
    },
  ];

  const avatar = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 200, g: 120, b: 0 } } }).png().toBuffer();
  const emojiImage = await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 90, b: 200, alpha: 1 } } }).png().toBuffer();
  const avatarBase = `${ids.realm}/${createHash('sha1').update(`avatar-${ids.bob}`).digest('hex')}`;
  const emojiPath = `${ids.realm}/emoji/images/${ids.emoji}.png`;
  const files = new Map<string, Buffer>([
    [`uploads/${UPLOAD_PATH}`, UPLOAD_BYTES],
    [`avatars/${avatarBase}.original`, avatar],
    [`avatars/${avatarBase}.png`, avatar],
    [`avatars/${avatarBase}-medium.png`, avatar],
    [`emoji/${emojiPath}`, emojiImage],
    [`emoji/${emojiPath}.original`, emojiImage],
  ]);
  const avatarRecord = (suffix: string) => ({
    realm_id: ids.realm,
    user_profile_id: ids.bob,
    user_profile_email: 'bob@acme.example',
    avatar_version: 2,
    s3_path: `${avatarBase}${suffix}`,
    path: `${avatarBase}${suffix}`,
    content_type: 'image/png',
    md5: createHash('md5').update(avatar).digest('hex'),
    size: avatar.length,
    last_modified: T0 + 900,
  });
  const emojiRecord = (suffix: string) => ({
    realm_id: ids.realm,
    user_profile_id: ids.alice,
    user_profile_email: 'alice@acme.example',
    author: ids.alice,
    file_name: `${ids.emoji}.png`,
    name: 'acme',
    deactivated: false,
    s3_path: `${emojiPath}${suffix}`,
    path: `${emojiPath}${suffix}`,
  });
  return {
    realm,
    messageFiles,
    attachment: {
      zerver_attachment: [
        {
          id: ids.attachment,
          file_name: 'spec.txt',
          path_id: UPLOAD_PATH,
          realm: ids.realm,
          owner: ids.bob,
          create_time: T0 + 1400.5,
          size: UPLOAD_BYTES.length,
          content_type: 'text/plain',
          is_realm_public: false,
          is_web_public: false,
          messages: [1005],
          scheduled_messages: [],
        },
      ],
    },
    records: {
      uploads: [
        {
          realm_id: ids.realm,
          user_profile_id: ids.bob,
          user_profile_email: 'bob@acme.example',
          s3_path: UPLOAD_PATH,
          path: UPLOAD_PATH,
          size: UPLOAD_BYTES.length,
          last_modified: T0 + 1400,
          content_type: 'text/plain',
        },
      ],
      avatars: [avatarRecord('.original'), avatarRecord('.png'), avatarRecord('-medium.png')],
      emoji: [emojiRecord(''), emojiRecord('.original')],
      realm_icons: [],
    },
    files,
  };
}

/** Writes the fixture as an export folder (zulip-export-<id>/ inside `into`); returns its path. */
export function writeZulipExport(fixture: ZulipExportFixture, into: string): string {
  const root = path.join(into, 'zulip-export-1a2b3c4d');
  mkdirSync(root, { recursive: true });
  const json = (name: string, value: unknown) => {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), JSON.stringify(value, null, 2));
  };
  json('migration_status.json', { zulip_version: '10.2', migrations_by_app: { zerver: ['0001_initial', '0680_rename_general_chat_to_empty_string_topic'] } });
  json('realm.json', fixture.realm);
  fixture.messageFiles.forEach((file, i) => json(`messages-${String(i + 1).padStart(6, '0')}.json`, file));
  json('attachment.json', fixture.attachment);
  json('analytics.json', { analytics_realmcount: [], analytics_usercount: [], analytics_streamcount: [] });
  for (const [folder, records] of Object.entries(fixture.records)) json(`${folder}/records.json`, records);
  for (const [name, bytes] of fixture.files) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), bytes);
  }
  json('stats.json', { realm: { zerver_userprofile: fixture.realm.zerver_userprofile.length } });
  return root;
}

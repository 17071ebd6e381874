import { existsSync } from 'node:fs';
import type { Db } from '../db';
import { REALM_SETTINGS } from '../realm/settings';
import { NOT_ORGANIZATION_DEFAULTS, USER_SETTINGS } from '../users/settings';
import {
  CROSS_REALM_BOT_EMAIL,
  DATE_FIELDS,
  EDIT_HISTORY_VISIBILITY,
  EMAIL_AUTH_BACKEND,
  ExportType,
  type ExportTypeValue,
  type FileRecord,
  MESSAGES_PER_FILE,
  REALM_CHANNEL_SETTINGS,
  REALM_GROUP_SETTINGS,
  REALM_PLAIN_SETTINGS,
  zulip10UserSetting,
  realmField,
  RecipientType,
  RENDERED_CONTENT_VERSION,
  ScheduledDeliveryType,
  STREAM_GROUP_SETTINGS,
  STOA_EXTRA_TABLES,
  type StoaExtras,
  STREAM_EXTRA_COLUMNS,
  EXTRA_COLUMNS,
  SUBSCRIPTION_SETTINGS,
  USER_GROUP_SETTINGS,
  USER_ROW_SETTINGS,
  ZULIP_REACTION_TYPE,
  zulipEditHistory,
  zulipFlagsOfBits,
  type ZulipExport,
} from './zulip-format';

/** Where the files an export copies are on disk. */
export interface ExportSources {
  /** An uploaded file or custom emoji image, by its path ID in the upload store. */
  upload: (pathId: string) => string;
  /** A user's uploaded avatar (the larger size, which Zulip keeps as the original). */
  avatar: (userId: number) => string;
  /** A custom emoji image's path ID in the upload store. */
  emojiPathId: (realmId: number, fileName: string) => string;
}

export interface BuildOptions {
  type: ExportTypeValue;
  sources: ExportSources;
  /** Called between batches of messages: lets a server answer requests meanwhile. */
  pause?: () => Promise<void>;
}

type Row = Record<string, any>;

const seconds = (ms: number) => ms / 1000;
const bool = (value: unknown) => value === 1 || value === true;
const nullableBool = (value: unknown) => (value === null || value === undefined ? null : bool(value));

/** Messages read at once; a messages file is closed once it holds MESSAGES_PER_FILE or more. */
const MESSAGES_PER_READ = 250;

/** The colors Zulip picks from for a subscription whose owner's own choice is not exported. */
const NEUTRAL_SUBSCRIPTION_COLOR = '#c2c2c2';

/**
 * Reads one consistent snapshot of the database into Zulip's export tables. The caller runs it
 * inside one read transaction (on a connection of its own when it pauses between batches), so
 * every table describes the same moment.
 *
 * Private data follows Zulip's rules for the export type: a public export has no direct
 * messages, no private channels' messages and nobody's personal data; an export with consent
 * has those only of users who turned on allow_private_data_export (and bots they own), and
 * people who did not become inactive "mirror dummy" accounts that can be claimed by signing up
 * with the same email; a full export (the command line's) has everything.
 */
export async function buildZulipExport(db: Db, options: BuildOptions): Promise<ZulipExport> {
  const all = <T = Row>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[];
  const realm = db.prepare('SELECT * FROM realm WHERE id = 1').get() as Row;
  const realmId = realm.id as number;

  // Settings as stored; defaults come from the definitions.
  const realmSettings = new Map(all<{ key: string; value: string }>('SELECT key, value FROM realm_settings').map((r) => [r.key, JSON.parse(r.value)]));
  const groupIdByName = new Map(all<{ id: number; name: string }>('SELECT id, name FROM user_groups WHERE name IS NOT NULL').map((g) => [g.name, g.id]));
  const realmSetting = (key: string): unknown => {
    if (realmSettings.has(key)) return realmSettings.get(key);
    const def = REALM_SETTINGS.find((d) => d.key === key)!;
    return def.groupSetting ? groupIdByName.get(def.default as string) : def.default;
  };

  const users = all('SELECT * FROM users ORDER BY id');
  const systemBots = users.filter((u) => u.is_system_bot === 1);
  const realmUsers = users.filter((u) => u.is_system_bot === 0);
  const systemBotIds = new Set(systemBots.map((u) => u.id as number));
  const realmUserIds = new Set(realmUsers.map((u) => u.id as number));

  const settingsByUser = new Map<number, Map<string, unknown>>();
  for (const s of all<{ user_id: number; name: string; value: string }>('SELECT user_id, name, value FROM user_settings')) {
    if (!settingsByUser.has(s.user_id)) settingsByUser.set(s.user_id, new Map());
    settingsByUser.get(s.user_id)!.set(s.name, JSON.parse(s.value));
  }
  const userSetting = (userId: number, name: string) => {
    const stored = settingsByUser.get(userId);
    return stored?.has(name) ? stored.get(name) : USER_SETTINGS.find((d) => d.name === name)!.default;
  };

  // Who has consented to their private data leaving with the export (Zulip's rule: people who
  // allowed it, bots that allowed it, and bots owned by people who did).
  const consenting = new Set<number>();
  if (options.type === ExportType.FULL_WITHOUT_CONSENT) {
    for (const u of realmUsers) consenting.add(u.id);
  } else if (options.type === ExportType.FULL_WITH_CONSENT) {
    const humans = new Set(realmUsers.filter((u) => !u.is_bot && userSetting(u.id, 'allow_private_data_export') === true).map((u) => u.id));
    for (const u of realmUsers) {
      if (humans.has(u.id)) consenting.add(u.id);
      else if (u.is_bot && (userSetting(u.id, 'allow_private_data_export') === true || humans.has(u.bot_owner_id))) consenting.add(u.id);
    }
  }
  const full = options.type === ExportType.FULL_WITHOUT_CONSENT;

  // ---- Recipients. Zulip 10.2 sends a one-to-one direct message to the receiver's personal
  // recipient and a note to oneself to one's own; Stoa files every conversation under a direct
  // message group (Zulip's model from level 482 on). Those of one or two people become
  // personal-recipient messages; conversations of three or more stay Zulip's direct message
  // groups. Every user has a personal recipient in Zulip, made here where Stoa has none.
  const recipients = all('SELECT id, type, type_id FROM recipients ORDER BY id');
  let nextRecipientId = Math.max(0, ...recipients.map((r) => r.id as number)) + 1;
  const personalRecipient = new Map<number, number>();
  for (const r of recipients) if (r.type === RecipientType.PERSONAL) personalRecipient.set(r.type_id, r.id);
  for (const u of users) if (!personalRecipient.has(u.id)) personalRecipient.set(u.id, nextRecipientId++);

  const dmGroups = all<{ id: number; user_ids: string; recipient_id: number | null }>('SELECT id, user_ids, recipient_id FROM direct_message_groups ORDER BY id');
  const groupMembers = new Map<number, number[]>();
  for (const g of dmGroups) if (g.recipient_id !== null) groupMembers.set(g.recipient_id, g.user_ids.split(',').map(Number));
  /** The people of a one-to-one conversation or a note to oneself, which Zulip 10.2 files under personal recipients. */
  const oneToOne = (recipientId: number) => {
    const members = groupMembers.get(recipientId);
    return members && members.length <= 2 ? members : undefined;
  };

  const streams = all('SELECT * FROM streams ORDER BY id');
  const streamById = new Map(streams.map((s) => [s.id as number, s]));
  const streamRecipient = new Map(streams.map((s) => [s.recipient_id as number, s]));

  // Which direct message groups (3+) leave with the export: Zulip keeps only those with a
  // consenting member, and drops any that include a system bot (a cross-realm user).
  const exportedGroups = dmGroups.filter((g) => {
    const members = g.user_ids.split(',').map(Number);
    if (members.length < 3 || g.recipient_id === null) return false;
    if (members.some((id) => systemBotIds.has(id))) return false;
    return options.type !== ExportType.PUBLIC && members.some((id) => consenting.has(id));
  });
  const exportedGroupRecipients = new Set(exportedGroups.map((g) => g.recipient_id!));

  // ---- Messages: which ones, and the recipient each gets in Zulip's model.
  const consentingSubscribed = new Set<number>(
    all<{ recipient_id: number; user_id: number }>('SELECT recipient_id, user_id FROM subscriptions')
      .filter((s) => consenting.has(s.user_id))
      .map((s) => s.recipient_id),
  );
  const hasConsentingRow = db.prepare('SELECT 1 FROM user_messages_all WHERE message_id = ? AND user_id = ?');
  const messageVisible = (m: Row): boolean => {
    if (full) return true;
    const stream = m.stream_id === null ? undefined : streamById.get(m.stream_id);
    if (stream) {
      if (!stream.invite_only) return true;
      if (options.type === ExportType.PUBLIC || !consentingSubscribed.has(stream.recipient_id)) return false;
      if (stream.history_public_to_subscribers) return true;
      return [...consenting].some((id) => hasConsentingRow.get(m.id, id) !== undefined);
    }
    if (options.type === ExportType.PUBLIC) return false;
    const people = oneToOne(m.recipient_id);
    if (people) return people.some((id) => consenting.has(id));
    return exportedGroupRecipients.has(m.recipient_id);
  };
  // Recipients that leave with the export (cross-realm bots' personal ones are mapped by the
  // importer): a message addressed elsewhere, such as a group that includes a system bot,
  // would point at nothing.
  const exportedRecipients = new Set<number>([
    ...users.map((u) => personalRecipient.get(u.id)!),
    ...streams.map((s) => s.recipient_id as number),
    ...exportedGroupRecipients,
  ]);
  const zulipRecipient = (m: Row): number | undefined => {
    const people = oneToOne(m.recipient_id);
    if (!people) return m.recipient_id;
    const other = people.find((id) => id !== m.sender_id) ?? m.sender_id;
    return personalRecipient.get(other);
  };

  const clients = new Map<string, number>();
  const clientId = (name: string) => {
    if (!clients.has(name)) clients.set(name, clients.size + 1);
    return clients.get(name)!;
  };
  const userMessageUsers = new Set([...realmUsers].filter((u) => options.type !== ExportType.FULL_WITH_CONSENT || consenting.has(u.id)).map((u) => u.id as number));

  const messageIds = new Set<number>();
  const messageFiles: ZulipExport['messageFiles'] = [];
  const selectMessages = db.prepare(
    `SELECT id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent, sending_client,
       last_edit_time, last_moved_time, edit_history, has_attachment, has_image, has_link
     FROM messages WHERE id > ? ORDER BY id LIMIT ?`,
  );
  const selectUserMessages = db.prepare(
    'SELECT user_id, message_id, flags FROM user_messages_all WHERE message_id BETWEEN ? AND ? ORDER BY message_id, user_id',
  );
  let userMessageId = 1;
  let after = 0;
  // Messages are read a few hundred at a time, with a pause between reads, and gathered into
  // files of MESSAGES_PER_FILE: a short read keeps a running server answering meanwhile.
  let file: ZulipExport['messageFiles'][number] = { zerver_message: [], zerver_usermessage: [] };
  for (;;) {
    const batch = selectMessages.all(after, MESSAGES_PER_READ) as Row[];
    if (batch.length === 0) break;
    after = batch[batch.length - 1].id;
    const kept = batch.filter((m) => messageVisible(m) && exportedRecipients.has(zulipRecipient(m)!));
    if (kept.length > 0) {
      const keptIds = new Set(kept.map((m) => m.id as number));
      for (const m of kept) {
        messageIds.add(m.id);
        file.zerver_message.push({
          id: m.id,
          sender: m.sender_id,
          recipient: zulipRecipient(m),
          realm: realmId,
          subject: m.topic,
          content: m.content,
          rendered_content: m.rendered_content,
          rendered_content_version: RENDERED_CONTENT_VERSION,
          date_sent: m.date_sent,
          sending_client: clientId(m.sending_client),
          // Zulip's last_edit_time is the last change of any kind: a move counts.
          last_edit_time: m.last_edit_time === null && m.last_moved_time === null ? null : Math.max(m.last_edit_time ?? 0, m.last_moved_time ?? 0),
          edit_history: zulipEditHistory(m.edit_history),
          has_attachment: bool(m.has_attachment),
          has_image: bool(m.has_image),
          has_link: bool(m.has_link),
          is_channel_message: m.stream_id !== null,
        });
      }
      for (const um of selectUserMessages.all(batch[0].id, after) as Row[]) {
        if (!keptIds.has(um.message_id) || !userMessageUsers.has(um.user_id)) continue;
        file.zerver_usermessage.push({ id: userMessageId++, user_profile: um.user_id, message: um.message_id, flags_mask: zulipFlagsOfBits(um.flags) });
      }
      if (file.zerver_message.length >= MESSAGES_PER_FILE) {
        messageFiles.push(file);
        file = { zerver_message: [], zerver_usermessage: [] };
      }
    }
    if (options.pause) await options.pause();
  }
  if (file.zerver_message.length > 0) messageFiles.push(file);

  // ---- The organization's defaults for new users, in Zulip's RealmUserDefault.
  const storedDefaults = new Map(
    all<{ name: string; value: string }>('SELECT name, value FROM realm_user_settings_defaults ORDER BY name').map((d) => [d.name, JSON.parse(d.value)]),
  );
  const zerverRealmUserDefault: Row = { id: 1, realm: realmId };
  /** Defaults Zulip 10 has no field for, where the organization changed them. */
  const newerDefaults: Record<string, unknown> = {};
  for (const def of USER_SETTINGS) {
    if (NOT_ORGANIZATION_DEFAULTS.has(def.name)) continue;
    const value = storedDefaults.has(def.name) ? storedDefaults.get(def.name) : def.default;
    const setting = zulip10UserSetting(def.name, value);
    if (setting) zerverRealmUserDefault[def.name] = setting.value;
    else if (storedDefaults.has(def.name)) newerDefaults[def.name] = value;
  }

  /** Fields of the RealmUserDefault row that are no personal setting to copy onto a user row. */
  const notUserSettings = new Set(['id', 'realm', ...USER_ROW_SETTINGS]);
  // ---- Users.
  const privateAllowed = (userId: number) => consenting.has(userId);
  const dummyEmail = (userId: number) => `exported-user-${userId}@export.invalid`;
  const normalUsers: Row[] = [];
  const dummyUsers: Row[] = [];
  for (const u of realmUsers) {
    const row: Row = {
      id: u.id,
      realm: realmId,
      email: u.email,
      delivery_email: u.delivery_email,
      full_name: u.full_name,
      is_active: bool(u.is_active),
      is_bot: bool(u.is_bot),
      bot_type: u.bot_type,
      bot_owner: systemBotIds.has(u.bot_owner_id) ? null : u.bot_owner_id,
      role: u.role,
      date_joined: seconds(u.date_joined_ms),
      last_login: null,
      last_reminder: null,
      is_mirror_dummy: false,
      can_create_users: bool(u.can_create_users),
      can_change_user_emails: bool(u.can_change_user_emails),
      tos_version: null,
      timezone: u.timezone,
      avatar_source: u.avatar_source,
      avatar_version: u.avatar_version,
      email_address_visibility: u.email_address_visibility,
      default_sending_stream: u.default_sending_stream_id,
      default_events_register_stream: u.default_events_register_stream_id,
      default_all_public_streams: bool(u.default_all_public_streams),
      last_active_message_id: null,
      long_term_idle: false,
      recipient: personalRecipient.get(u.id),
      // Django's permission tables, which Zulip does not use; the importer removes them.
      user_permissions: [],
      groups: [],
    };
    // Personal settings are private data: without consent they are the organization's
    // defaults for new users, as in Zulip's consent exports (the email visibility aside).
    if (privateAllowed(u.id)) {
      for (const def of USER_SETTINGS) {
        const setting = USER_ROW_SETTINGS.has(def.name) ? undefined : zulip10UserSetting(def.name, userSetting(u.id, def.name));
        if (setting) row[def.name] = setting.value;
      }
    } else {
      for (const [name, value] of Object.entries(zerverRealmUserDefault)) if (!notUserSettings.has(name)) row[name] = value;
    }
    if (!full && !privateAllowed(u.id)) {
      if (options.type === ExportType.FULL_WITH_CONSENT && u.is_active) {
        row.is_mirror_dummy = true;
        row.is_active = false;
      }
      // An address hidden even from administrators does not leave with an export.
      if (u.email_address_visibility === 4) {
        row.delivery_email = dummyEmail(u.id);
        if (options.type === ExportType.PUBLIC) {
          row.is_mirror_dummy = true;
          row.is_active = false;
        }
      }
    }
    (row.is_mirror_dummy ? dummyUsers : normalUsers).push(row);
  }
  // Each of the server's own bots by its name at Zulip's domain (notification-bot@, welcome-bot@),
  // as Zulip's exports name them; the import maps each back to its own bot.
  const crossRealm = systemBots.map((bot) => ({
    id: bot.id,
    email: `${String(bot.delivery_email).split('@')[0]}@${CROSS_REALM_BOT_EMAIL.notificationBot.split('@')[1]}`,
    recipient_id: personalRecipient.get(bot.id),
  }));

  // ---- Channels.
  const zerverStreams = streams.map((s) => {
    const row: Row = {
      id: s.id,
      realm: realmId,
      name: s.name,
      description: s.description,
      rendered_description: s.rendered_description,
      date_created: s.date_created,
      creator: realmUserIds.has(s.creator_id) ? s.creator_id : null,
      deactivated: bool(s.is_archived),
      invite_only: bool(s.invite_only),
      is_web_public: bool(s.is_web_public),
      history_public_to_subscribers: bool(s.history_public_to_subscribers),
      message_retention_days: s.message_retention_days,
      first_message_id: s.first_message_id,
      recipient: s.recipient_id,
    };
    for (const setting of STREAM_GROUP_SETTINGS) row[setting] = s[`${setting}_id`];
    return row;
  });

  // ---- Recipients and subscriptions, as Zulip keeps them.
  const zerverRecipients: Row[] = [];
  const zerverSubscriptions: Row[] = [];
  let subscriptionId = 1;
  for (const u of realmUsers) {
    zerverRecipients.push({ id: personalRecipient.get(u.id), type: RecipientType.PERSONAL, type_id: u.id });
    zerverSubscriptions.push({
      id: subscriptionId++,
      user_profile: u.id,
      recipient: personalRecipient.get(u.id),
      active: true,
      is_user_active: bool(u.is_active),
      color: NEUTRAL_SUBSCRIPTION_COLOR,
      is_muted: false,
    });
  }
  for (const s of streams) if (s.recipient_id !== null) zerverRecipients.push({ id: s.recipient_id, type: RecipientType.STREAM, type_id: s.id });
  for (const g of exportedGroups) zerverRecipients.push({ id: g.recipient_id, type: RecipientType.DIRECT_MESSAGE_GROUP, type_id: g.id });
  const activeById = new Map(realmUsers.map((u) => [u.id as number, bool(u.is_active)]));
  for (const sub of all('SELECT * FROM subscriptions ORDER BY recipient_id, user_id')) {
    if (!realmUserIds.has(sub.user_id) || !streamRecipient.has(sub.recipient_id)) continue;
    const row: Row = {
      id: subscriptionId++,
      user_profile: sub.user_id,
      recipient: sub.recipient_id,
      active: bool(sub.active),
      is_user_active: activeById.get(sub.user_id),
      color: NEUTRAL_SUBSCRIPTION_COLOR,
    };
    // A user's color and notification choices are theirs: without consent, defaults.
    if (privateAllowed(sub.user_id)) {
      row.color = sub.color;
      for (const field of SUBSCRIPTION_SETTINGS) row[field] = field === 'is_muted' || field === 'pin_to_top' ? bool(sub[field]) : nullableBool(sub[field]);
    }
    zerverSubscriptions.push(row);
  }
  for (const g of exportedGroups) {
    for (const member of g.user_ids.split(',').map(Number)) {
      zerverSubscriptions.push({
        id: subscriptionId++,
        user_profile: member,
        recipient: g.recipient_id,
        active: true,
        is_user_active: activeById.get(member),
        color: NEUTRAL_SUBSCRIPTION_COLOR,
      });
    }
  }
  const zerverHuddles = exportedGroups.map((g) => ({ id: g.id, huddle_hash: '', group_size: g.user_ids.split(',').length, recipient: g.recipient_id }));

  // ---- The organization.
  const zerverRealm: Row = {
    id: realmId,
    name: realm.name,
    string_id: realm.string_id,
    description: realm.description,
    date_created: realm.date_created,
    deactivated: bool(realm.deactivated),
    uuid: realm.uuid,
  };
  for (const key of REALM_PLAIN_SETTINGS) zerverRealm[realmField(key)] = realmSetting(key);
  zerverRealm.message_edit_history_visibility_policy =
    EDIT_HISTORY_VISIBILITY[realmSetting('realm_message_edit_history_visibility_policy') as keyof typeof EDIT_HISTORY_VISIBILITY];
  // Zulip 10.2 has the empty-topic rule as a flag; "allow_empty_topic" is its default.
  zerverRealm.mandatory_topics = realmSetting('realm_topics_policy') === 'disable_empty_topic';
  for (const [key, field] of Object.entries(REALM_CHANNEL_SETTINGS)) {
    const channel = realmSetting(key) as number;
    zerverRealm[field] = streamById.has(channel) ? channel : null;
  }
  for (const key of REALM_GROUP_SETTINGS) zerverRealm[realmField(key)] = realmSetting(key);

  // ---- User groups: Stoa's named groups are Zulip's NamedUserGroup, its anonymous ones a
  // bare UserGroup, exactly as Zulip splits them.
  const groups = all('SELECT * FROM user_groups ORDER BY id');
  const zerverUserGroups = groups.map((g) => ({ id: g.id, realm: realmId }));
  const zerverNamedUserGroups = groups
    .filter((g) => g.name !== null)
    .map((g) => {
      const row: Row = {
        id: g.id,
        usergroup_ptr: g.id,
        realm_for_sharding: realmId,
        name: g.name,
        description: g.description,
        is_system_group: bool(g.is_system_group),
        deactivated: bool(g.deactivated),
        date_created: g.date_created,
        creator: realmUserIds.has(g.creator_id) ? g.creator_id : null,
      };
      for (const setting of USER_GROUP_SETTINGS) row[setting] = g[`${setting}_id`];
      return row;
    });
  let membershipId = 1;
  const zerverMemberships = all('SELECT group_id, user_id FROM user_group_members ORDER BY group_id, user_id')
    .filter((m) => realmUserIds.has(m.user_id))
    .map((m) => ({ id: membershipId++, user_group: m.group_id, user_profile: m.user_id }));
  let groupMembershipId = 1;
  const zerverGroupMemberships = all('SELECT supergroup_id, subgroup_id FROM user_group_subgroups ORDER BY supergroup_id, subgroup_id').map((m) => ({
    id: groupMembershipId++,
    supergroup: m.supergroup_id,
    subgroup: m.subgroup_id,
  }));

  // ---- Smaller tables.
  const zerverDefaultStreams = streams.filter((s) => s.is_default).map((s, i) => ({ id: i + 1, realm: realmId, stream: s.id }));
  const realmEmoji = all('SELECT * FROM realm_emoji ORDER BY id');
  const zerverRealmEmoji = realmEmoji.map((e) => ({
    id: e.id,
    realm: realmId,
    author: realmUserIds.has(e.author_id) ? e.author_id : null,
    name: e.name,
    file_name: e.file_name,
    is_animated: bool(e.is_animated),
    deactivated: bool(e.deactivated),
  }));
  const zerverLinkifiers = all('SELECT * FROM realm_linkifiers ORDER BY id').map((l) => ({
    id: l.id,
    realm: realmId,
    pattern: l.pattern,
    url_template: l.url_template,
    order: l.position,
  }));
  const zerverPlaygrounds = all('SELECT * FROM realm_playgrounds ORDER BY id').map((p) => ({
    id: p.id,
    realm: realmId,
    name: p.name,
    pygments_language: p.language,
    url_template: p.url_template,
  }));
  const zerverProfileFields = all('SELECT * FROM custom_profile_fields ORDER BY id').map((f) => ({
    id: f.id,
    realm: realmId,
    name: f.name,
    hint: f.hint,
    field_type: f.field_type,
    field_data: f.field_data,
    order: f.position,
    display_in_profile_summary: bool(f.display_in_profile_summary),
    required: bool(f.required),
    editable_by_user: bool(f.editable_by_user),
  }));
  let profileValueId = 1;
  const zerverProfileValues = all('SELECT * FROM custom_profile_field_values ORDER BY user_id, field_id')
    .filter((v) => realmUserIds.has(v.user_id))
    .map((v) => ({ id: profileValueId++, user_profile: v.user_id, field: v.field_id, value: v.value, rendered_value: v.rendered_value }));

  let presenceId = 1;
  const presence = all('SELECT * FROM user_presence ORDER BY user_id').filter((p) => realmUserIds.has(p.user_id));
  const zerverPresence = presence.map((p) => ({
    id: presenceId++,
    user_profile: p.user_id,
    realm: realmId,
    last_active_time: p.last_active_ms === null ? null : seconds(p.last_active_ms),
    last_connected_time: seconds(p.last_connected_ms),
    last_update_id: p.last_update_id,
  }));
  const zerverPresenceSequence = [{ id: 1, realm: realmId, last_update_id: Math.max(0, ...presence.map((p) => p.last_update_id as number)) }];

  // Tables of private data, each only for users whose private data may leave.
  const mine = (rows: Row[], userField = 'user_id') => rows.filter((r) => realmUserIds.has(r[userField]) && privateAllowed(r[userField]));
  let userTopicId = 1;
  const zerverUserTopics = mine(all('SELECT * FROM user_topics ORDER BY user_id, stream_id, topic_key')).map((t) => ({
    id: userTopicId++,
    user_profile: t.user_id,
    stream: t.stream_id,
    recipient: streamById.get(t.stream_id)?.recipient_id ?? null,
    topic_name: t.topic,
    last_updated: t.last_updated,
    visibility_policy: t.visibility_policy,
  }));
  let mutedId = 1;
  const zerverMutedUsers = mine(all('SELECT * FROM muted_users ORDER BY user_id, muted_user_id'))
    .filter((m) => realmUserIds.has(m.muted_user_id))
    .map((m) => ({ id: mutedId++, user_profile: m.user_id, muted_user: m.muted_user_id, date_muted: m.date_muted }));
  let statusId = 1;
  const statusClient = clientId('website');
  const zerverStatuses = mine(all('SELECT * FROM user_status ORDER BY user_id')).map((s) => ({
    id: statusId++,
    user_profile: s.user_id,
    timestamp: s.updated_at,
    client: statusClient,
    status_text: s.status_text,
    emoji_name: s.emoji_name,
    emoji_code: s.emoji_code,
    reaction_type: ZULIP_REACTION_TYPE[s.reaction_type] ?? 'unicode_emoji',
  }));
  const zerverAlertWords = mine(all('SELECT * FROM alert_words ORDER BY id')).map((w) => ({ id: w.id, user_profile: w.user_id, realm: realmId, word: w.word }));
  const zerverReactions = all('SELECT * FROM reactions ORDER BY id')
    .filter((r) => messageIds.has(r.message_id) && realmUserIds.has(r.user_id))
    .map((r) => ({
      id: r.id,
      user_profile: r.user_id,
      message: r.message_id,
      emoji_name: r.emoji_name,
      emoji_code: r.emoji_code,
      reaction_type: ZULIP_REACTION_TYPE[r.reaction_type],
    }));

  // ---- Scheduled messages, in the table Zulip 10.2's importer restores them from, for people
  // whose private data may leave (the files they link leave with them, below).
  const dmGroupRecipient = new Map(dmGroups.map((g) => [g.user_ids, g.recipient_id]));
  /** A scheduled message's recipient in Zulip's model, or undefined where the export has none for it. */
  const scheduledRecipient = (s: Row): number | undefined => {
    const to = JSON.parse(s.to_ids) as number[];
    if (s.type === 'stream') return streamById.get(to[0])?.recipient_id;
    const people = [...new Set([...to, s.sender_id as number])].sort((a, b) => a - b);
    if (people.length <= 2) return personalRecipient.get(people.find((id) => id !== s.sender_id) ?? s.sender_id);
    const recipient = dmGroupRecipient.get(people.join(','));
    return recipient !== undefined && recipient !== null && exportedGroupRecipients.has(recipient) ? recipient : undefined;
  };
  const zerverScheduledMessages: Row[] = [];
  /** What Zulip 10.2 cannot hold (see STOA_EXTRA_TABLES), for stoa.json. */
  const scheduledForStoa: Row[] = [];
  for (const s of mine(all('SELECT * FROM scheduled_messages ORDER BY id'), 'sender_id')) {
    const recipient = scheduledRecipient(s);
    if (s.reminder_target_message_id !== null || recipient === undefined || !exportedRecipients.has(recipient)) {
      scheduledForStoa.push(s);
      continue;
    }
    zerverScheduledMessages.push({
      id: s.id,
      sender: s.sender_id,
      recipient,
      subject: s.topic,
      content: s.content,
      rendered_content: s.rendered_content,
      sending_client: clientId(s.sending_client),
      stream: s.type === 'stream' ? (JSON.parse(s.to_ids) as number[])[0] : null,
      realm: realmId,
      scheduled_timestamp: s.scheduled_timestamp,
      read_by_sender: bool(s.read_by_sender),
      delivered: bool(s.delivered),
      delivered_message: messageIds.has(s.delivered_message_id) ? s.delivered_message_id : null,
      // Set below, from the uploads the content links.
      has_attachment: false,
      failed: bool(s.failed),
      failure_message: s.failure_message,
      delivery_type: ScheduledDeliveryType.SEND_LATER,
    });
  }
  // ---- Files. A file that has gone missing is left out with its row, since the importer
  // copies every file a records.json lists.
  const files: ZulipExport['files'] = {
    avatars: { records: [], sources: new Map() },
    uploads: { records: [], sources: new Map() },
    emoji: { records: [], sources: new Map() },
    realm_icons: { records: [], sources: new Map() },
  };
  const addFile = (folder: keyof ZulipExport['files'], record: FileRecord, source: string): boolean => {
    if (!existsSync(source)) return false;
    files[folder].records.push(record);
    files[folder].sources.set(record.path, source);
    return true;
  };
  const userById = new Map(users.map((u) => [u.id as number, u]));
  const attachmentMessages = new Map<number, number[]>();
  for (const link of all<{ attachment_id: number; message_id: number }>('SELECT attachment_id, message_id FROM attachment_messages ORDER BY message_id')) {
    if (!messageIds.has(link.message_id)) continue;
    if (!attachmentMessages.has(link.attachment_id)) attachmentMessages.set(link.attachment_id, []);
    attachmentMessages.get(link.attachment_id)!.push(link.message_id);
  }
  // Stoa does not keep which uploads a scheduled message claims: it is the sender's uploads its
  // content links, as Zulip claims them when the message is scheduled.
  const scheduledLinking = (a: Row) =>
    zerverScheduledMessages.filter((m) => m.sender === a.owner_id && String(m.content).includes(`/user_uploads/${a.path_id}`));
  const zerverAttachments: Row[] = [];
  for (const a of all('SELECT * FROM attachments ORDER BY id')) {
    const linked = attachmentMessages.get(a.id) ?? [];
    const scheduled = scheduledLinking(a);
    // Zulip exports the files its exported messages and scheduled messages link, and no others.
    if ((linked.length === 0 && scheduled.length === 0) || !realmUserIds.has(a.owner_id)) continue;
    const owner = userById.get(a.owner_id)!;
    const record: FileRecord = {
      realm_id: realmId,
      user_profile_id: a.owner_id,
      user_profile_email: owner.email,
      s3_path: a.path_id,
      path: a.path_id,
      size: a.size,
      last_modified: seconds(a.create_time),
      content_type: a.content_type,
    };
    if (!addFile('uploads', record, options.sources.upload(a.path_id))) continue;
    zerverAttachments.push({
      id: a.id,
      file_name: a.file_name,
      path_id: a.path_id,
      realm: realmId,
      owner: a.owner_id,
      create_time: seconds(a.create_time),
      size: a.size,
      content_type: a.content_type,
      // Unknown: Zulip works these out again when the file is first asked for.
      is_realm_public: null,
      is_web_public: null,
      messages: linked,
      scheduled_messages: scheduled.map((m) => m.id),
    });
    for (const m of scheduled) m.has_attachment = true;
  }
  for (const u of realmUsers) {
    if (u.avatar_source !== 'U') continue;
    // Zulip makes both avatar sizes from the ".original" file when it imports.
    const archivePath = `${realmId}/${u.id}-${u.avatar_version}.original`;
    addFile(
      'avatars',
      {
        realm_id: realmId,
        user_profile_id: u.id,
        user_profile_email: u.email,
        avatar_version: u.avatar_version,
        s3_path: archivePath,
        path: archivePath,
        content_type: 'image/png',
        importer_should_thumbnail: true,
      },
      options.sources.avatar(u.id),
    );
  }
  for (const e of realmEmoji) {
    const archivePath = `${realmId}/emoji/images/${e.file_name}.original`;
    addFile(
      'emoji',
      {
        realm_id: realmId,
        author: realmUserIds.has(e.author_id) ? e.author_id : null,
        path: archivePath,
        s3_path: archivePath,
        file_name: e.file_name,
        name: e.name,
        deactivated: bool(e.deactivated),
      },
      options.sources.upload(options.sources.emojiPathId(realmId, e.file_name)),
    );
  }
  // An uploaded avatar whose file is gone would point at nothing after the import.
  const withAvatar = new Set(files.avatars.records.map((r) => r.user_profile_id as number));
  for (const row of [...normalUsers, ...dummyUsers]) {
    if (row.avatar_source === 'U' && !withAvatar.has(row.id)) row.avatar_source = 'G';
  }

  // ---- Saved snippets and outgoing webhooks' services, in the tables Zulip 10.2's importer
  // restores them from, for people whose private data may leave.
  const zerverSavedSnippets = mine(all('SELECT * FROM saved_snippets ORDER BY id')).map((snippet) => ({
    id: snippet.id,
    realm: realmId,
    user_profile: snippet.user_id,
    title: snippet.title,
    content: snippet.content,
    date_created: snippet.date_created,
  }));
  let serviceId = 1;
  const zerverServices = mine(all('SELECT * FROM bot_services ORDER BY bot_id'), 'bot_id').map((service) => ({
    id: serviceId++,
    name: service.name,
    user_profile: service.bot_id,
    base_url: service.base_url,
    // A credential stays behind; Zulip's importer gives every service a new token anyway.
    token: '',
    interface: service.interface,
  }));
  // ---- What only Stoa keeps, for stoa.json: copied as stored, private tables as above.
  const pick = (row: Row, columns: object) => Object.fromEntries(Object.keys(columns).map((c) => [c, row[c]]));
  const copied = (table: keyof typeof STOA_EXTRA_TABLES, rows: Row[]) => rows.map((r) => pick(r, STOA_EXTRA_TABLES[table]));
  const stoaExtras: StoaExtras = {
    realm_user_settings_defaults: newerDefaults,
    system_bots: systemBots.map((bot) => ({ id: bot.id, email: bot.delivery_email, full_name: bot.full_name, date_joined_ms: bot.date_joined_ms })),
    streams: streams.map((s) => ({ id: s.id, ...pick(s, STREAM_EXTRA_COLUMNS) })),
    columns: {
      users: realmUsers.map((u) => ({ id: u.id, ...pick(u, EXTRA_COLUMNS.users) })),
      custom_profile_fields: all('SELECT * FROM custom_profile_fields ORDER BY id').map((f) => ({ id: f.id, ...pick(f, EXTRA_COLUMNS.custom_profile_fields) })),
      realm_linkifiers: all('SELECT * FROM realm_linkifiers ORDER BY id').map((l) => ({ id: l.id, ...pick(l, EXTRA_COLUMNS.realm_linkifiers) })),
    },
    tables: {
      channel_folders: copied(
        'channel_folders',
        all('SELECT * FROM channel_folders ORDER BY id').map((f) => ({ ...f, creator_id: realmUserIds.has(f.creator_id) ? f.creator_id : null })),
      ),
      drafts: copied('drafts', mine(all('SELECT * FROM drafts ORDER BY id'))),
      scheduled_messages: copied('scheduled_messages', scheduledForStoa),
      navigation_views: copied('navigation_views', mine(all('SELECT * FROM navigation_views ORDER BY id'))),
      onboarding_steps_seen: copied('onboarding_steps_seen', mine(all('SELECT * FROM onboarding_steps_seen ORDER BY user_id, step'))),
      user_settings_edited: copied('user_settings_edited', mine(all('SELECT * FROM user_settings_edited ORDER BY user_id, name'))),
      default_stream_groups: copied('default_stream_groups', all('SELECT * FROM default_stream_groups ORDER BY id')),
      default_stream_group_channels: copied(
        'default_stream_group_channels',
        all('SELECT * FROM default_stream_group_channels ORDER BY group_id, stream_id'),
      ),
      submessages: copied(
        'submessages',
        all('SELECT * FROM submessages ORDER BY id').filter((m) => messageIds.has(m.message_id) && realmUserIds.has(m.sender_id)),
      ),
    },
  };

  const realmJson: Row = {
    zerver_realm: [zerverRealm],
    zerver_client: [...clients].map(([name, id]) => ({ id, name })),
    zerver_userprofile: normalUsers,
    zerver_userprofile_mirrordummy: dummyUsers,
    zerver_userprofile_crossrealm: crossRealm,
    zerver_stream: zerverStreams,
    zerver_huddle: zerverHuddles,
    zerver_recipient: zerverRecipients.sort((a, b) => a.id - b.id),
    zerver_subscription: zerverSubscriptions,
    zerver_realmauthenticationmethod: [{ id: 1, realm: realmId, name: EMAIL_AUTH_BACKEND }],
    zerver_defaultstream: zerverDefaultStreams,
    zerver_realmemoji: zerverRealmEmoji,
    zerver_realmdomain: all('SELECT * FROM realm_domains ORDER BY id').map((d) => ({
      id: d.id,
      realm: realmId,
      domain: d.domain,
      allow_subdomains: bool(d.allow_subdomains),
    })),
    zerver_botstoragedata: all('SELECT * FROM bot_storage ORDER BY bot_id, rowid')
      .filter((s) => realmUserIds.has(s.bot_id))
      .map((s, i) => ({ id: i + 1, bot_profile: s.bot_id, key: s.key, value: s.value })),
    zerver_realmfilter: zerverLinkifiers,
    zerver_realmplayground: zerverPlaygrounds,
    zerver_userpresence: zerverPresence,
    zerver_presencesequence: zerverPresenceSequence,
    zerver_useractivity: [],
    zerver_useractivityinterval: [],
    zerver_customprofilefield: zerverProfileFields,
    zerver_customprofilefieldvalue: zerverProfileValues,
    zerver_reaction: zerverReactions,
    zerver_usergroup: zerverUserGroups,
    zerver_namedusergroup: zerverNamedUserGroups,
    zerver_usergroupmembership: zerverMemberships,
    zerver_groupgroupmembership: zerverGroupMemberships,
    zerver_usertopic: zerverUserTopics,
    zerver_muteduser: zerverMutedUsers,
    zerver_userstatus: zerverStatuses,
    zerver_alertword: zerverAlertWords,
    zerver_scheduledmessage: zerverScheduledMessages,
    zerver_savedsnippet: zerverSavedSnippets,
    zerver_service: zerverServices,
    zerver_realmuserdefault: [zerverRealmUserDefault],
    import_source: 'zulip',
  };
  checkDateFields(realmJson);
  return { realm: realmJson, messageFiles, attachment: { zerver_attachment: zerverAttachments }, files, stoa: stoaExtras };
}

/** The importer reads every date field of the tables it converts; a missing one is a bug here. */
function checkDateFields(realmJson: Row): void {
  for (const [table, fields] of Object.entries(DATE_FIELDS)) {
    for (const row of (realmJson[table] as Row[] | undefined) ?? []) {
      for (const field of fields) if (!(field in row)) throw new Error(`export: ${table}.${field} is missing`);
    }
  }
}

import { randomUUID } from 'node:crypto';
import { generateApiKey } from '../auth/credentials';
import { channelNameKey } from '../channels/queries';
import { CHANNEL_SETTINGS } from '../channels/access';
import { CHANNEL_GROUP_SETTINGS } from '../channels/queries';
import { foldCase } from '../alert-words/queries';
import {
  CROSS_REALM_BOT_EMAIL,
  DIRECT_MESSAGE_GROUP_TABLES,
  EDIT_HISTORY_VISIBILITY,
  type ExtraColumn,
  type FileRecord,
  REALM_CHANNEL_SETTINGS,
  REALM_GROUP_SETTINGS,
  REALM_PLAIN_SETTINGS,
  realmField,
  RecipientType,
  EARLIER_STOA_EXTRA_TABLES,
  ScheduledDeliveryType,
  STOA_EXTRA_TABLES,
  STOA_EXTRAS_FILE,
  STOA_REACTION_TYPE,
  stoaEditHistory,
  STREAM_EXTRA_COLUMNS,
  EXTRA_COLUMNS,
  stoaFlagBits,
  STREAM_GROUP_SETTINGS,
  SUBSCRIPTION_SETTINGS,
  USER_GROUP_SETTINGS,
  USER_ROW_SETTINGS,
} from '../export/zulip-format';
import { USER_GROUP_SETTINGS as GROUP_SETTING_RULES } from '../groups/access';
import { valueFitsSchema } from '../http/validate';
import { isMeMessage } from '../markdown/render';
import { Flag } from '../messages/flags';
import { searchableText } from '../messages/queries';
import { resolutionChange } from '../messages/topics';
import { NOTIFICATION_BOT_EMAIL } from '../realm/actions';
import { REALM_SETTINGS, SYSTEM_GROUP_NAMES } from '../realm/settings';
import { topicKey } from '../user-topics/queries';
import { apiEmailFor } from '../users/actions';
import { INTERNAL_EMAIL_DOMAIN } from '../users/email-visibility';
import { PLAIN_USER_COLUMNS, Role, type UserRow } from '../users/queries';
import { currentSettingValue, NOT_CHANGEABLE_ORGANIZATION_DEFAULTS, NOT_ORGANIZATION_DEFAULTS, USER_SETTINGS, USER_SETTINGS_BY_NAME } from '../users/settings';
import { type ExportContents, ImportError, recordFile, type Row, tableOf } from './read';

/** A value of a Stoa column, as better-sqlite3 binds it. */
type Cell = string | number | null;
export type StoaRow = Record<string, Cell>;

/** What the import writes: rows per Stoa table, and the files to copy into the upload store. */
export interface ImportPlan {
  tables: Record<string, StoaRow[]>;
  /** Uploaded files by path ID, with the attachment row that describes each. */
  uploads: Array<{ source: string; attachment: StoaRow }>;
  /** Uploaded avatars: the user row gets avatar_source 'G' back if the image cannot be read. */
  avatars: Array<{ source: string; user: StoaRow }>;
  emoji: Array<{ source: string; row: StoaRow }>;
  /** The first active owner, who is given a password (exports carry none). */
  owner: StoaRow | undefined;
  /** Every active person (no bots), who may each be given a password. */
  people: StoaRow[];
  /** What was left out, one line each. */
  warnings: string[];
}

const ROLES: ReadonlySet<number> = new Set(Object.values(Role));
const NEUTRAL_SUBSCRIPTION_COLOR = '#c2c2c2';
/** A realm channel setting that is off (lib/realm/settings.ts's CHANNEL_OR_OFF). */
const CHANNEL_OFF = -1;
/** Zulip's generic bot type, which its system bots have. */
const GENERIC_BOT = 1;

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/** Reads the fields of one table's rows, failing with the table, row and field named. */
class Fields {
  constructor(readonly table: string) {}

  fail(row: Row, field: string, what: string): never {
    const where = row.id !== undefined ? ` (id ${show(row.id)})` : '';
    throw new ImportError(`${this.table}${where}: ${field} must be ${what}, not ${show(row[field])}`);
  }
  int(row: Row, field: string): number {
    const value = row[field];
    return Number.isInteger(value) ? (value as number) : this.fail(row, field, 'an integer');
  }
  optInt(row: Row, field: string): number | null {
    return row[field] === undefined || row[field] === null ? null : this.int(row, field);
  }
  str(row: Row, field: string, fallback?: string): string {
    const value = row[field];
    if (typeof value === 'string') return value;
    if (fallback !== undefined && (value === undefined || value === null)) return fallback;
    return this.fail(row, field, 'a string');
  }
  optStr(row: Row, field: string): string | null {
    return row[field] === undefined || row[field] === null ? null : this.str(row, field);
  }
  bool(row: Row, field: string, fallback?: boolean): boolean {
    const value = row[field];
    if (typeof value === 'boolean') return value;
    if (fallback !== undefined && (value === undefined || value === null)) return fallback;
    return this.fail(row, field, 'true or false');
  }
  optBool(row: Row, field: string): boolean | null {
    return row[field] === undefined || row[field] === null ? null : this.bool(row, field);
  }
  /** A date, as UNIX seconds (Zulip writes floats). */
  seconds(row: Row, field: string): number {
    const value = row[field];
    return typeof value === 'number' && Number.isFinite(value) ? value : this.fail(row, field, 'a time in seconds');
  }
  optSeconds(row: Row, field: string): number | null {
    return row[field] === undefined || row[field] === null ? null : this.seconds(row, field);
  }
  /** A reference to a row that must exist among `known`. */
  ref<T>(row: Row, field: string, known: ReadonlyMap<number, T>, what: string): number {
    const id = this.int(row, field);
    if (!known.has(id)) throw new ImportError(`${this.table}${row.id !== undefined ? ` (id ${show(row.id)})` : ''}: ${field} ${id} names no ${what} of the export`);
    return id;
  }
  optRef<T>(row: Row, field: string, known: ReadonlyMap<number, T>, what: string): number | null {
    return row[field] === undefined || row[field] === null ? null : this.ref(row, field, known, what);
  }
}

const bit = (value: boolean) => (value ? 1 : 0);
const floor = (seconds: number | null) => (seconds === null ? null : Math.floor(seconds));

/** Upload path IDs and record paths are relative paths that stay inside their folder. */
function safeRelativePath(value: string): boolean {
  return value !== '' && !value.startsWith('/') && !value.split('/').some((part) => part === '..' || part === '' || part === '.');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Turns an export's tables into Stoa's rows: the inverse of lib/export/build.ts, through the
 * same mapping (lib/export/zulip-format.ts). IDs are kept, so links to messages, channels and
 * users stay right; what Stoa does not model is left out. Any table or reference that does not
 * fit fails the whole import with an ImportError naming it.
 */
export function convertExport(data: ExportContents): ImportPlan {
  const warnings: string[] = [];
  const tables: Record<string, StoaRow[]> = {};
  const add = (table: string, row: StoaRow) => (tables[table] ??= []).push(row);
  const table = (name: string) => tableOf(data.realm, name, 'realm.json');

  // ---- The organization.
  const realms = table('zerver_realm');
  if (realms.length !== 1) throw new ImportError(`realm.json: zerver_realm must hold one organization, not ${realms.length}`);
  const zulipRealm = realms[0];
  const realmFields = new Fields('zerver_realm');
  const realmCreated = Math.floor(realmFields.seconds(zulipRealm, 'date_created'));
  add('realm', {
    id: 1,
    name: realmFields.str(zulipRealm, 'name'),
    string_id: realmFields.str(zulipRealm, 'string_id', ''),
    description: realmFields.str(zulipRealm, 'description', ''),
    date_created: realmCreated,
    deactivated: bit(realmFields.bool(zulipRealm, 'deactivated', false)),
    // Zulip's UUID stays the organization's; an export without one gets a new one.
    uuid: typeof zulipRealm.uuid === 'string' && zulipRealm.uuid !== '' ? zulipRealm.uuid : randomUUID(),
  });

  // ---- Clients, by ID: messages name the one they were sent from.
  const clientFields = new Fields('zerver_client');
  const clients = new Map(table('zerver_client').map((c) => [clientFields.int(c, 'id'), clientFields.str(c, 'name')]));

  // ---- People and bots. Mirror dummies (people whose data stayed behind) come in deactivated.
  const users = new Map<number, StoaRow>();
  const userFields = new Fields('zerver_userprofile');
  const people = [
    ...table('zerver_userprofile').map((row) => ({ row, dummy: false })),
    ...table('zerver_userprofile_mirrordummy').map((row) => ({ row, dummy: true })),
  ];
  for (const { row } of people) {
    const id = userFields.int(row, 'id');
    if (users.has(id)) throw new ImportError(`zerver_userprofile: the id ${id} is given twice`);
    users.set(id, { id });
  }
  // The server's own bots: Zulip exports them by email only; each becomes one of Stoa's.
  const crossFields = new Fields('zerver_userprofile_crossrealm');
  const crossRealm = table('zerver_userprofile_crossrealm');
  let nextUserId = Math.max(0, ...users.keys(), ...crossRealm.map((b) => crossFields.int(b, 'id'))) + 1;
  const userIdMap = new Map<number, number>();
  const systemBotRecipients: Array<{ recipient: number; userId: number }> = [];
  // A Stoa export names each by its own address, name and joining date in stoa.json.
  const stoaSystemBots = new Map<number, Row>();
  const stoaBotFields = new Fields(`${STOA_EXTRAS_FILE}: system_bots`);
  for (const bot of data.stoa ? tableOf(data.stoa, 'system_bots', STOA_EXTRAS_FILE) : []) stoaSystemBots.set(stoaBotFields.int(bot, 'id'), bot);
  const makeSystemBot = (email: string, id: number, exportedId?: number) => {
    const local = email.split('@')[0];
    const known = exportedId === undefined ? undefined : stoaSystemBots.get(exportedId);
    const name = known ? stoaBotFields.str(known, 'full_name') : local.split(/[-_.]/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
    const address = known
      ? stoaBotFields.str(known, 'email')
      : email === CROSS_REALM_BOT_EMAIL.notificationBot
        ? NOTIFICATION_BOT_EMAIL
        : `${local}@${INTERNAL_EMAIL_DOMAIN}`;
    const bot: StoaRow = {
      id,
      email: address,
      delivery_email: address,
      full_name: name || 'System Bot',
      api_key: generateApiKey(),
      role: Role.MEMBER,
      is_active: 1,
      ...PLAIN_USER_COLUMNS,
      is_bot: 1,
      bot_type: GENERIC_BOT,
      is_system_bot: 1,
      date_joined_ms: known ? stoaBotFields.int(known, 'date_joined_ms') : realmCreated * 1000,
    };
    users.set(id, bot);
    return bot;
  };
  const systemBots: StoaRow[] = [];
  for (const b of crossRealm) {
    const exportedId = crossFields.int(b, 'id');
    const email = crossFields.str(b, 'email');
    if (systemBots.some((bot) => bot.delivery_email === email)) continue;
    // Cross-realm IDs come from another organization's numbering and may clash with ours.
    const id = users.has(exportedId) ? nextUserId++ : exportedId;
    userIdMap.set(exportedId, id);
    systemBots.push(makeSystemBot(email, id, exportedId));
    const recipient = crossFields.optInt(b, 'recipient_id');
    if (recipient !== null) systemBotRecipients.push({ recipient, userId: id });
  }
  // Stoa posts its notices as the notification bot, which every organization has.
  if (!systemBots.some((bot) => bot.email === NOTIFICATION_BOT_EMAIL)) systemBots.push(makeSystemBot(CROSS_REALM_BOT_EMAIL.notificationBot, nextUserId++));
  /** A user reference, with cross-realm bots mapped to this server's. */
  const userRef = (fields: Fields, row: Row, field: string): number => {
    const id = fields.int(row, field);
    const mapped = userIdMap.get(id) ?? id;
    if (!users.has(mapped)) throw new ImportError(`${fields.table}${row.id !== undefined ? ` (id ${show(row.id)})` : ''}: ${field} ${id} names no user of the export`);
    return mapped;
  };
  const optUserRef = (fields: Fields, row: Row, field: string): number | null =>
    row[field] === undefined || row[field] === null ? null : userRef(fields, row, field);

  // ---- Channels (their group settings are checked once the groups are read).
  const streamFields = new Fields('zerver_stream');
  const zulipStreams = table('zerver_stream');
  const streams = new Map<number, StoaRow>();
  const streamNames = new Set<string>();
  for (const s of zulipStreams) {
    const id = streamFields.int(s, 'id');
    if (streams.has(id)) throw new ImportError(`zerver_stream: the id ${id} is given twice`);
    const name = streamFields.str(s, 'name');
    if (streamNames.has(channelNameKey(name))) throw new ImportError(`zerver_stream: two channels are named ${show(name)}`);
    streamNames.add(channelNameKey(name));
    streams.set(id, { id });
  }

  // ---- Recipients: who each message and subscription is for.
  const recipientFields = new Fields('zerver_recipient');
  const recipients = new Map<number, { type: number; typeId: number }>();
  for (const r of table('zerver_recipient')) {
    const id = recipientFields.int(r, 'id');
    const type = recipientFields.int(r, 'type');
    if (type !== RecipientType.PERSONAL && type !== RecipientType.STREAM && type !== RecipientType.DIRECT_MESSAGE_GROUP) {
      recipientFields.fail(r, 'type', '1, 2 or 3');
    }
    recipients.set(id, { type, typeId: recipientFields.int(r, 'type_id') });
  }
  for (const { recipient, userId } of systemBotRecipients) {
    if (!recipients.has(recipient)) recipients.set(recipient, { type: RecipientType.PERSONAL, typeId: userId });
  }

  // ---- User groups: Zulip 10 splits them into zerver_usergroup (every group) and
  // zerver_namedusergroup (the named ones, by the same ID); older exports name them in the first.
  const groupFields = new Fields('zerver_usergroup');
  const namedFields = new Fields('zerver_namedusergroup');
  const groups = new Map<number, StoaRow>();
  const named = new Map<number, Row>();
  for (const g of table('zerver_namedusergroup')) named.set(namedFields.int(g, g.usergroup_ptr !== undefined ? 'usergroup_ptr' : 'id'), g);
  for (const g of table('zerver_usergroup')) {
    const id = groupFields.int(g, 'id');
    if (!named.has(id) && typeof g.name === 'string') named.set(id, g);
    groups.set(id, { id });
  }
  for (const id of named.keys()) if (!groups.has(id)) groups.set(id, { id });
  const groupIdByName = new Map<string, number>();
  for (const [id, g] of named) {
    const name = namedFields.str(g, 'name');
    if (groupIdByName.has(name.toLowerCase())) throw new ImportError(`zerver_namedusergroup: two groups are named ${show(name)}`);
    groupIdByName.set(name.toLowerCase(), id);
  }
  for (const name of SYSTEM_GROUP_NAMES) {
    if (!groupIdByName.has(name)) throw new ImportError(`realm.json has no system group ${name}: the export is from a Zulip too old to import`);
  }
  const systemGroupId = (name: string) => groupIdByName.get(name)!;
  for (const [id, row] of groups) {
    const g = named.get(id);
    if (!g) {
      Object.assign(row, { name: null, description: '', is_system_group: 0, deactivated: 0, date_created: null, creator_id: null });
      for (const setting of USER_GROUP_SETTINGS) row[`${setting}_id`] = null;
      continue;
    }
    Object.assign(row, {
      name: namedFields.str(g, 'name'),
      description: namedFields.str(g, 'description', ''),
      is_system_group: bit(namedFields.bool(g, 'is_system_group', false)),
      deactivated: bit(namedFields.bool(g, 'deactivated', false)),
      date_created: floor(namedFields.optSeconds(g, 'date_created')),
      creator_id: null,
    });
    for (const setting of USER_GROUP_SETTINGS) {
      const fallback = GROUP_SETTING_RULES[setting].default;
      row[`${setting}_id`] =
        g[setting] === undefined || g[setting] === null
          ? systemGroupId(fallback.startsWith('role:') ? fallback : 'role:nobody')
          : namedFields.ref(g, setting, groups, 'user group');
    }
  }

  // ---- Users, in full now that channels and groups are known.
  const emails = new Set<string>();
  const deliveryEmails = new Set<string>();
  for (const { row, dummy } of people) {
    const user = users.get(userFields.int(row, 'id'))!;
    const role = userFields.int(row, 'role');
    if (!ROLES.has(role)) userFields.fail(row, 'role', `one of ${[...ROLES].join(', ')}`);
    const visibility = userFields.optInt(row, 'email_address_visibility') ?? 1;
    if (visibility < 1 || visibility > 5) userFields.fail(row, 'email_address_visibility', 'between 1 and 5');
    const isBot = userFields.bool(row, 'is_bot', false);
    const deliveryEmail = userFields.str(row, 'delivery_email', userFields.str(row, 'email'));
    if (!/^[^@\s]+@[^@\s]+$/.test(deliveryEmail)) userFields.fail(row, 'delivery_email', 'an email address');
    if (deliveryEmails.has(deliveryEmail.toLowerCase())) throw new ImportError(`zerver_userprofile: two users have the address ${deliveryEmail}`);
    deliveryEmails.add(deliveryEmail.toLowerCase());
    const avatarSource = userFields.str(row, 'avatar_source', 'G');
    const stub = userFields.bool(row, 'is_imported_stub', false);
    Object.assign(user, {
      email: '',
      delivery_email: deliveryEmail,
      full_name: userFields.str(row, 'full_name'),
      // Exports carry no passwords (Zulip's leave them out too); see ImportPlan.owner.
      password_hash: null,
      api_key: generateApiKey(),
      role,
      is_active: bit(userFields.bool(row, 'is_active', true) && !dummy),
      is_bot: bit(isBot),
      bot_type: isBot ? (userFields.optInt(row, 'bot_type') ?? GENERIC_BOT) : null,
      bot_owner_id: isBot ? optUserRef(userFields, row, 'bot_owner') : null,
      is_system_bot: 0,
      can_create_users: bit(userFields.bool(row, 'can_create_users', false)),
      can_change_user_emails: bit(userFields.bool(row, 'can_change_user_emails', false)),
      timezone: userFields.str(row, 'timezone', ''),
      date_joined_ms: Math.round(userFields.seconds(row, 'date_joined') * 1000),
      avatar_source: avatarSource === 'U' ? 'U' : 'G',
      avatar_version: userFields.optInt(row, 'avatar_version') ?? 1,
      email_address_visibility: visibility,
      default_sending_stream_id: userFields.optRef(row, 'default_sending_stream', streams, 'channel'),
      default_events_register_stream_id: userFields.optRef(row, 'default_events_register_stream', streams, 'channel'),
      default_all_public_streams: bit(userFields.bool(row, 'default_all_public_streams', false)),
      // A stub stands for the sender of imported messages until someone logs in as it; then
      // it becomes theirs, and its joining date that login's (levels 433 and 475).
      is_imported_stub: bit(stub),
      joins_at_first_login: bit(stub),
    } satisfies StoaRow);
    // The API email follows the visibility setting, as Stoa makes it for its own users.
    user.email = apiEmailFor(user as unknown as UserRow, visibility);
    if (emails.has(String(user.email).toLowerCase())) throw new ImportError(`zerver_userprofile: two users have the email ${user.email}`);
    emails.add(String(user.email).toLowerCase());
    // Personal settings Zulip keeps on the user, under Stoa's names: those that differ from
    // the default are stored, as Stoa stores them.
    for (const def of USER_SETTINGS) {
      if (USER_ROW_SETTINGS.has(def.name) || !(def.name in row)) continue;
      const value = currentSettingValue(def.name, row[def.name]);
      if (value === def.default) continue;
      if (!valueFitsSchema(def.schema, value)) {
        warnings.push(`user ${user.id}: the setting ${def.name} = ${show(value)} is not one Stoa knows; the default is kept`);
        continue;
      }
      add('user_settings', { user_id: user.id as number, name: def.name, value: JSON.stringify(value) });
    }
  }
  for (const bot of systemBots) {
    if (emails.has(String(bot.email).toLowerCase())) throw new ImportError(`zerver_userprofile: a user has the address ${bot.email}, which Stoa keeps for its own bot`);
  }
  for (const row of users.values()) add('users', row);
  for (const [id, row] of groups) {
    const g = named.get(id);
    if (g) row.creator_id = optUserRef(namedFields, g, 'creator');
    add('user_groups', row);
  }

  // Memberships.
  const memberFields = new Fields('zerver_usergroupmembership');
  const memberKeys = new Set<string>();
  for (const m of table('zerver_usergroupmembership')) {
    const groupId = memberFields.ref(m, 'user_group', groups, 'user group');
    const userId = userRef(memberFields, m, 'user_profile');
    if (memberKeys.has(`${groupId}:${userId}`)) continue;
    memberKeys.add(`${groupId}:${userId}`);
    add('user_group_members', { group_id: groupId, user_id: userId });
  }
  const subgroupFields = new Fields('zerver_groupgroupmembership');
  const subgroupKeys = new Set<string>();
  for (const m of table('zerver_groupgroupmembership')) {
    const supergroup = subgroupFields.ref(m, 'supergroup', groups, 'user group');
    const subgroup = subgroupFields.ref(m, 'subgroup', groups, 'user group');
    if (subgroupKeys.has(`${supergroup}:${subgroup}`)) continue;
    subgroupKeys.add(`${supergroup}:${subgroup}`);
    add('user_group_subgroups', { supergroup_id: supergroup, subgroup_id: subgroup });
  }

  // ---- Organization settings, stored where they differ from the default as Stoa stores them.
  const setRealm = (key: string, value: unknown) => {
    const def = REALM_SETTINGS.find((d) => d.key === key)!;
    const fallback = def.groupSetting ? systemGroupId(def.default as string) : def.default;
    if (value !== fallback) add('realm_settings', { key, value: JSON.stringify(value) });
  };
  for (const key of REALM_PLAIN_SETTINGS) {
    const field = realmField(key);
    if (!(field in zulipRealm)) continue;
    const def = REALM_SETTINGS.find((d) => d.key === key)!;
    if (valueFitsSchema(def.schema, zulipRealm[field])) setRealm(key, zulipRealm[field]);
    else warnings.push(`organization: the setting ${field} = ${show(zulipRealm[field])} is not one Stoa knows; the default is kept`);
  }
  const visibilityPolicy = Object.entries(EDIT_HISTORY_VISIBILITY).find(([, value]) => value === zulipRealm.message_edit_history_visibility_policy);
  if (visibilityPolicy) setRealm('realm_message_edit_history_visibility_policy', visibilityPolicy[0]);
  // Zulip 10.2's mandatory_topics; a newer export's topics_policy (Zulip's enum: 2 allows the
  // empty topic, 3 does not) names the policy itself.
  if (zulipRealm.topics_policy === 2 || zulipRealm.topics_policy === 3) {
    setRealm('realm_topics_policy', zulipRealm.topics_policy === 3 ? 'disable_empty_topic' : 'allow_empty_topic');
  } else if (zulipRealm.mandatory_topics === true) {
    setRealm('realm_topics_policy', 'disable_empty_topic');
  }
  for (const [key, field] of Object.entries(REALM_CHANNEL_SETTINGS)) {
    if (!(field in zulipRealm)) continue;
    setRealm(key, realmFields.optRef(zulipRealm, field, streams, 'channel') ?? CHANNEL_OFF);
  }
  for (const key of REALM_GROUP_SETTINGS) {
    const field = realmField(key);
    if (zulipRealm[field] === undefined || zulipRealm[field] === null) continue;
    setRealm(key, realmFields.ref(zulipRealm, field, groups, 'user group'));
  }
  const defaultsRow = table('zerver_realmuserdefault')[0];
  if (defaultsRow) {
    for (const def of USER_SETTINGS) {
      if (NOT_ORGANIZATION_DEFAULTS.has(def.name) || NOT_CHANGEABLE_ORGANIZATION_DEFAULTS.has(def.name) || !(def.name in defaultsRow)) continue;
      const value = currentSettingValue(def.name, defaultsRow[def.name]);
      if (value !== def.default && valueFitsSchema(def.schema, value)) add('realm_user_settings_defaults', { name: def.name, value: JSON.stringify(value) });
    }
  }

  // ---- Channels, in full.
  const defaultFields = new Fields('zerver_defaultstream');
  const defaultStreams = new Set(table('zerver_defaultstream').map((d) => defaultFields.ref(d, 'stream', streams, 'channel')));
  const streamByRecipient = new Map<number, StoaRow>();
  for (const s of zulipStreams) {
    const row = streams.get(streamFields.int(s, 'id'))!;
    const recipient =
      streamFields.optInt(s, 'recipient') ??
      [...recipients].find(([, r]) => r.type === RecipientType.STREAM && r.typeId === row.id)?.[0] ??
      streamFields.fail(s, 'recipient', 'the id of its recipient');
    const target = recipients.get(recipient);
    if (!target || target.type !== RecipientType.STREAM || target.typeId !== row.id) streamFields.fail(s, 'recipient', `a recipient of type 2 for channel ${row.id}`);
    const name = streamFields.str(s, 'name');
    Object.assign(row, {
      name,
      name_key: channelNameKey(name),
      description: streamFields.str(s, 'description', ''),
      rendered_description: streamFields.str(s, 'rendered_description', ''),
      date_created: Math.floor(streamFields.optSeconds(s, 'date_created') ?? realmCreated),
      creator_id: optUserRef(streamFields, s, 'creator'),
      invite_only: bit(streamFields.bool(s, 'invite_only', false)),
      is_web_public: bit(streamFields.bool(s, 'is_web_public', false)),
      history_public_to_subscribers: bit(streamFields.bool(s, 'history_public_to_subscribers', true)),
      message_retention_days: streamFields.optInt(s, 'message_retention_days'),
      is_archived: bit(streamFields.bool(s, 'deactivated', false)),
      topics_policy: 'inherit',
      folder_id: null,
      is_default: bit(defaultStreams.has(row.id as number)),
      first_message_id: null,
      recipient_id: recipient,
    } satisfies StoaRow);
    // Zulip 10's channel permissions come across; Stoa's newer ones start at their defaults.
    for (const setting of CHANNEL_GROUP_SETTINGS) {
      const exported = (STREAM_GROUP_SETTINGS as readonly string[]).includes(setting) && s[setting] !== undefined && s[setting] !== null;
      const fallback = CHANNEL_SETTINGS[setting].default;
      row[`${setting}_id`] = exported
        ? streamFields.ref(s, setting, groups, 'user group')
        : systemGroupId(fallback.startsWith('role:') ? fallback : 'role:nobody');
    }
    streamByRecipient.set(recipient, row);
  }

  // ---- Subscriptions: to channels as Stoa keeps them; those to direct message groups say
  // who is in each group.
  const subscriptionFields = new Fields('zerver_subscription');
  const groupMembers = new Map<number, Set<number>>();
  const subscriptionKeys = new Set<string>();
  for (const s of table('zerver_subscription')) {
    const userId = userRef(subscriptionFields, s, 'user_profile');
    const recipientId = subscriptionFields.ref(s, 'recipient', recipients, 'recipient');
    const recipient = recipients.get(recipientId)!;
    if (recipient.type === RecipientType.DIRECT_MESSAGE_GROUP) {
      if (!groupMembers.has(recipientId)) groupMembers.set(recipientId, new Set());
      groupMembers.get(recipientId)!.add(userId);
      continue;
    }
    if (recipient.type !== RecipientType.STREAM || subscriptionKeys.has(`${userId}:${recipientId}`)) continue;
    subscriptionKeys.add(`${userId}:${recipientId}`);
    const row: StoaRow = {
      user_id: userId,
      recipient_id: recipientId,
      active: bit(subscriptionFields.bool(s, 'active', true)),
      color: subscriptionFields.str(s, 'color', NEUTRAL_SUBSCRIPTION_COLOR),
    };
    for (const field of SUBSCRIPTION_SETTINGS) {
      row[field] = field === 'is_muted' || field === 'pin_to_top' ? bit(subscriptionFields.bool(s, field, false)) : nullableBit(subscriptionFields.optBool(s, field));
    }
    add('subscriptions', row);
  }

  // ---- Direct message conversations. Zulip 10.2 sends a one-to-one message to the receiver's
  // personal recipient; Stoa files both directions under one two-person conversation, as it
  // does for groups, and a note to oneself under a one-member one (Zulip's model from level 482).
  const groupTable = DIRECT_MESSAGE_GROUP_TABLES.find((name) => data.realm[name] !== undefined) ?? DIRECT_MESSAGE_GROUP_TABLES[0];
  const huddleFields = new Fields(groupTable);
  const huddles = table(groupTable);
  let nextGroupId = Math.max(0, ...huddles.map((h) => huddleFields.int(h, 'id'))) + 1;
  let nextRecipientId = Math.max(0, ...recipients.keys()) + 1;
  const conversations = new Map<string, number>();
  const addConversation = (members: number[], groupId: number, recipientId: number) => {
    const key = members.join(',');
    conversations.set(key, recipientId);
    add('direct_message_groups', { id: groupId, user_ids: key, recipient_id: recipientId });
    add('recipients', { id: recipientId, type: RecipientType.DIRECT_MESSAGE_GROUP, type_id: groupId });
  };
  const sorted = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);
  for (const h of huddles) {
    const recipientId = huddleFields.optInt(h, 'recipient') ?? [...recipients].find(([, r]) => r.type === RecipientType.DIRECT_MESSAGE_GROUP && r.typeId === h.id)?.[0];
    if (recipientId === undefined || recipientId === null) continue;
    const members = sorted(groupMembers.get(recipientId) ?? []);
    if (members.length >= 1 && !conversations.has(members.join(','))) addConversation(members, huddleFields.int(h, 'id'), recipientId);
  }
  const conversationOf = (memberIds: Iterable<number>): number => {
    const members = sorted(memberIds);
    const key = members.join(',');
    if (!conversations.has(key)) addConversation(members, nextGroupId++, nextRecipientId++);
    return conversations.get(key)!;
  };

  // ---- Messages.
  // Annotated, so that TypeScript knows fail() ends the branch.
  const messageFields: Fields = new Fields('zerver_message');
  const messages = new Map<number, StoaRow>();
  const firstMessage = new Map<number, number>();
  for (const m of data.messages) {
    const id = messageFields.int(m, 'id');
    if (messages.has(id)) throw new ImportError(`zerver_message: the id ${id} is given twice`);
    const senderId = userRef(messageFields, m, 'sender');
    const recipient = recipients.get(messageFields.ref(m, 'recipient', recipients, 'recipient'))!;
    const exportedRecipient = messageFields.int(m, 'recipient');
    let recipientId: number;
    let streamId: number | null = null;
    if (recipient.type === RecipientType.STREAM) {
      const stream = streamByRecipient.get(exportedRecipient);
      if (!stream) messageFields.fail(m, 'recipient', 'the recipient of a channel of the export');
      recipientId = exportedRecipient;
      streamId = stream.id as number;
      const first = firstMessage.get(streamId);
      if (first === undefined || id < first) firstMessage.set(streamId, id);
    } else if (recipient.type === RecipientType.PERSONAL) {
      const receiver = userIdMap.get(recipient.typeId) ?? recipient.typeId;
      if (!users.has(receiver)) messageFields.fail(m, 'recipient', 'the recipient of a user of the export');
      recipientId = conversationOf([senderId, receiver]);
    } else {
      const members = groupMembers.get(exportedRecipient);
      if (!members || members.size === 0) messageFields.fail(m, 'recipient', 'a direct message group with members');
      recipientId = conversationOf([...members, senderId]);
    }
    const content = messageFields.str(m, 'content');
    const topic = streamId === null ? '' : messageFields.str(m, 'subject', '');
    const history = editHistoryOf(messageFields, m);
    // Zulip's last_edit_time is the last change of any kind, moves included; Stoa keeps the
    // last content edit and the last move apart, as clients are given them. With a history,
    // both come from it; without one, Zulip's time is all there is.
    let lastMoved: number | null = null;
    let lastEdited: number | null = history.length === 0 ? floor(messageFields.optSeconds(m, 'last_edit_time')) : null;
    for (const entry of history) {
      if (entry.prev_content !== undefined && typeof entry.timestamp === 'number') lastEdited = Math.max(lastEdited ?? 0, Math.floor(entry.timestamp));
      const moved = entry.prev_stream !== undefined || (typeof entry.prev_topic === 'string' && resolutionChange(entry.prev_topic, String(entry.topic ?? '')) === null);
      if (moved && typeof entry.timestamp === 'number') lastMoved = Math.max(lastMoved ?? 0, Math.floor(entry.timestamp));
    }
    const clientId = messageFields.optInt(m, 'sending_client');
    const row: StoaRow = {
      id,
      sender_id: senderId,
      recipient_id: recipientId,
      stream_id: streamId,
      topic,
      topic_key: topicKey(topic),
      content,
      rendered_content: messageFields.optStr(m, 'rendered_content') ?? `<p>${escapeHtml(content)}</p>`,
      date_sent: Math.floor(messageFields.seconds(m, 'date_sent')),
      sending_client: (clientId === null ? undefined : clients.get(clientId)) ?? 'Internal',
      is_me_message: bit(isMeMessage(content)),
      has_link: bit(messageFields.bool(m, 'has_link', false)),
      has_image: bit(messageFields.bool(m, 'has_image', false)),
      has_attachment: bit(messageFields.bool(m, 'has_attachment', false)),
      last_edit_time: lastEdited,
      last_moved_time: lastMoved,
      edit_history: stoaEditHistory(history),
    };
    messages.set(id, row);
    add('messages', row);
    add('messages_fts', { rowid: id, topic, content: searchableText(content) });
  }
  for (const [streamId, first] of firstMessage) streams.get(streamId)!.first_message_id = first;
  for (const row of streams.values()) add('streams', row);
  // Recipients of channels (those of the conversations above are added with them).
  for (const [id, r] of recipients) {
    if (r.type === RecipientType.STREAM && streams.has(r.typeId)) add('recipients', { id, type: r.type, type_id: r.typeId });
  }

  // ---- Each user's flags on each message.
  const userMessageFields = new Fields('zerver_usermessage');
  const userMessageKeys = new Set<string>();
  for (const um of data.userMessages) {
    const userId = userRef(userMessageFields, um, 'user_profile');
    const messageId = userMessageFields.ref(um, 'message', messages, 'message');
    if (userMessageKeys.has(`${userId}:${messageId}`)) continue;
    userMessageKeys.add(`${userId}:${messageId}`);
    let bits = stoaFlagBits(zulipMask(userMessageFields, um));
    // Stoa marks every direct message so, which its unread counts rely on.
    bits = messages.get(messageId)!.stream_id === null ? bits | Flag.is_private : bits & ~Flag.is_private;
    // Notifications the other server pushed are its phones' business: no device comes along.
    bits &= ~Flag.active_mobile_push_notification;
    add('user_messages', { user_id: userId, message_id: messageId, flags: bits });
  }

  const c: Conversion = { data, tables, warnings, add, table, realmCreated, clients, users, userIdMap, userRef, optUserRef, streams, recipients, groupMembers, messages };
  convertReactions(c);
  const emoji = convertCustomEmoji(c);
  const { uploads, avatars } = convertFiles(c);
  convertProfileFields(c);
  convertPersonalLists(c);
  convertLinkifiersAndPlaygrounds(c);
  convertRealmDomains(c);
  convertScheduledMessagesAndServices(c);
  if (data.stoa) convertStoaExtras(c, data.stoa);

  const owner = [...users.values()].find((u) => u.role === Role.OWNER && u.is_active === 1 && u.is_bot === 0);
  if (!owner) warnings.push('nobody is an active owner: no one can administer the organization until a database tool makes someone one');
  const activePeople = [...users.values()].filter((u) => u.is_active === 1 && u.is_bot === 0);
  return { tables, uploads, avatars, emoji, owner, people: activePeople, warnings };
}

/** What the conversion has read so far, which its later steps look things up in. */
interface Conversion {
  data: ExportContents;
  tables: Record<string, StoaRow[]>;
  warnings: string[];
  add: (table: string, row: StoaRow) => void;
  table: (name: string) => Row[];
  realmCreated: number;
  clients: ReadonlyMap<number, string>;
  users: ReadonlyMap<number, StoaRow>;
  /** Cross-realm bots' exported IDs to the IDs they have here. */
  userIdMap: ReadonlyMap<number, number>;
  userRef: (fields: Fields, row: Row, field: string) => number;
  optUserRef: (fields: Fields, row: Row, field: string) => number | null;
  streams: ReadonlyMap<number, StoaRow>;
  recipients: ReadonlyMap<number, { type: number; typeId: number }>;
  /** Members of each direct message group, by its recipient. */
  groupMembers: ReadonlyMap<number, ReadonlySet<number>>;
  messages: ReadonlyMap<number, StoaRow>;
}

/** Reactions to the imported messages. */
function convertReactions(c: Conversion): void {
  const { add, table, userRef, messages } = c;
  const reactionFields = new Fields('zerver_reaction');
  const reactionKeys = new Set<string>();
  for (const r of table('zerver_reaction')) {
    const type = STOA_REACTION_TYPE[reactionFields.str(r, 'reaction_type', 'unicode_emoji')];
    if (!type) reactionFields.fail(r, 'reaction_type', 'unicode_emoji, realm_emoji or zulip_extra_emoji');
    const row: StoaRow = {
      id: reactionFields.int(r, 'id'),
      message_id: reactionFields.ref(r, 'message', messages, 'message'),
      user_id: userRef(reactionFields, r, 'user_profile'),
      emoji_name: reactionFields.str(r, 'emoji_name'),
      emoji_code: reactionFields.str(r, 'emoji_code'),
      reaction_type: type,
    };
    const key = `${row.message_id}:${row.user_id}:${type}:${row.emoji_code}`;
    if (reactionKeys.has(key)) continue;
    reactionKeys.add(key);
    add('reactions', row);
  }
}

/** Custom emoji, and where each one's image is in the export. */
function convertCustomEmoji(c: Conversion): ImportPlan['emoji'] {
  const { data, warnings, add, table, optUserRef } = c;
  const emojiFields = new Fields('zerver_realmemoji');
  const emojiPlan: ImportPlan['emoji'] = [];
  for (const e of table('zerver_realmemoji')) {
    const fileName = emojiFields.optStr(e, 'file_name');
    if (fileName === null || !safeRelativePath(fileName) || fileName.includes('/')) {
      warnings.push(`custom emoji ${show(e.name)}: no usable file name; left out`);
      continue;
    }
    const row: StoaRow = {
      id: emojiFields.int(e, 'id'),
      name: emojiFields.str(e, 'name'),
      file_name: fileName,
      author_id: optUserRef(emojiFields, e, 'author'),
      is_animated: bit(emojiFields.bool(e, 'is_animated', false)),
      deactivated: bit(emojiFields.bool(e, 'deactivated', false)),
    };
    // Zulip keeps the emoji as shown and the original upload; the one shown is what Stoa serves.
    const candidates = data.records.emoji.filter((r) => r.file_name === fileName || r.path.endsWith(`/${fileName}`) || r.path.endsWith(`/${fileName}.original`));
    const record = candidates.find((r) => !r.path.endsWith('.original')) ?? candidates[0];
    const source = record && recordFile(data.root, 'emoji', record);
    if (!source) {
      warnings.push(`custom emoji ${show(row.name)}: its image is not in the export; left out`);
      continue;
    }
    add('realm_emoji', row);
    emojiPlan.push({ source, row });
  }
  return emojiPlan;
}

/** Uploaded files with the messages that link them, and uploaded avatars. */
function convertFiles(c: Conversion): Pick<ImportPlan, 'uploads' | 'avatars'> {
  const { data, warnings, add, users, userIdMap, userRef, messages } = c;
  const attachmentFields = new Fields('zerver_attachment');
  const uploads: ImportPlan['uploads'] = [];
  const recordsByPath = new Map<string, FileRecord>();
  for (const r of data.records.uploads) {
    recordsByPath.set(r.path, r);
    if (typeof r.s3_path === 'string') recordsByPath.set(r.s3_path, r);
  }
  for (const a of data.attachments) {
    const pathId = attachmentFields.str(a, 'path_id');
    if (!safeRelativePath(pathId)) attachmentFields.fail(a, 'path_id', 'a relative path');
    const record = recordsByPath.get(pathId);
    const source = record && recordFile(data.root, 'uploads', record);
    if (!source) {
      warnings.push(`uploaded file ${pathId}: not in the export; left out`);
      continue;
    }
    const linked = a.messages ?? [];
    if (!Array.isArray(linked) || !linked.every(Number.isInteger)) attachmentFields.fail(a, 'messages', 'a list of message ids');
    const row: StoaRow = {
      id: attachmentFields.int(a, 'id'),
      path_id: pathId,
      file_name: attachmentFields.str(a, 'file_name'),
      owner_id: userRef(attachmentFields, a, 'owner'),
      size: attachmentFields.int(a, 'size'),
      create_time: Math.round(attachmentFields.seconds(a, 'create_time') * 1000),
      content_type: attachmentFields.optStr(a, 'content_type'),
      width: null,
      height: null,
      animated: 0,
    };
    add('attachments', row);
    uploads.push({ source, attachment: row });
    for (const messageId of new Set(linked as number[])) {
      if (messages.has(messageId)) add('attachment_messages', { attachment_id: row.id, message_id: messageId });
    }
  }

  // ---- Avatars: the largest image of each, made into Stoa's two sizes when written.
  const avatars: ImportPlan['avatars'] = [];
  for (const user of users.values()) {
    if (user.avatar_source !== 'U') continue;
    const candidates = data.records.avatars.filter((r) => (userIdMap.get(r.user_profile_id as number) ?? r.user_profile_id) === user.id);
    const record = candidates.find((r) => r.path.endsWith('.original')) ?? candidates.find((r) => r.path.endsWith('-medium.png')) ?? candidates[0];
    const source = record && recordFile(data.root, 'avatars', record);
    if (source) {
      avatars.push({ source, user });
    } else {
      warnings.push(`user ${user.id}: the uploaded avatar is not in the export; the default picture is used`);
      user.avatar_source = 'G';
    }
  }
  return { uploads, avatars };
}

/** Custom profile fields and everyone's values. */
function convertProfileFields(c: Conversion): void {
  const { add, table, userRef } = c;
  const fieldFields = new Fields('zerver_customprofilefield');
  const profileFields = new Map<number, StoaRow>();
  for (const f of table('zerver_customprofilefield')) {
    const type = fieldFields.int(f, 'field_type');
    if (type < 1 || type > 8) fieldFields.fail(f, 'field_type', 'between 1 and 8');
    const id = fieldFields.int(f, 'id');
    const row: StoaRow = {
      id,
      name: fieldFields.str(f, 'name'),
      hint: fieldFields.str(f, 'hint', ''),
      field_type: type,
      field_data: fieldFields.str(f, 'field_data', ''),
      position: fieldFields.optInt(f, 'order') ?? id,
      display_in_profile_summary: bit(fieldFields.bool(f, 'display_in_profile_summary', false)),
      required: bit(fieldFields.bool(f, 'required', false)),
      editable_by_user: bit(fieldFields.bool(f, 'editable_by_user', true)),
      use_for_user_matching: bit(fieldFields.bool(f, 'use_for_user_matching', false)),
    };
    profileFields.set(id, row);
    add('custom_profile_fields', row);
  }
  const valueFields = new Fields('zerver_customprofilefieldvalue');
  const valueKeys = new Set<string>();
  for (const v of table('zerver_customprofilefieldvalue')) {
    const userId = userRef(valueFields, v, 'user_profile');
    const fieldId = valueFields.ref(v, 'field', profileFields, 'custom profile field');
    if (valueKeys.has(`${userId}:${fieldId}`)) continue;
    valueKeys.add(`${userId}:${fieldId}`);
    add('custom_profile_field_values', { user_id: userId, field_id: fieldId, value: valueFields.str(v, 'value'), rendered_value: valueFields.optStr(v, 'rendered_value') });
  }
}

/** Each person's own lists: alert words, topics, muted people, status, presence. */
function convertPersonalLists(c: Conversion): void {
  const { add, table, realmCreated, userRef, streams } = c;
  const wordFields = new Fields('zerver_alertword');
  const wordKeys = new Set<string>();
  for (const w of table('zerver_alertword')) {
    const userId = userRef(wordFields, w, 'user_profile');
    const word = wordFields.str(w, 'word');
    if (wordKeys.has(`${userId}:${foldCase(word)}`)) continue;
    wordKeys.add(`${userId}:${foldCase(word)}`);
    add('alert_words', { id: wordFields.int(w, 'id'), user_id: userId, word, folded: foldCase(word) });
  }
  const topicFields = new Fields('zerver_usertopic');
  const topicKeys = new Set<string>();
  for (const t of table('zerver_usertopic')) {
    const userId = userRef(topicFields, t, 'user_profile');
    const streamId = topicFields.ref(t, 'stream', streams, 'channel');
    const policy = topicFields.optInt(t, 'visibility_policy') ?? 1;
    if (policy === 0) continue;
    if (policy < 1 || policy > 3) topicFields.fail(t, 'visibility_policy', '0, 1, 2 or 3');
    const topic = topicFields.str(t, 'topic_name');
    const key = `${userId}:${streamId}:${topicKey(topic)}`;
    if (topicKeys.has(key)) continue;
    topicKeys.add(key);
    add('user_topics', {
      user_id: userId,
      stream_id: streamId,
      topic_key: topicKey(topic),
      topic,
      visibility_policy: policy,
      last_updated: Math.floor(topicFields.optSeconds(t, 'last_updated') ?? realmCreated),
    });
  }
  const mutedFields = new Fields('zerver_muteduser');
  const mutedKeys = new Set<string>();
  for (const m of table('zerver_muteduser')) {
    const userId = userRef(mutedFields, m, 'user_profile');
    const mutedId = userRef(mutedFields, m, 'muted_user');
    if (mutedKeys.has(`${userId}:${mutedId}`)) continue;
    mutedKeys.add(`${userId}:${mutedId}`);
    add('muted_users', { user_id: userId, muted_user_id: mutedId, date_muted: Math.floor(mutedFields.optSeconds(m, 'date_muted') ?? realmCreated) });
  }
  const statusFields = new Fields('zerver_userstatus');
  const statusUsers = new Set<number>();
  for (const s of table('zerver_userstatus')) {
    const userId = userRef(statusFields, s, 'user_profile');
    if (statusUsers.has(userId)) continue;
    statusUsers.add(userId);
    add('user_status', {
      user_id: userId,
      status_text: statusFields.str(s, 'status_text', ''),
      emoji_name: statusFields.str(s, 'emoji_name', ''),
      emoji_code: statusFields.str(s, 'emoji_code', ''),
      reaction_type: STOA_REACTION_TYPE[statusFields.str(s, 'reaction_type', 'unicode_emoji')] ?? 'unicode_emoji',
      updated_at: Math.floor(statusFields.optSeconds(s, 'timestamp') ?? realmCreated),
    });
  }
  const presenceFields = new Fields('zerver_userpresence');
  const presence: StoaRow[] = [];
  for (const p of table('zerver_userpresence')) {
    const userId = userRef(presenceFields, p, 'user_profile');
    if (presence.some((row) => row.user_id === userId)) continue;
    const active = presenceFields.optSeconds(p, 'last_active_time');
    const connected = presenceFields.optSeconds(p, 'last_connected_time') ?? active ?? realmCreated;
    presence.push({
      user_id: userId,
      last_active_ms: active === null ? null : Math.round(active * 1000),
      last_connected_ms: Math.round(connected * 1000),
      last_update_id: presenceFields.optInt(p, 'last_update_id'),
    });
  }
  // Update IDs are unique and grow; an export without them (or with clashes) is numbered anew.
  if (new Set(presence.map((p) => p.last_update_id)).size !== presence.length || presence.some((p) => p.last_update_id === null)) {
    presence.forEach((p, i) => (p.last_update_id = i + 1));
  }
  for (const row of presence) add('user_presence', row);
  const snippetFields = new Fields('zerver_savedsnippet');
  for (const snippet of table('zerver_savedsnippet')) {
    add('saved_snippets', {
      id: snippetFields.int(snippet, 'id'),
      user_id: userRef(snippetFields, snippet, 'user_profile'),
      title: snippetFields.str(snippet, 'title'),
      content: snippetFields.str(snippet, 'content'),
      date_created: Math.floor(snippetFields.optSeconds(snippet, 'date_created') ?? realmCreated),
    });
  }
}

/** Linkifiers and code playgrounds. */
function convertLinkifiersAndPlaygrounds(c: Conversion): void {
  const { warnings, add, table } = c;
  const linkifierFields = new Fields('zerver_realmfilter');
  for (const l of table('zerver_realmfilter')) {
    const template = linkifierFields.optStr(l, 'url_template');
    if (template === null) {
      warnings.push(`linkifier ${show(l.pattern)}: written in an older format without url_template; left out`);
      continue;
    }
    const id = linkifierFields.int(l, 'id');
    const alternatives = l.alternative_url_templates ?? [];
    if (!Array.isArray(alternatives) || !alternatives.every((t) => typeof t === 'string')) {
      linkifierFields.fail(l, 'alternative_url_templates', 'a list of URL templates');
    }
    add('realm_linkifiers', {
      id,
      pattern: linkifierFields.str(l, 'pattern'),
      url_template: template,
      position: linkifierFields.optInt(l, 'order') ?? id,
      // Reverse linkification (levels 471 and 478); older exports have none.
      example_input: linkifierFields.optStr(l, 'example_input'),
      reverse_template: linkifierFields.optStr(l, 'reverse_template'),
      alternative_url_templates: JSON.stringify(alternatives),
    });
  }
  const playgroundFields = new Fields('zerver_realmplayground');
  for (const p of table('zerver_realmplayground')) {
    const template = playgroundFields.optStr(p, 'url_template');
    if (template === null) {
      warnings.push(`code playground ${show(p.name)}: written in an older format without url_template; left out`);
      continue;
    }
    add('realm_playgrounds', {
      id: playgroundFields.int(p, 'id'),
      name: playgroundFields.str(p, 'name'),
      language: playgroundFields.str(p, 'pygments_language'),
      url_template: template,
    });
  }
}

/** The domains the organization's addresses must be from (used when it restricts them). */
function convertRealmDomains(c: Conversion): void {
  const domainFields = new Fields('zerver_realmdomain');
  const seen = new Set<string>();
  for (const d of c.table('zerver_realmdomain')) {
    const domain = domainFields.str(d, 'domain').toLowerCase();
    if (seen.has(domain)) continue;
    seen.add(domain);
    c.add('realm_domains', { id: domainFields.int(d, 'id'), domain, allow_subdomains: bit(domainFields.bool(d, 'allow_subdomains', false)) });
  }
}

/** Zulip's scheduled messages and reminders, bots' storage and outgoing webhooks (a Stoa export has its reminders in stoa.json). */
function convertScheduledMessagesAndServices(c: Conversion): void {
  const { warnings, add, table, clients, userIdMap, userRef, recipients, groupMembers } = c;
  const scheduledFields: Fields = new Fields('zerver_scheduledmessage');
  for (const m of table('zerver_scheduledmessage')) {
    // Zulip's delivery types: 1 sends the message later, 2 is a reminder of another message,
    // sent back to oneself by the notification bot (level 381), with an optional note (415).
    const deliveryType = scheduledFields.optInt(m, 'delivery_type') ?? ScheduledDeliveryType.SEND_LATER;
    if (deliveryType !== ScheduledDeliveryType.SEND_LATER && deliveryType !== ScheduledDeliveryType.REMIND) scheduledFields.fail(m, 'delivery_type', '1 or 2');
    const reminderOf = deliveryType === ScheduledDeliveryType.REMIND ? scheduledFields.optInt(m, 'reminder_target_message_id') : null;
    if (deliveryType === ScheduledDeliveryType.REMIND && reminderOf === null) {
      warnings.push(`zerver_scheduledmessage (id ${show(m.id)}): a reminder of no message; left out`);
      continue;
    }
    const senderId = userRef(scheduledFields, m, 'sender');
    const recipient = recipients.get(scheduledFields.ref(m, 'recipient', recipients, 'recipient'))!;
    let to: number[];
    if (recipient.type === RecipientType.STREAM) to = [recipient.typeId];
    else if (recipient.type === RecipientType.PERSONAL) to = [userIdMap.get(recipient.typeId) ?? recipient.typeId];
    else to = [...(groupMembers.get(scheduledFields.int(m, 'recipient')) ?? [])].filter((id) => id !== senderId);
    if (to.length === 0) to = [senderId];
    const clientId = scheduledFields.optInt(m, 'sending_client');
    add('scheduled_messages', {
      id: scheduledFields.int(m, 'id'),
      sender_id: senderId,
      type: recipient.type === RecipientType.STREAM ? 'stream' : 'private',
      to_ids: JSON.stringify(to.sort((a, b) => a - b)),
      topic: recipient.type === RecipientType.STREAM ? scheduledFields.str(m, 'subject', '') : '',
      content: scheduledFields.str(m, 'content'),
      rendered_content: scheduledFields.optStr(m, 'rendered_content') ?? `<p>${escapeHtml(scheduledFields.str(m, 'content'))}</p>`,
      sending_client: (clientId === null ? undefined : clients.get(clientId)) ?? 'Internal',
      scheduled_timestamp: Math.floor(scheduledFields.seconds(m, 'scheduled_timestamp')),
      read_by_sender: bit(scheduledFields.bool(m, 'read_by_sender', true)),
      delivered: bit(scheduledFields.bool(m, 'delivered', false)),
      delivered_message_id: scheduledFields.optInt(m, 'delivered_message'),
      failed: bit(scheduledFields.bool(m, 'failed', false)),
      failure_message: scheduledFields.optStr(m, 'failure_message'),
      reminder_target_message_id: reminderOf,
      reminder_note: reminderOf === null ? null : scheduledFields.optStr(m, 'reminder_note'),
    });
  }
  const serviceFields = new Fields('zerver_service');
  for (const service of table('zerver_service')) {
    add('bot_services', {
      bot_id: userRef(serviceFields, service, 'user_profile'),
      name: serviceFields.str(service, 'name', ''),
      base_url: serviceFields.str(service, 'base_url', ''),
      interface: serviceFields.optInt(service, 'interface') ?? 1,
      // A credential, made anew as Zulip's importer does.
      token: generateApiKey(),
    });
  }
  const storageFields = new Fields('zerver_botstoragedata');
  for (const entry of table('zerver_botstoragedata')) {
    add('bot_storage', {
      bot_id: userRef(storageFields, entry, 'bot_profile'),
      key: storageFields.str(entry, 'key'),
      value: storageFields.str(entry, 'value'),
    });
  }
  if (table('zerver_botconfigdata').length > 0) {
    warnings.push(`zerver_botconfigdata: ${table('zerver_botconfigdata').length} rows that Stoa does not import`);
  }
}

/** What only Stoa keeps, from an export Stoa wrote (stoa.json). */
function convertStoaExtras(c: Conversion, extras: Row): void {
  const { tables, warnings, add, streams } = c;
  const defaults = extras.realm_user_settings_defaults ?? {};
  if (typeof defaults !== 'object' || defaults === null || Array.isArray(defaults)) throw new ImportError(`${STOA_EXTRAS_FILE}: realm_user_settings_defaults must be an object`);
  // These are the defaults zerver_realmuserdefault has no field for (all of them, from an
  // earlier export): each replaces what that table gave.
  tables.realm_user_settings_defaults = (tables.realm_user_settings_defaults ?? []).filter((row) => !Object.hasOwn(defaults, row.name as string));
  for (const [name, value] of Object.entries(defaults)) {
    const def = USER_SETTINGS_BY_NAME.get(name);
    if (def && valueFitsSchema(def.schema, value)) add('realm_user_settings_defaults', { name, value: JSON.stringify(value) });
    else warnings.push(`organization defaults: the setting ${name} = ${show(value)} is not one Stoa knows; left out`);
  }
  const extraFields = new Fields(`${STOA_EXTRAS_FILE}: streams`);
  for (const extra of tableOf(extras, 'streams', STOA_EXTRAS_FILE)) {
    const stream = streams.get(extraFields.ref(extra, 'id', streams, 'channel'))!;
    for (const [column, type] of Object.entries(STREAM_EXTRA_COLUMNS)) stream[column] = extraValue(extraFields, extra, column, type);
  }
  const extraColumns = (extras.columns ?? {}) as Row;
  for (const [name, columns] of Object.entries(EXTRA_COLUMNS)) {
    const fields = new Fields(`${STOA_EXTRAS_FILE}: columns.${name}`);
    const byId = new Map((tables[name] ?? []).map((row) => [row.id, row]));
    for (const extra of tableOf(extraColumns, name, STOA_EXTRAS_FILE)) {
      const row = byId.get(fields.int(extra, 'id'));
      if (!row) continue;
      for (const [column, type] of Object.entries(columns)) row[column] = extraValue(fields, extra, column, type);
    }
  }
  const extraTables = (extras.tables ?? {}) as Row;
  for (const [name, columns] of Object.entries({ ...STOA_EXTRA_TABLES, ...EARLIER_STOA_EXTRA_TABLES })) {
    const fields = new Fields(`${STOA_EXTRAS_FILE}: ${name}`);
    for (const extra of tableOf(extraTables, name, STOA_EXTRAS_FILE)) {
      const row: StoaRow = {};
      for (const [column, type] of Object.entries(columns)) row[column] = extraValue(fields, extra, column, type);
      // A bot's token is a credential, which exports do not carry: each gets a new one.
      if (name === 'bot_services') row.token = generateApiKey();
      add(name, row);
    }
  }
}

/** A column of stoa.json, checked against its declared type. */
function extraValue(fields: Fields, row: Row, column: string, type: ExtraColumn): Cell {
  switch (type) {
    case 'int':
      return fields.int(row, column);
    case 'int?':
      return fields.optInt(row, column);
    case 'str':
      return fields.str(row, column);
    case 'str?':
      return fields.optStr(row, column);
    case 'num':
      return fields.seconds(row, column);
  }
}

function nullableBit(value: boolean | null): number | null {
  return value === null ? null : bit(value);
}

/** A message's edit history: Zulip writes it as JSON text (or null); each entry an object. */
function editHistoryOf(fields: Fields, message: Row): Array<Record<string, unknown>> {
  const raw = message.edit_history;
  if (raw === undefined || raw === null || raw === '') return [];
  let entries: unknown = raw;
  if (typeof raw === 'string') {
    try {
      entries = JSON.parse(raw);
    } catch {
      fields.fail(message, 'edit_history', 'a JSON list of edits');
    }
  }
  if (!Array.isArray(entries) || !entries.every((e) => typeof e === 'object' && e !== null && Number.isInteger((e as Row).user_id))) {
    fields.fail(message, 'edit_history', 'a list of edits, each naming its user_id');
  }
  // Clients are given whole seconds.
  return (entries as Array<Record<string, unknown>>).map((entry) =>
    typeof entry.timestamp === 'number' ? { ...entry, timestamp: Math.floor(entry.timestamp) } : entry,
  );
}

/** A user message's flags: flags_mask (Zulip 2.0 on), or an older export's flags. */
function zulipMask(fields: Fields, row: Row): number {
  if (row.flags_mask !== undefined) return fields.int(row, 'flags_mask');
  if (Number.isInteger(row.flags)) return row.flags as number;
  return fields.fail(row, 'flags_mask', 'an integer');
}

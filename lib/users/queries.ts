import type { Statements } from '../db';
import { KeptWhileUnwritten, type TableWrites } from '../table-writes';

export const Role = {
  OWNER: 100,
  ADMINISTRATOR: 200,
  MODERATOR: 300,
  MEMBER: 400,
  GUEST: 600,
} as const;
export type RoleValue = (typeof Role)[keyof typeof Role];

/** Where an avatar comes from: 'G' provider-hosted, 'U' uploaded, 'J' generated here (a Jdenticon). */
export type AvatarSource = 'G' | 'U' | 'J';

/** Values of a user's email_address_visibility setting. */
export const EmailVisibility = {
  EVERYONE: 1,
  MEMBERS: 2,
  ADMINS: 3,
  NOBODY: 4,
  MODERATORS: 5,
} as const;

export interface UserRow {
  id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  password_hash: string | null;
  api_key: string;
  role: RoleValue;
  is_active: 0 | 1;
  is_bot: 0 | 1;
  bot_type: number | null;
  bot_owner_id: number | null;
  is_system_bot: 0 | 1;
  can_create_users: 0 | 1;
  can_change_user_emails: 0 | 1;
  timezone: string;
  date_joined_ms: number;
  avatar_source: string;
  avatar_version: number;
  email_address_visibility: number;
  default_sending_stream_id: number | null;
  default_events_register_stream_id: number | null;
  default_all_public_streams: 0 | 1;
  is_imported_stub: 0 | 1;
  joins_at_first_login: 0 | 1;
}

/**
 * The columns of a plain account: no password, not a bot, no special permission, Zulip's
 * defaults for the rest. Rows made without the sign-up path (the spectator's placeholder, the
 * import's system bots, test fixtures) spread it and name only what differs.
 */
export const PLAIN_USER_COLUMNS = {
  password_hash: null,
  is_bot: 0,
  bot_type: null,
  bot_owner_id: null,
  is_system_bot: 0,
  can_create_users: 0,
  can_change_user_emails: 0,
  timezone: '',
  date_joined_ms: 0,
  avatar_source: 'G',
  avatar_version: 1,
  email_address_visibility: 1,
  default_sending_stream_id: null,
  default_events_register_stream_id: null,
  default_all_public_streams: 0,
  is_imported_stub: 0,
  joins_at_first_login: 0,
} as const satisfies Partial<UserRow>;

export type NewUser = Pick<
  UserRow,
  | 'email'
  | 'delivery_email'
  | 'full_name'
  | 'password_hash'
  | 'api_key'
  | 'role'
  | 'is_bot'
  | 'bot_type'
  | 'bot_owner_id'
  | 'is_system_bot'
  | 'can_create_users'
  | 'can_change_user_emails'
  | 'date_joined_ms'
  | 'email_address_visibility'
  | 'joins_at_first_login'
  | 'avatar_source'
>;

/** Prepared once per database; the only place user rows are read or written by SQL. */
/**
 * How many user rows (and email lookups) are kept between requests: more than the people of
 * an organization of a few thousand, whose every request looks its caller up, since a bound
 * just under their number would make nearly every lookup miss. A row is about a kilobyte.
 */
export const USER_ROWS_KEPT = 5000;

export function prepareUserQueries(db: Statements, writes: TableWrites) {
  const byId = db.prepare<[number], UserRow>('SELECT * FROM users WHERE id = ?');
  // An API email or a delivery email names the same account; either is accepted to log in.
  // Two lookups rather than one OR: SQLite's planner scans the whole table for the OR.
  const byEmail = db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ? COLLATE NOCASE');
  const byDeliveryEmail = db.prepare<[string], UserRow>('SELECT * FROM users WHERE delivery_email = ? COLLATE NOCASE');
  const byApiKey = db.prepare<[string], UserRow>('SELECT * FROM users WHERE api_key = ?');
  const inRealm = db.prepare<[], UserRow>('SELECT * FROM users WHERE is_system_bot = 0 ORDER BY id');
  const activeByFullName = db.prepare<[string], UserRow>(
    'SELECT * FROM users WHERE is_active = 1 AND is_system_bot = 0 AND lower(full_name) = lower(?) ORDER BY id',
  );
  const activeIds = db.prepare<[], { id: number }>('SELECT id FROM users WHERE is_active = 1 AND is_system_bot = 0');
  // Every presence change is announced to everyone: with a thousand people, reading them all
  // for each one was a visible share of the day's CPU. Kept until a user row is written.
  const keptActiveIds = new KeptWhileUnwritten<readonly number[]>(writes, ['users']);
  const systemBots = db.prepare<[], UserRow>('SELECT * FROM users WHERE is_system_bot = 1 ORDER BY id');
  const firstOwner = db.prepare<[], UserRow>(
    `SELECT * FROM users WHERE role = 100 AND is_active = 1 AND is_bot = 0 ORDER BY id LIMIT 1`,
  );
  const insert = db.prepare<NewUser>(
    `INSERT INTO users (email, delivery_email, full_name, password_hash, api_key, role, is_bot, bot_type,
       bot_owner_id, is_system_bot, can_create_users, can_change_user_emails, date_joined_ms, email_address_visibility,
       joins_at_first_login, avatar_source)
     VALUES (@email, @delivery_email, @full_name, @password_hash, @api_key, @role, @is_bot, @bot_type,
       @bot_owner_id, @is_system_bot, @can_create_users, @can_change_user_emails, @date_joined_ms, @email_address_visibility,
       @joins_at_first_login, @avatar_source)`,
  );
  const setEmail = db.prepare<[string, number]>('UPDATE users SET email = ? WHERE id = ?');
  const setDeliveryEmail = db.prepare<[string, number]>('UPDATE users SET delivery_email = ? WHERE id = ?');
  const setAvatarSource = db.prepare<[string, number]>(
    'UPDATE users SET avatar_source = ?, avatar_version = avatar_version + 1 WHERE id = ?',
  );
  const setRole = db.prepare<[number, number]>('UPDATE users SET role = ? WHERE id = ?');
  const setActive = db.prepare<[number, number]>('UPDATE users SET is_active = ? WHERE id = ?');
  const activeOwnerCount = db.prepare<[], { n: number }>(
    'SELECT count(*) AS n FROM users WHERE role = 100 AND is_active = 1 AND is_bot = 0',
  );
  const setFullName = db.prepare<[string, number]>('UPDATE users SET full_name = ? WHERE id = ?');
  const setTimezone = db.prepare<[string, number]>('UPDATE users SET timezone = ? WHERE id = ?');
  const setEmailVisibility = db.prepare<[number, number]>('UPDATE users SET email_address_visibility = ? WHERE id = ?');
  const setPasswordHash = db.prepare<[string, number]>('UPDATE users SET password_hash = ? WHERE id = ?');
  const bots = db.prepare<[], UserRow>('SELECT * FROM users WHERE is_bot = 1 AND is_system_bot = 0 ORDER BY id');
  const botsOwnedBy = db.prepare<[number], UserRow>(
    'SELECT * FROM users WHERE is_bot = 1 AND is_system_bot = 0 AND bot_owner_id = ? ORDER BY id',
  );
  const activeAdministratorIds = db.prepare<[], { id: number }>(
    'SELECT id FROM users WHERE role <= 200 AND is_active = 1 AND is_bot = 0 AND is_system_bot = 0',
  );
  const setBotOwner = db.prepare<[number, number]>('UPDATE users SET bot_owner_id = ? WHERE id = ?');
  const setApiKey = db.prepare<[string, number]>('UPDATE users SET api_key = ? WHERE id = ?');
  const markFirstLogin = db.prepare<[number, number]>(
    `UPDATE users SET is_imported_stub = 0, joins_at_first_login = 0,
       date_joined_ms = CASE WHEN joins_at_first_login = 1 THEN ? ELSE date_joined_ms END WHERE id = ?`,
  );
  const setCanCreateUsers = db.prepare<[number, number]>('UPDATE users SET can_create_users = ? WHERE id = ?');
  const setBotDefaults = db.prepare<[number | null, number | null, number, number]>(
    `UPDATE users SET default_sending_stream_id = ?, default_events_register_stream_id = ?,
       default_all_public_streams = ? WHERE id = ?`,
  );
  const settingOverrides = db.prepare<[number], { name: string; value: string }>(
    'SELECT name, value FROM user_settings WHERE user_id = ?',
  );
  const putSetting = db.prepare<[number, string, string]>(
    'INSERT INTO user_settings (user_id, name, value) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET value = excluded.value',
  );
  const markSettingEdited = db.prepare<[number, string]>('INSERT OR IGNORE INTO user_settings_edited (user_id, name) VALUES (?, ?)');
  const hasEditedSetting = db.prepare<[number, string], { one: number }>(
    'SELECT 1 AS one FROM user_settings_edited WHERE user_id = ? AND name = ?',
  );
  const deleteSetting = db.prepare<[number, string]>('DELETE FROM user_settings WHERE user_id = ? AND name = ?');
  const realmDefaultOverrides = db.prepare<[], { name: string; value: string }>(
    'SELECT name, value FROM realm_user_settings_defaults',
  );
  const putRealmDefault = db.prepare<[string, string]>(
    'INSERT INTO realm_user_settings_defaults (name, value) VALUES (?, ?) ON CONFLICT DO UPDATE SET value = excluded.value',
  );
  const deleteRealmDefault = db.prepare<[string]>('DELETE FROM realm_user_settings_defaults WHERE name = ?');
  // Who shares a conversation with whom, for the organization's can_access_all_users_group
  // (lib/users/access.ts): fellow subscribers of a channel (active accounts only, as Zulip
  // counts them), and everyone in a direct-message conversation with the user.
  const channelPeerIds = db.prepare<[number], { user_id: number }>(
    `SELECT DISTINCT peer.user_id FROM subscriptions own
       JOIN subscriptions peer ON peer.recipient_id = own.recipient_id AND peer.active = 1
       JOIN users ON users.id = peer.user_id AND users.is_active = 1
     WHERE own.user_id = ? AND own.active = 1`,
  );
  const sharesChannel = db.prepare<[number, number], { one: number }>(
    `SELECT 1 AS one FROM subscriptions own
       JOIN subscriptions peer ON peer.recipient_id = own.recipient_id AND peer.active = 1
     WHERE own.user_id = ? AND own.active = 1 AND peer.user_id = ? LIMIT 1`,
  );
  // A conversation's members are kept as sorted, comma-separated IDs (see schema.sql). The
  // cast matters: a bound JavaScript number arrives as REAL, and 5.0 would read as '5.0'.
  const directConversationsOf = db.prepare<[number], { user_ids: string }>(
    "SELECT user_ids FROM direct_message_groups WHERE instr(',' || user_ids || ',', ',' || CAST(? AS INTEGER) || ',') > 0",
  );
  const sharesDirectConversation = db.prepare<[number, number], { one: number }>(
    `SELECT 1 AS one FROM direct_message_groups
     WHERE instr(',' || user_ids || ',', ',' || CAST(? AS INTEGER) || ',') > 0 AND instr(',' || user_ids || ',', ',' || CAST(? AS INTEGER) || ',') > 0 LIMIT 1`,
  );

  // Every request reads its caller's row, and many read other rows again and again; a row of
  // 21 columns costs several microseconds to build. Rows are kept, frozen, until that row is
  // written (here, the only place that writes them) or a transaction rolls back (`forget`).
  // Only the written row goes: one person's new name must not make everyone's next request
  // read its caller's row again (and every parked poll check its key again).
  // At most USER_ROWS_KEPT of each, the oldest kept going first: a large organization (or a
  // flood of lookups) must not keep every row in memory.
  const rows = new Map<number, UserRow>();
  const idsByEmail = new Map<string, number>();
  const keep = <K, V>(map: Map<K, V>, key: K, value: V) => {
    if (map.size >= USER_ROWS_KEPT) map.delete(map.keys().next().value!);
    map.set(key, value);
  };
  const remember = (row: UserRow | undefined) => {
    if (row) keep(rows, row.id, Object.freeze(row));
    return row;
  };
  // Everyone, read at once for each /register (people, statuses, groups): kept as the rows are.
  let everyone: readonly UserRow[] | null = null;
  const forget = () => {
    rows.clear();
    idsByEmail.clear();
    everyone = null;
  };
  /** Drops what is kept of one user: their row, the emails that led to it, and everyone. */
  const forgetUser = (id: number) => {
    rows.delete(id);
    for (const [email, known] of idsByEmail) if (known === id) idsByEmail.delete(email);
    everyone = null;
  };
  /** Runs a statement that writes one user's row (its first argument), then drops that row. */
  const writing =
    <A extends [number, ...unknown[]]>(fn: (...args: A) => void) =>
    (...args: A) => {
      fn(...args);
      forgetUser(args[0]);
    };
  const cachedById = (id: number) => rows.get(id) ?? remember(byId.get(id));

  return {
    byId: cachedById,
    byAnyEmail: (email: string) => {
      const known = idsByEmail.get(email);
      if (known !== undefined) return cachedById(known);
      const row = remember(byEmail.get(email) ?? byDeliveryEmail.get(email));
      if (row) keep(idsByEmail, email, row.id);
      return row;
    },
    /** Drops every kept row: the writes of a rolled-back transaction may be among them. */
    forget,
    /** How many rows are kept now (at most USER_ROWS_KEPT), for tests of the bound. */
    keptRows: () => rows.size,
    /** Every account of the organization, active or not, without the server's own bots. */
    inRealm: (): readonly UserRow[] => (everyone ??= Object.freeze(inRealm.all().map((row) => Object.freeze(row)))),
    /** Every active account of the organization: who hears of changes everyone may see. */
    /** Active users whose full name matches, ignoring case (ASCII letters only, as SQLite's lower()). */
    activeByFullName: (name: string) => activeByFullName.all(name),
    activeIds: (): number[] => [...keptActiveIds.get(() => Object.freeze(activeIds.all().map((r) => r.id)))],
    /** The server's own bots (the notification bot), which belong to no organization. */
    systemBots: () => systemBots.all(),
    firstOwner: () => firstOwner.get(),
    /** The account an API key belongs to (incoming webhooks name only the key). */
    byApiKey: (apiKey: string) => byApiKey.get(apiKey),
    insert: (user: NewUser) => {
      const id = Number(insert.run(user).lastInsertRowid);
      forgetUser(id);
      return id;
    },
    setEmail: writing((id: number, email: string) => void setEmail.run(email, id)),
    setDeliveryEmail: writing((id: number, email: string) => void setDeliveryEmail.run(email, id)),
    /** A new avatar from a source, with a new version so caches refresh. */
    setAvatarSource: writing((id: number, source: AvatarSource) => void setAvatarSource.run(source, id)),
    setRole: writing((id: number, role: RoleValue) => void setRole.run(role, id)),
    setActive: writing((id: number, active: boolean) => void setActive.run(active ? 1 : 0, id)),
    activeOwnerCount: () => activeOwnerCount.get()!.n,
    setFullName: writing((id: number, name: string) => void setFullName.run(name, id)),
    setTimezone: writing((id: number, timezone: string) => void setTimezone.run(timezone, id)),
    setEmailVisibility: writing((id: number, visibility: number) => void setEmailVisibility.run(visibility, id)),
    setPasswordHash: writing((id: number, hash: string) => void setPasswordHash.run(hash, id)),
    /** Every bot of the organization, active or not. */
    bots: () => bots.all(),
    botsOwnedBy: (ownerId: number) => botsOwnedBy.all(ownerId),
    activeAdministratorIds: () => activeAdministratorIds.all().map((r) => r.id),
    setBotOwner: writing((id: number, ownerId: number) => void setBotOwner.run(ownerId, id)),
    setApiKey: writing((id: number, apiKey: string) => void setApiKey.run(apiKey, id)),
    /** A first login: no longer a stub, and joined now if the account waited for it. */
    markFirstLogin: writing((id: number, nowMs: number) => void markFirstLogin.run(nowMs, id)),
    setBotDefaults: writing(
      (id: number, defaults: { sendingChannelId: number | null; eventsChannelId: number | null; allPublicChannels: boolean }) =>
        void setBotDefaults.run(defaults.sendingChannelId, defaults.eventsChannelId, defaults.allPublicChannels ? 1 : 0, id),
    ),
    /** Only a server operator grants this (the test harness does); no endpoint changes it. */
    setCanCreateUsers: writing((id: number, allowed: boolean) => void setCanCreateUsers.run(allowed ? 1 : 0, id)),
    /** The user's settings that differ from their defaults, as stored JSON text. */
    settingOverrides: (id: number) => settingOverrides.all(id),
    /** Stores a setting's JSON value; a value equal to the default is stored as no row. */
    putSetting: (id: number, name: string, json: string) => void putSetting.run(id, name, json),
    deleteSetting: (id: number, name: string) => void deleteSetting.run(id, name),
    /** Notes that the user changed a setting themselves. */
    markSettingEdited: (id: number, name: string) => void markSettingEdited.run(id, name),
    hasEditedSetting: (id: number, name: string) => hasEditedSetting.get(id, name) !== undefined,
    /** The organization's defaults for new users that differ from Stoa's, as stored JSON text. */
    realmDefaultOverrides: () => realmDefaultOverrides.all(),
    putRealmDefault: (name: string, json: string) => void putRealmDefault.run(name, json),
    deleteRealmDefault: (name: string) => void deleteRealmDefault.run(name),
    /** Active users subscribed to a channel the user is subscribed to (the user too, if active). */
    channelPeerIds: (userId: number) => channelPeerIds.all(userId).map((r) => r.user_id),
    /** Whether the target, an active user, shares a channel subscription with the user. */
    sharesChannel: (userId: number, targetId: number) => sharesChannel.get(userId, targetId) !== undefined,
    /** Everyone in a direct-message conversation with the user, the user included. */
    directPartnerIds: (userId: number) => {
      const ids = new Set<number>();
      for (const { user_ids } of directConversationsOf.all(userId)) for (const id of user_ids.split(',')) ids.add(Number(id));
      return ids;
    },
    sharesDirectConversation: (userId: number, targetId: number) =>
      sharesDirectConversation.get(userId, targetId) !== undefined,
  };
}

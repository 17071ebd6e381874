import type Database from 'better-sqlite3';
import type { Statements } from '../db';
import { KeptWhileUnwritten, type TableWrites } from '../table-writes';

/** The group settings every channel carries, by their API names. */
export const CHANNEL_GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_remove_subscribers_group',
  'can_administer_channel_group',
  'can_send_message_group',
  'can_subscribe_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_resolve_topics_group',
  'can_create_topic_group',
] as const;
export type ChannelGroupSetting = (typeof CHANNEL_GROUP_SETTINGS)[number];

export type TopicsPolicy = 'inherit' | 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';

export interface ChannelRow extends Record<`${ChannelGroupSetting}_id`, number> {
  id: number;
  name: string;
  name_key: string;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: 0 | 1;
  is_web_public: 0 | 1;
  history_public_to_subscribers: 0 | 1;
  message_retention_days: number | null;
  is_archived: 0 | 1;
  topics_policy: TopicsPolicy;
  folder_id: number | null;
  is_default: 0 | 1;
  first_message_id: number | null;
  recipient_id: number;
}

export interface ChannelFolderRow {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  is_archived: 0 | 1;
  position: number;
}

export interface SubscriptionRow {
  user_id: number;
  recipient_id: number;
  active: 0 | 1;
  color: string;
  is_muted: 0 | 1;
  pin_to_top: 0 | 1;
  desktop_notifications: 0 | 1 | null;
  audible_notifications: 0 | 1 | null;
  push_notifications: 0 | 1 | null;
  email_notifications: 0 | 1 | null;
  wildcard_mentions_notify: 0 | 1 | null;
}

/** A subscriber's personal settings for a channel, each a column of their subscription. */
export const SUBSCRIPTION_SETTINGS = [
  'color',
  'is_muted',
  'pin_to_top',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;

/** Recipient types, as Zulip numbers them. */
export const RecipientType = { PERSONAL: 1, STREAM: 2, DIRECT_MESSAGE_GROUP: 3 } as const;

/** Channel names are unique without regard to case, in every alphabet. */
export function channelNameKey(name: string): string {
  return name.toLowerCase();
}

export type NewChannel = Omit<ChannelRow, 'id' | 'name_key' | 'recipient_id' | 'first_message_id' | 'is_archived'>;

/** What subscriber lists are made of. */
const SUBSCRIBER_TABLES = ['subscriptions', 'users'];

export function prepareChannelQueries(db: Statements, writes: TableWrites) {
  const byId = db.prepare<[number], ChannelRow>('SELECT * FROM streams WHERE id = ?');
  const byName = db.prepare<[string], ChannelRow>('SELECT * FROM streams WHERE name_key = ?');
  const all = db.prepare<[], ChannelRow>('SELECT * FROM streams ORDER BY id');
  const columns = [
    'name',
    'name_key',
    'description',
    'rendered_description',
    'date_created',
    'creator_id',
    'invite_only',
    'is_web_public',
    'history_public_to_subscribers',
    'message_retention_days',
    'topics_policy',
    'folder_id',
    'is_default',
    ...CHANNEL_GROUP_SETTINGS.map((s) => `${s}_id`),
  ];
  const insert = db.prepare<Record<string, unknown>>(
    `INSERT INTO streams (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  const insertRecipient = db.prepare<[number, number]>('INSERT INTO recipients (type, type_id) VALUES (?, ?)');
  const setRecipient = db.prepare<[number, number]>('UPDATE streams SET recipient_id = ? WHERE id = ?');

  const subscription = db.prepare<[number, number], SubscriptionRow>(
    'SELECT * FROM subscriptions WHERE user_id = ? AND recipient_id = ?',
  );
  const subscriptionsOf = db.prepare<[number], SubscriptionRow & { stream_id: number }>(
    `SELECT s.*, r.type_id AS stream_id FROM subscriptions s JOIN recipients r ON r.id = s.recipient_id
     WHERE s.user_id = ? AND r.type = 2 ORDER BY r.type_id`,
  );
  // Subscribers as clients see them: active subscriptions of active users.
  const subscriberIds = db.prepare<[number], { user_id: number }>(
    `SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
     WHERE s.recipient_id = ? AND s.active = 1 AND u.is_active = 1 ORDER BY s.user_id`,
  );
  // Every message to a channel, every typing notice and every /register with subscribers
  // reads them: a big channel's list is kept until a subscription or a user row is written.
  const keptSubscribers = new Map<number, KeptWhileUnwritten<readonly number[]>>();
  const keptSubscriberIds = (recipientId: number): readonly number[] => {
    let kept = keptSubscribers.get(recipientId);
    if (!kept) keptSubscribers.set(recipientId, (kept = new KeptWhileUnwritten(writes, SUBSCRIBER_TABLES)));
    return kept.get(() => Object.freeze(subscriberIds.all(recipientId).map((r) => r.user_id)));
  };
  const subscribe = db.prepare<[number, number, string]>(
    `INSERT INTO subscriptions (user_id, recipient_id, active, color) VALUES (?, ?, 1, ?)
     ON CONFLICT DO UPDATE SET active = 1`,
  );
  const unsubscribe = db.prepare<[number, number]>(
    'UPDATE subscriptions SET active = 0 WHERE user_id = ? AND recipient_id = ?',
  );
  const defaultIds = db.prepare<[], { id: number }>('SELECT id FROM streams WHERE is_default = 1 AND is_archived = 0 ORDER BY id');
  const setSubscriptionProperty = Object.fromEntries(
    SUBSCRIPTION_SETTINGS.map((column) => [
      column,
      db.prepare<[string | number | null, number, number]>(`UPDATE subscriptions SET ${column} = ? WHERE user_id = ? AND recipient_id = ?`),
    ]),
  );
  // One statement per set of changed columns, prepared the first time that set is used.
  const updateStatements = new Map<string, Database.Statement>();
  const updateColumns = (id: number, changes: Partial<ChannelRow>) => {
    const values: Record<string, unknown> = { ...changes };
    if (changes.name !== undefined) values.name_key = channelNameKey(changes.name);
    const assigned = Object.keys(values).sort();
    if (assigned.length === 0) return;
    const key = assigned.join(',');
    let statement = updateStatements.get(key);
    if (!statement) {
      statement = db.prepare(`UPDATE streams SET ${assigned.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`);
      updateStatements.set(key, statement);
    }
    statement.run({ ...values, id });
  };
  const forgetLeftSubscription = db.prepare<[number, number]>(
    'DELETE FROM subscriptions WHERE user_id = ? AND recipient_id = ? AND active = 0',
  );
  const subscriptionCount = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM subscriptions WHERE recipient_id = ? AND active = 1');
  const folderById = db.prepare<[number], ChannelFolderRow>('SELECT * FROM channel_folders WHERE id = ?');
  const folders = db.prepare<[], ChannelFolderRow>('SELECT * FROM channel_folders ORDER BY position, id');
  const insertFolder = db.prepare<[string, string, string, number, number, number]>(
    'INSERT INTO channel_folders (name, description, rendered_description, date_created, creator_id, position) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const renameFolder = db.prepare<[string, number]>('UPDATE channel_folders SET name = ? WHERE id = ?');
  const describeFolder = db.prepare<[string, string, number]>(
    'UPDATE channel_folders SET description = ?, rendered_description = ? WHERE id = ?',
  );
  const archiveFolder = db.prepare<[number, number]>('UPDATE channel_folders SET is_archived = ? WHERE id = ?');
  const placeFolder = db.prepare<[number, number]>('UPDATE channel_folders SET position = ? WHERE id = ?');
  const folderInUse = db.prepare<[number], { id: number }>('SELECT id FROM streams WHERE folder_id = ? AND is_archived = 0 LIMIT 1');
  const emailToken = db.prepare<[number, number, number], { email_token: string }>(
    'SELECT email_token FROM channel_email_addresses WHERE stream_id = ? AND creator_id = ? AND coalesce(sender_id, 0) = ?',
  );
  const insertEmailToken = db.prepare<[number, number, number | null, string]>(
    'INSERT INTO channel_email_addresses (stream_id, creator_id, sender_id, email_token) VALUES (?, ?, ?, ?)',
  );
  const colorsOf = db.prepare<[number], { color: string }>('SELECT color FROM subscriptions WHERE user_id = ?');
  // Every /register reads every channel several times (subscriptions, streams, access): the
  // rows are kept, frozen, until a channel is written.
  const keptChannels = new KeptWhileUnwritten<readonly ChannelRow[]>(writes, ['streams']);

  return {
    byId: (id: number) => byId.get(id),
    /** By name, without regard to case. */
    byName: (name: string) => byName.get(channelNameKey(name)),
    /** Every channel, oldest first (a new array of shared, frozen rows). */
    all: (): ChannelRow[] => [...keptChannels.get(() => Object.freeze(all.all().map((row) => Object.freeze(row))))],
    /** Inserts a channel and its recipient; returns the channel's ID. */
    insert: (channel: NewChannel): number => {
      const id = Number(insert.run({ ...channel, name_key: channelNameKey(channel.name) }).lastInsertRowid);
      const recipientId = Number(insertRecipient.run(RecipientType.STREAM, id).lastInsertRowid);
      setRecipient.run(recipientId, id);
      return id;
    },
    subscription: (userId: number, recipientId: number) => subscription.get(userId, recipientId),
    /** Every channel subscription row of a user, active or not, with its channel's ID. */
    subscriptionsOf: (userId: number) => subscriptionsOf.all(userId),
    subscriberIds: keptSubscriberIds,
    /** How many subscribers clients see: active users' active subscriptions. */
    subscriberCount: (recipientId: number) => keptSubscriberIds(recipientId).length,
    subscribe: (userId: number, recipientId: number, color: string) => void subscribe.run(userId, recipientId, color),
    unsubscribe: (userId: number, recipientId: number) => void unsubscribe.run(userId, recipientId),
    /** The organization's default channels, which new users join. */
    defaultIds: () => defaultIds.all().map((r) => r.id),
    /** Sets one personal setting column of a subscription. */
    setSubscriptionProperty: (userId: number, recipientId: number, column: string, value: string | number | null) =>
      void setSubscriptionProperty[column].run(value, userId, recipientId),
    /** Changes columns of a channel; the column names come from our code, never from a request. */
    update: updateColumns,
    forgetLeftSubscription: (userId: number, recipientId: number) => void forgetLeftSubscription.run(userId, recipientId),
    /** Active subscriptions, deactivated users' included (they count to keep a channel alive). */
    subscriptionCount: (recipientId: number) => subscriptionCount.get(recipientId)!.n,
    folderById: (id: number) => folderById.get(id),
    /** Every channel folder, archived ones too, in the organization's order. */
    folders: () => folders.all(),
    insertFolder: (folder: Omit<ChannelFolderRow, 'id' | 'is_archived'>) =>
      Number(
        insertFolder.run(folder.name, folder.description, folder.rendered_description, folder.date_created, folder.creator_id!, folder.position)
          .lastInsertRowid,
      ),
    renameFolder: (id: number, name: string) => void renameFolder.run(name, id),
    describeFolder: (id: number, description: string, rendered: string) => void describeFolder.run(description, rendered, id),
    setFolderArchived: (id: number, archived: boolean) => void archiveFolder.run(archived ? 1 : 0, id),
    setFolderPosition: (id: number, position: number) => void placeFolder.run(position, id),
    /** Whether any channel that is not archived is in the folder. */
    folderInUse: (id: number) => folderInUse.get(id) !== undefined,
    /** The token of the channel's email address a user asked for, with this sender (null: the gateway). */
    emailToken: (channelId: number, creatorId: number, senderId: number | null) =>
      emailToken.get(channelId, creatorId, senderId ?? 0)?.email_token,
    insertEmailToken: (channelId: number, creatorId: number, senderId: number | null, token: string) =>
      void insertEmailToken.run(channelId, creatorId, senderId, token),
    /** Colors the user's subscriptions already use, to pick a fresh one. */
    colorsOf: (userId: number) => colorsOf.all(userId).map((r) => r.color),
  };
}

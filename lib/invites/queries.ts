import type { Statements } from '../db';

/** Zulip's confirmation statuses. */
export const InviteStatus = { ACTIVE: 0, USED: 1, REVOKED: 2 } as const;

export interface InviteRow {
  id: number;
  key: string;
  is_multiuse: 0 | 1;
  email: string | null;
  invited_by_user_id: number;
  invited_as: number;
  include_realm_default_subscriptions: 0 | 1;
  notify_referrer_on_join: 0 | 1;
  invited_at: number;
  expires_at: number | null;
  status: number;
  welcome_message_custom_text: string | null;
}

export type NewInvite = Pick<
  InviteRow,
  'key' | 'is_multiuse' | 'email' | 'invited_by_user_id' | 'invited_as' | 'include_realm_default_subscriptions' | 'notify_referrer_on_join' | 'invited_at' | 'expires_at' | 'welcome_message_custom_text'
>;

export function prepareInviteQueries(db: Statements) {
  const insert = db.prepare<[NewInvite]>(
    `INSERT INTO invites (key, is_multiuse, email, invited_by_user_id, invited_as, include_realm_default_subscriptions,
       notify_referrer_on_join, invited_at, expires_at, welcome_message_custom_text)
     VALUES (@key, @is_multiuse, @email, @invited_by_user_id, @invited_as, @include_realm_default_subscriptions,
       @notify_referrer_on_join, @invited_at, @expires_at, @welcome_message_custom_text)`,
  );
  const addChannel = db.prepare<[number, number]>('INSERT OR IGNORE INTO invite_channels (invite_id, channel_id) VALUES (?, ?)');
  const addGroup = db.prepare<[number, number]>('INSERT OR IGNORE INTO invite_groups (invite_id, group_id) VALUES (?, ?)');
  const byId = db.prepare<[number], InviteRow>('SELECT * FROM invites WHERE id = ?');
  const byKey = db.prepare<[string], InviteRow>('SELECT * FROM invites WHERE key = ?');
  const usable = db.prepare<[number], InviteRow>(
    'SELECT * FROM invites WHERE status = 0 AND (expires_at IS NULL OR expires_at >= ?) ORDER BY id',
  );
  const usableBy = db.prepare<[number, number], InviteRow>(
    'SELECT * FROM invites WHERE status = 0 AND (expires_at IS NULL OR expires_at >= ?) AND invited_by_user_id = ? ORDER BY id',
  );
  const channelIds = db.prepare<[number], { channel_id: number }>('SELECT channel_id FROM invite_channels WHERE invite_id = ? ORDER BY channel_id');
  const groupIds = db.prepare<[number], { group_id: number }>('SELECT group_id FROM invite_groups WHERE invite_id = ? ORDER BY group_id');
  const setStatus = db.prepare<[number, number]>('UPDATE invites SET status = ? WHERE id = ?');
  const revokeAllBy = db.prepare<[number]>('UPDATE invites SET status = 2 WHERE status = 0 AND invited_by_user_id = ?');
  const activeForEmail = db.prepare<[string], InviteRow>('SELECT * FROM invites WHERE status = 0 AND email = ? COLLATE NOCASE ORDER BY id');
  const setInvitedAt = db.prepare<[number, number]>('UPDATE invites SET invited_at = ? WHERE id = ?');
  return {
    /** Stores an invitation with its channels and groups; returns its ID. */
    insert: (invite: NewInvite, channelIdList: readonly number[], groupIdList: readonly number[]) => {
      const id = Number(insert.run(invite).lastInsertRowid);
      for (const channelId of channelIdList) addChannel.run(id, channelId);
      for (const groupId of groupIdList) addGroup.run(id, groupId);
      return id;
    },
    byId: (id: number) => byId.get(id),
    byKey: (key: string) => byKey.get(key),
    /** Invitations not used, revoked or expired at `nowSeconds`: everyone's, or one inviter's. */
    usable: (nowSeconds: number, invitedBy?: number) =>
      invitedBy === undefined ? usable.all(nowSeconds) : usableBy.all(nowSeconds, invitedBy),
    channelIds: (id: number) => channelIds.all(id).map((r) => r.channel_id),
    groupIds: (id: number) => groupIds.all(id).map((r) => r.group_id),
    setStatus: (id: number, status: number) => void setStatus.run(status, id),
    /** Revokes every usable invitation the user made; how many there were. */
    revokeAllBy: (userId: number) => revokeAllBy.run(userId).changes,
    /** Email invitations to this address not yet used or revoked (expired ones too). */
    activeForEmail: (email: string) => activeForEmail.all(email),
    setInvitedAt: (id: number, seconds: number) => void setInvitedAt.run(seconds, id),
  };
}

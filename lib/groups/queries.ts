import type { Db } from '../db';

export interface GroupRow {
  id: number;
  name: string | null;
  description: string;
  is_system_group: 0 | 1;
  deactivated: 0 | 1;
  date_created: number | null;
  creator_id: number | null;
  can_add_members_group_id: number | null;
  can_join_group_id: number | null;
  can_leave_group_id: number | null;
  can_manage_group_id: number | null;
  can_mention_group_id: number | null;
  can_remove_members_group_id: number | null;
}

/** The settings every user group carries, by their API names. */
export const GROUP_SETTINGS = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;
export type GroupSettingName = (typeof GROUP_SETTINGS)[number];

export function prepareGroupQueries(db: Db) {
  const insert = db.prepare<[string | null, string, number, number | null]>(
    'INSERT INTO user_groups (name, description, is_system_group, date_created) VALUES (?, ?, ?, ?)',
  );
  const byId = db.prepare<[number], GroupRow>('SELECT * FROM user_groups WHERE id = ?');
  const byName = db.prepare<[string], GroupRow>('SELECT * FROM user_groups WHERE name = ?');
  const named = db.prepare<[], GroupRow>('SELECT * FROM user_groups WHERE name IS NOT NULL ORDER BY id');
  const setSettings = db.prepare<Record<string, number>>(
    `UPDATE user_groups SET ${GROUP_SETTINGS.map((s) => `${s}_id = @${s}`).join(', ')} WHERE id = @id`,
  );
  const addMember = db.prepare<[number, number]>(
    'INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES (?, ?)',
  );
  const removeMember = db.prepare<[number, number]>('DELETE FROM user_group_members WHERE group_id = ? AND user_id = ?');
  const groupIdsOfMember = db.prepare<[number], { group_id: number }>(
    'SELECT group_id FROM user_group_members WHERE user_id = ? ORDER BY group_id',
  );
  const addSubgroup = db.prepare<[number, number]>(
    'INSERT OR IGNORE INTO user_group_subgroups (supergroup_id, subgroup_id) VALUES (?, ?)',
  );
  // Deactivated users keep their memberships (for reactivation) but are never shown in them.
  const directMemberIds = db.prepare<[number], { user_id: number }>(
    `SELECT m.user_id FROM user_group_members m JOIN users u ON u.id = m.user_id
     WHERE m.group_id = ? AND u.is_active = 1 ORDER BY m.user_id`,
  );
  const subgroupIds = db.prepare<[number], { subgroup_id: number }>(
    'SELECT subgroup_id FROM user_group_subgroups WHERE supergroup_id = ? ORDER BY subgroup_id',
  );
  // A user holds a group's permission if they are a direct member of it or of any group it
  // contains, however deep; deactivated users hold nothing.
  const hasMember = db.prepare<[number, number], { found: 1 }>(
    `WITH RECURSIVE reachable(id) AS (
       SELECT ? UNION SELECT s.subgroup_id FROM user_group_subgroups s JOIN reachable r ON s.supergroup_id = r.id)
     SELECT 1 AS found FROM user_group_members m JOIN reachable r ON m.group_id = r.id
       JOIN users u ON u.id = m.user_id
     WHERE m.user_id = ? AND u.is_active = 1 LIMIT 1`,
  );
  return {
    insert: (name: string | null, description: string, isSystem: boolean, dateCreated: number | null) =>
      Number(insert.run(name, description, isSystem ? 1 : 0, dateCreated).lastInsertRowid),
    byId: (id: number) => byId.get(id),
    byName: (name: string) => byName.get(name),
    /** Every named group (system and user-made, active or not), without anonymous ones. */
    named: () => named.all(),
    setSettings: (id: number, settings: Record<GroupSettingName, number>) =>
      void setSettings.run({ id, ...settings }),
    addMember: (groupId: number, userId: number) => void addMember.run(groupId, userId),
    removeMember: (groupId: number, userId: number) => void removeMember.run(groupId, userId),
    /** The groups a user is a direct member of. */
    groupIdsOfMember: (userId: number) => groupIdsOfMember.all(userId).map((r) => r.group_id),
    addSubgroup: (supergroupId: number, subgroupId: number) => void addSubgroup.run(supergroupId, subgroupId),
    /** Active direct members. */
    directMemberIds: (groupId: number) => directMemberIds.all(groupId).map((r) => r.user_id),
    subgroupIds: (groupId: number) => subgroupIds.all(groupId).map((r) => r.subgroup_id),
    hasMember: (groupId: number, userId: number) => hasMember.get(groupId, userId) !== undefined,
  };
}

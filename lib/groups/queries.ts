import type { Statement } from 'better-sqlite3';
import type { Statements } from '../db';
import { KeptWhileUnwritten, type TableWrites } from '../table-writes';

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

export function prepareGroupQueries(db: Statements, writes: TableWrites) {
  const insert = db.prepare<[string | null, string, number, number | null, number | null]>(
    'INSERT INTO user_groups (name, description, is_system_group, date_created, creator_id) VALUES (?, ?, ?, ?, ?)',
  );
  const byId = db.prepare<[number], GroupRow>('SELECT * FROM user_groups WHERE id = ?');
  const byName = db.prepare<[string], GroupRow>('SELECT * FROM user_groups WHERE name = ?');
  // Names are unique without regard to case, so a rename or a new group must not take one
  // that differs from an existing name only in case.
  const byNameAnyCase = db.prepare<[string], GroupRow>('SELECT * FROM user_groups WHERE name = ? COLLATE NOCASE');
  const activeByName = db.prepare<[string], GroupRow>('SELECT * FROM user_groups WHERE name = ? AND deactivated = 0');
  const rename = db.prepare<[string, number]>('UPDATE user_groups SET name = ? WHERE id = ?');
  const setDescription = db.prepare<[string, number]>('UPDATE user_groups SET description = ? WHERE id = ?');
  const setDeactivated = db.prepare<[number, number]>('UPDATE user_groups SET deactivated = ? WHERE id = ?');
  const named = db.prepare<[], GroupRow>('SELECT * FROM user_groups WHERE name IS NOT NULL ORDER BY id');
  const setSettings = db.prepare<Record<string, number>>(
    `UPDATE user_groups SET ${GROUP_SETTINGS.map((s) => `${s}_id = @${s}`).join(', ')} WHERE id = @id`,
  );
  const setSetting = Object.fromEntries(
    GROUP_SETTINGS.map((setting) => [setting, db.prepare<[number, number]>(`UPDATE user_groups SET ${setting}_id = ? WHERE id = ?`)]),
  ) as Record<GroupSettingName, Statement<[number, number]>>;
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
  const keptMembers = new Map<number, KeptWhileUnwritten<readonly number[]>>();
  const keptGroups = new KeptWhileUnwritten<Map<number, GroupRow | undefined>>(writes, ['user_groups']);
  const keptSubgroups = new KeptWhileUnwritten<Map<number, readonly number[]>>(writes, ['user_group_subgroups']);
  const directMemberIds = db.prepare<[number], { user_id: number }>(
    `SELECT m.user_id FROM user_group_members m JOIN users u ON u.id = m.user_id
     WHERE m.group_id = ? AND u.is_active = 1 ORDER BY m.user_id`,
  );
  const subgroupIds = db.prepare<[number], { subgroup_id: number }>(
    'SELECT subgroup_id FROM user_group_subgroups WHERE supergroup_id = ? ORDER BY subgroup_id',
  );
  const removeSubgroup = db.prepare<[number, number]>(
    'DELETE FROM user_group_subgroups WHERE supergroup_id = ? AND subgroup_id = ?',
  );
  const supergroupIds = db.prepare<[number], { supergroup_id: number }>(
    'SELECT supergroup_id FROM user_group_subgroups WHERE subgroup_id = ? ORDER BY supergroup_id',
  );
  // Subgroups of subgroups, however deep, without the group itself.
  const recursiveSubgroupIds = db.prepare<[number], { id: number }>(
    `WITH RECURSIVE below(id) AS (
       SELECT subgroup_id FROM user_group_subgroups WHERE supergroup_id = ?
       UNION SELECT s.subgroup_id FROM user_group_subgroups s JOIN below b ON s.supergroup_id = b.id)
     SELECT id FROM below ORDER BY id`,
  );
  const recursiveMemberIds = db.prepare<[number], { user_id: number }>(
    `WITH RECURSIVE reachable(id) AS (
       SELECT ? UNION SELECT s.subgroup_id FROM user_group_subgroups s JOIN reachable r ON s.supergroup_id = r.id)
     SELECT DISTINCT m.user_id FROM user_group_members m JOIN reachable r ON m.group_id = r.id
       JOIN users u ON u.id = m.user_id
     WHERE u.is_active = 1 ORDER BY m.user_id`,
  );
  const isDirectMember = db.prepare<[number, number], { found: 1 }>(
    'SELECT 1 AS found FROM user_group_members WHERE group_id = ? AND user_id = ?',
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
    insert: (name: string | null, description: string, isSystem: boolean, dateCreated: number | null, creatorId: number | null = null) =>
      Number(insert.run(name, description, isSystem ? 1 : 0, dateCreated, creatorId).lastInsertRowid),
    byId: (id: number): GroupRow | undefined => {
      // Every channel and the organization name groups in their settings: each /register looks up dozens.
      const rows = keptGroups.get(() => new Map());
      if (!rows.has(id)) {
        const row = byId.get(id);
        rows.set(id, row && Object.freeze(row));
      }
      return rows.get(id);
    },
    byName: (name: string) => byName.get(name),
    byNameAnyCase: (name: string) => byNameAnyCase.get(name),
    /** An active named group by its exact name, as a mention names it. */
    activeByName: (name: string) => activeByName.get(name),
    rename: (id: number, name: string) => void rename.run(name, id),
    setDescription: (id: number, description: string) => void setDescription.run(description, id),
    setDeactivated: (id: number, deactivated: boolean) => void setDeactivated.run(deactivated ? 1 : 0, id),
    /** Every named group (system and user-made, active or not), without anonymous ones. */
    named: () => named.all(),
    setSettings: (id: number, settings: Record<GroupSettingName, number>) =>
      void setSettings.run({ id, ...settings }),
    setSetting: (id: number, setting: GroupSettingName, groupId: number) => void setSetting[setting].run(groupId, id),
    addMember: (groupId: number, userId: number) => void addMember.run(groupId, userId),
    removeMember: (groupId: number, userId: number) => void removeMember.run(groupId, userId),
    /** The groups a user is a direct member of. */
    groupIdsOfMember: (userId: number) => groupIdsOfMember.all(userId).map((r) => r.group_id),
    addSubgroup: (supergroupId: number, subgroupId: number) => void addSubgroup.run(supergroupId, subgroupId),
    /** Active direct members. */
    directMemberIds: (groupId: number): readonly number[] => {
      // Every /register lists every group's members; role:members holds everyone.
      let kept = keptMembers.get(groupId);
      if (!kept) keptMembers.set(groupId, (kept = new KeptWhileUnwritten(writes, ['user_group_members', 'users'])));
      return kept.get(() => Object.freeze(directMemberIds.all(groupId).map((r) => r.user_id)));
    },
    subgroupIds: (groupId: number): readonly number[] => {
      const lists = keptSubgroups.get(() => new Map());
      let ids = lists.get(groupId);
      if (!ids) lists.set(groupId, (ids = Object.freeze(subgroupIds.all(groupId).map((r) => r.subgroup_id))));
      return ids;
    },
    removeSubgroup: (supergroupId: number, subgroupId: number) => void removeSubgroup.run(supergroupId, subgroupId),
    /** The groups, named or anonymous, that contain this one directly. */
    supergroupIds: (groupId: number) => supergroupIds.all(groupId).map((r) => r.supergroup_id),
    recursiveSubgroupIds: (groupId: number) => recursiveSubgroupIds.all(groupId).map((r) => r.id),
    /** Active members of the group and of every group it contains. */
    recursiveMemberIds: (groupId: number) => recursiveMemberIds.all(groupId).map((r) => r.user_id),
    /** Whether the user is a direct member, active or not. */
    isDirectMember: (groupId: number, userId: number) => isDirectMember.get(groupId, userId) !== undefined,
    hasMember: (groupId: number, userId: number) => hasMember.get(groupId, userId) !== undefined,
  };
}

import type { Db } from '../db';

export interface GroupRow {
  id: number;
  name: string | null;
  description: string;
  is_system_group: 0 | 1;
  deactivated: 0 | 1;
  date_created: number | null;
  creator_id: number | null;
}

export function prepareGroupQueries(db: Db) {
  const insert = db.prepare<[string | null, string, number, number | null]>(
    'INSERT INTO user_groups (name, description, is_system_group, date_created) VALUES (?, ?, ?, ?)',
  );
  const byName = db.prepare<[string], GroupRow>('SELECT * FROM user_groups WHERE name = ?');
  const systemGroups = db.prepare<[], GroupRow>('SELECT * FROM user_groups WHERE is_system_group = 1 ORDER BY id');
  const addMember = db.prepare<[number, number]>(
    'INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES (?, ?)',
  );
  const addSubgroup = db.prepare<[number, number]>(
    'INSERT OR IGNORE INTO user_group_subgroups (supergroup_id, subgroup_id) VALUES (?, ?)',
  );
  const directMemberIds = db.prepare<[number], { user_id: number }>(
    'SELECT user_id FROM user_group_members WHERE group_id = ? ORDER BY user_id',
  );
  const subgroupIds = db.prepare<[number], { subgroup_id: number }>(
    'SELECT subgroup_id FROM user_group_subgroups WHERE supergroup_id = ? ORDER BY subgroup_id',
  );
  return {
    insert: (name: string | null, description: string, isSystem: boolean, dateCreated: number | null) =>
      Number(insert.run(name, description, isSystem ? 1 : 0, dateCreated).lastInsertRowid),
    byName: (name: string) => byName.get(name),
    systemGroups: () => systemGroups.all(),
    addMember: (groupId: number, userId: number) => void addMember.run(groupId, userId),
    addSubgroup: (supergroupId: number, subgroupId: number) => void addSubgroup.run(supergroupId, subgroupId),
    directMemberIds: (groupId: number) => directMemberIds.all(groupId).map((r) => r.user_id),
    subgroupIds: (groupId: number) => subgroupIds.all(groupId).map((r) => r.subgroup_id),
  };
}
export type GroupQueries = ReturnType<typeof prepareGroupQueries>;

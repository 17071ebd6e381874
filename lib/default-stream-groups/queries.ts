import type { Statements } from '../db';

export interface DefaultStreamGroupRow {
  id: number;
  name: string;
  description: string;
}

export function prepareDefaultStreamGroupQueries(db: Statements) {
  const all = db.prepare<[], DefaultStreamGroupRow>('SELECT * FROM default_stream_groups ORDER BY name, id');
  const byId = db.prepare<[number], DefaultStreamGroupRow>('SELECT * FROM default_stream_groups WHERE id = ?');
  const byName = db.prepare<[string], DefaultStreamGroupRow>('SELECT * FROM default_stream_groups WHERE name = ?');
  const channelIds = db.prepare<[number], { stream_id: number }>(
    'SELECT stream_id FROM default_stream_group_channels WHERE group_id = ? ORDER BY stream_id',
  );
  const groupsOfChannel = db.prepare<[number], { group_id: number }>('SELECT group_id FROM default_stream_group_channels WHERE stream_id = ?');
  const insert = db.prepare<[string, string]>('INSERT INTO default_stream_groups (name, description) VALUES (?, ?)');
  const update = db.prepare<[string, string, number]>('UPDATE default_stream_groups SET name = ?, description = ? WHERE id = ?');
  const remove = db.prepare<[number]>('DELETE FROM default_stream_groups WHERE id = ?');
  const addChannel = db.prepare<[number, number]>('INSERT INTO default_stream_group_channels (group_id, stream_id) VALUES (?, ?)');
  const removeChannel = db.prepare<[number, number]>('DELETE FROM default_stream_group_channels WHERE group_id = ? AND stream_id = ?');
  const removeChannelEverywhere = db.prepare<[number]>('DELETE FROM default_stream_group_channels WHERE stream_id = ?');
  return {
    /** Every group, by name, as Zulip lists them. */
    all: () => all.all(),
    byId: (id: number) => byId.get(id),
    /** Names are compared exactly, as Zulip compares them. */
    byName: (name: string) => byName.get(name),
    channelIds: (groupId: number) => channelIds.all(groupId).map((row) => row.stream_id),
    /** The groups a channel is in. */
    groupsOfChannel: (channelId: number) => groupsOfChannel.all(channelId).map((row) => row.group_id),
    insert: (name: string, description: string) => Number(insert.run(name, description).lastInsertRowid),
    update: (group: DefaultStreamGroupRow) => void update.run(group.name, group.description, group.id),
    remove: (id: number) => void remove.run(id),
    addChannel: (groupId: number, channelId: number) => void addChannel.run(groupId, channelId),
    removeChannel: (groupId: number, channelId: number) => void removeChannel.run(groupId, channelId),
    removeChannelEverywhere: (channelId: number) => void removeChannelEverywhere.run(channelId),
  };
}

import type { Statements } from '../db';

export interface RealmEmojiRow {
  id: number;
  name: string;
  file_name: string;
  author_id: number | null;
  is_animated: 0 | 1;
  deactivated: 0 | 1;
}

export type NewRealmEmoji = Omit<RealmEmojiRow, 'id' | 'deactivated'>;

export function prepareRealmEmojiQueries(db: Statements) {
  const all = db.prepare<[], RealmEmojiRow>('SELECT * FROM realm_emoji ORDER BY id');
  const byId = db.prepare<[number], RealmEmojiRow>('SELECT * FROM realm_emoji WHERE id = ?');
  const activeByName = db.prepare<[string], RealmEmojiRow>('SELECT * FROM realm_emoji WHERE name = ? AND deactivated = 0');
  const byFileName = db.prepare<[string], RealmEmojiRow>('SELECT * FROM realm_emoji WHERE file_name = ?');
  const insert = db.prepare<NewRealmEmoji>(
    `INSERT INTO realm_emoji (name, file_name, author_id, is_animated)
     VALUES (@name, @file_name, @author_id, @is_animated)`,
  );
  const deactivate = db.prepare<[number]>('UPDATE realm_emoji SET deactivated = 1 WHERE id = ?');
  return {
    /** Every custom emoji, deactivated ones included, oldest first. */
    all: () => all.all(),
    byId: (id: number) => byId.get(id),
    /** The emoji a name stands for now: deactivated ones give their name up. */
    activeByName: (name: string) => activeByName.get(name),
    byFileName: (fileName: string) => byFileName.get(fileName),
    insert: (emoji: NewRealmEmoji) => Number(insert.run(emoji).lastInsertRowid),
    deactivate: (id: number) => void deactivate.run(id),
  };
}

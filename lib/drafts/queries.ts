import type { Statements } from '../db';

export type DraftType = '' | 'stream' | 'private';

export interface DraftRow {
  id: number;
  user_id: number;
  type: DraftType;
  /** JSON array of IDs; see schema.sql. */
  to_ids: string;
  topic: string;
  content: string;
  last_edit_time: number;
}

/** A draft's contents as validated, ready to store. */
export interface DraftFields {
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  lastEditTime: number;
}

export function prepareDraftQueries(db: Statements) {
  const forUser = db.prepare<[number], DraftRow>(
    'SELECT * FROM drafts WHERE user_id = ? ORDER BY last_edit_time, id',
  );
  const get = db.prepare<[number, number], DraftRow>('SELECT * FROM drafts WHERE id = ? AND user_id = ?');
  const insert = db.prepare<[number, string, string, string, string, number]>(
    'INSERT INTO drafts (user_id, type, to_ids, topic, content, last_edit_time) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const update = db.prepare<[string, string, string, string, number, number]>(
    'UPDATE drafts SET type = ?, to_ids = ?, topic = ?, content = ?, last_edit_time = ? WHERE id = ?',
  );
  const remove = db.prepare<[number]>('DELETE FROM drafts WHERE id = ?');
  const removeAllOf = db.prepare<[number]>('DELETE FROM drafts WHERE user_id = ?');
  return {
    /** The user's drafts, least recently edited first, as Zulip lists them. */
    forUser: (userId: number) => forUser.all(userId),
    /** One of the user's drafts; another user's draft is as good as missing. */
    get: (userId: number, draftId: number) => get.get(draftId, userId),
    insert: (userId: number, draft: DraftFields) =>
      Number(
        insert.run(userId, draft.type, JSON.stringify(draft.to), draft.topic, draft.content, draft.lastEditTime)
          .lastInsertRowid,
      ),
    update: (draftId: number, draft: DraftFields) =>
      void update.run(draft.type, JSON.stringify(draft.to), draft.topic, draft.content, draft.lastEditTime, draftId),
    remove: (draftId: number) => void remove.run(draftId),
    removeAllOf: (userId: number) => void removeAllOf.run(userId),
  };
}

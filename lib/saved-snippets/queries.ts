import type { Statements } from '../db';

export interface SavedSnippetRow {
  id: number;
  user_id: number;
  title: string;
  content: string;
  date_created: number;
}

export function prepareSavedSnippetQueries(db: Statements) {
  const forUser = db.prepare<[number], SavedSnippetRow>('SELECT * FROM saved_snippets WHERE user_id = ? ORDER BY id');
  const get = db.prepare<[number, number], SavedSnippetRow>('SELECT * FROM saved_snippets WHERE id = ? AND user_id = ?');
  const insert = db.prepare<[number, string, string, number]>(
    'INSERT INTO saved_snippets (user_id, title, content, date_created) VALUES (?, ?, ?, ?)',
  );
  const update = db.prepare<[string, string, number]>('UPDATE saved_snippets SET title = ?, content = ? WHERE id = ?');
  const remove = db.prepare<[number]>('DELETE FROM saved_snippets WHERE id = ?');
  return {
    forUser: (userId: number) => forUser.all(userId),
    /** One of the user's snippets; another user's snippet is as good as missing. */
    get: (userId: number, snippetId: number) => get.get(snippetId, userId),
    insert: (userId: number, title: string, content: string, dateCreated: number) =>
      Number(insert.run(userId, title, content, dateCreated).lastInsertRowid),
    update: (snippetId: number, title: string, content: string) => void update.run(title, content, snippetId),
    remove: (snippetId: number) => void remove.run(snippetId),
  };
}

/** A saved snippet as the API shows it. */
export function presentSavedSnippet(row: SavedSnippetRow): Record<string, unknown> {
  return { id: row.id, title: row.title, content: row.content, date_created: row.date_created };
}

import type { Statements } from '../db';

export interface PlaygroundRow {
  id: number;
  name: string;
  language: string;
  url_template: string;
}

export function preparePlaygroundQueries(db: Statements) {
  const all = db.prepare<[], PlaygroundRow>('SELECT * FROM realm_playgrounds ORDER BY id');
  const byId = db.prepare<[number], PlaygroundRow>('SELECT * FROM realm_playgrounds WHERE id = ?');
  const byLanguageAndName = db.prepare<[string, string], PlaygroundRow>(
    'SELECT * FROM realm_playgrounds WHERE language = ? AND name = ?',
  );
  const insert = db.prepare<[string, string, string]>(
    'INSERT INTO realm_playgrounds (name, language, url_template) VALUES (?, ?, ?)',
  );
  const remove = db.prepare<[number]>('DELETE FROM realm_playgrounds WHERE id = ?');
  return {
    all: () => all.all(),
    byId: (id: number) => byId.get(id),
    byLanguageAndName: (language: string, name: string) => byLanguageAndName.get(language, name),
    insert: (name: string, language: string, urlTemplate: string) => Number(insert.run(name, language, urlTemplate).lastInsertRowid),
    remove: (id: number) => void remove.run(id),
  };
}

/**
 * A playground as the API shows it. The specification calls the language
 * `highlighter_language`; Zulip clients read `pygments_language`. Both carry it.
 */
export function presentPlayground(row: PlaygroundRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    pygments_language: row.language,
    highlighter_language: row.language,
    url_template: row.url_template,
  };
}

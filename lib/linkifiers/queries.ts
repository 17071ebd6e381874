import type { Statements } from '../db';

/** A linkifier as clients and the Markdown renderer see it. */
export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

export function prepareLinkifierQueries(db: Statements) {
  const inOrder = db.prepare<[], Linkifier>('SELECT id, pattern, url_template FROM realm_linkifiers ORDER BY position, id');
  const byId = db.prepare<[number], Linkifier>('SELECT id, pattern, url_template FROM realm_linkifiers WHERE id = ?');
  const byPattern = db.prepare<[string], Linkifier>(
    'SELECT id, pattern, url_template FROM realm_linkifiers WHERE pattern = ?',
  );
  const insert = db.prepare<[string, string]>(
    `INSERT INTO realm_linkifiers (pattern, url_template, position)
     VALUES (?, ?, (SELECT COALESCE(MAX(position) + 1, 0) FROM realm_linkifiers))`,
  );
  const update = db.prepare<[string, string, number]>('UPDATE realm_linkifiers SET pattern = ?, url_template = ? WHERE id = ?');
  const setPosition = db.prepare<[number, number]>('UPDATE realm_linkifiers SET position = ? WHERE id = ?');
  const remove = db.prepare<[number]>('DELETE FROM realm_linkifiers WHERE id = ?');
  return {
    /** The organization's linkifiers in the order they apply: what the Markdown renderer reads. */
    realmLinkifiers: (): Linkifier[] => inOrder.all(),
    byId: (id: number) => byId.get(id),
    byPattern: (pattern: string) => byPattern.get(pattern),
    /** Adds a linkifier after all the others. */
    insert: (pattern: string, urlTemplate: string) => Number(insert.run(pattern, urlTemplate).lastInsertRowid),
    update: (id: number, pattern: string, urlTemplate: string) => void update.run(pattern, urlTemplate, id),
    setPosition: (id: number, position: number) => void setPosition.run(position, id),
    remove: (id: number) => void remove.run(id),
  };
}

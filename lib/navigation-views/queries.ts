import type { Statements } from '../db';

export interface NavigationViewRow {
  id: number;
  user_id: number;
  fragment: string;
  is_pinned: number;
  name: string | null;
}

export function prepareNavigationViewQueries(db: Statements) {
  const forUser = db.prepare<[number], NavigationViewRow>('SELECT * FROM navigation_views WHERE user_id = ? ORDER BY id');
  const byFragment = db.prepare<[number, string], NavigationViewRow>('SELECT * FROM navigation_views WHERE user_id = ? AND fragment = ?');
  const byName = db.prepare<[number, string], NavigationViewRow>('SELECT * FROM navigation_views WHERE user_id = ? AND name = ?');
  const insert = db.prepare<[number, string, number, string | null]>(
    'INSERT INTO navigation_views (user_id, fragment, is_pinned, name) VALUES (?, ?, ?, ?)',
  );
  const update = db.prepare<[number, string | null, number]>('UPDATE navigation_views SET is_pinned = ?, name = ? WHERE id = ?');
  const remove = db.prepare<[number]>('DELETE FROM navigation_views WHERE id = ?');
  return {
    forUser: (userId: number) => forUser.all(userId),
    byFragment: (userId: number, fragment: string) => byFragment.get(userId, fragment),
    byName: (userId: number, name: string) => byName.get(userId, name),
    insert: (userId: number, fragment: string, isPinned: boolean, name: string | null) =>
      void insert.run(userId, fragment, isPinned ? 1 : 0, name),
    update: (id: number, isPinned: boolean, name: string | null) => void update.run(isPinned ? 1 : 0, name, id),
    remove: (id: number) => void remove.run(id),
  };
}

/** A navigation view as the API shows it. */
export function presentNavigationView(row: NavigationViewRow): Record<string, unknown> {
  return { fragment: row.fragment, is_pinned: row.is_pinned === 1, name: row.name };
}

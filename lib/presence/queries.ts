import type { Statements } from '../db';
import { KeptWhileUnwritten, type TableWrites } from '../table-writes';

export interface PresenceRow {
  user_id: number;
  last_active_ms: number | null;
  last_connected_ms: number;
  last_update_id: number;
}

/** A presence row with what presenting it needs from its user. */
export interface PresenceView extends PresenceRow {
  email: string;
  date_joined_ms: number;
}

export function preparePresenceQueries(db: Statements, writes: TableWrites) {
  const byUser = db.prepare<[number], PresenceRow>('SELECT * FROM user_presence WHERE user_id = ?');
  const viewOf = db.prepare<[number], PresenceView>(
    `SELECT p.*, u.email, u.date_joined_ms FROM user_presence p JOIN users u ON u.id = p.user_id
     WHERE p.user_id = ?`,
  );
  // Bots report no presence, and deactivated users have none to show. Every /register reads
  // everyone's row and every presence report the rows changed since its last: joined with
  // their wide user rows and made into objects by the driver, a thousand rows took about
  // 2.5 ms. The people's part is kept until a user row is written, and the rows are read as
  // arrays: a first read walks the table in user order, a later one the few changed rows.
  const COLUMNS = 'user_id, last_active_ms, last_connected_ms, last_update_id';
  const changedInUserOrder = db
    .prepare<[number, number], [number, number | null, number, number]>(
      `SELECT ${COLUMNS} FROM user_presence NOT INDEXED WHERE last_update_id > ? AND last_connected_ms >= ? ORDER BY user_id`,
    )
    .raw(true);
  const changedByUpdate = db
    .prepare<[number, number], [number, number | null, number, number]>(
      `SELECT ${COLUMNS} FROM user_presence INDEXED BY user_presence_by_update WHERE last_update_id > ? AND last_connected_ms >= ?`,
    )
    .raw(true);
  const humans = db.prepare<[], { id: number; email: string; date_joined_ms: number }>(
    'SELECT id, email, date_joined_ms FROM users WHERE is_active = 1 AND is_bot = 0',
  );
  const keptHumans = new KeptWhileUnwritten<ReadonlyMap<number, { email: string; date_joined_ms: number }>>(writes, ['users']);
  const changedSince = (afterUpdateId: number, sinceMs: number): PresenceView[] => {
    const people = keptHumans.get(() => new Map(humans.all().map(({ id, email, date_joined_ms }) => [id, { email, date_joined_ms }])));
    const rows = afterUpdateId > 0 ? changedByUpdate.all(afterUpdateId, sinceMs) : changedInUserOrder.all(afterUpdateId, sinceMs);
    const views: PresenceView[] = [];
    for (const [user_id, last_active_ms, last_connected_ms, last_update_id] of rows) {
      const person = people.get(user_id);
      if (person) views.push({ user_id, last_active_ms, last_connected_ms, last_update_id, email: person.email, date_joined_ms: person.date_joined_ms });
    }
    return afterUpdateId > 0 ? views.sort((a, b) => a.user_id - b.user_id) : views;
  };
  const newestUpdateId = db.prepare<[], { id: number | null }>('SELECT max(last_update_id) AS id FROM user_presence');
  const upsert = db.prepare<PresenceRow>(
    `INSERT INTO user_presence (user_id, last_active_ms, last_connected_ms, last_update_id)
     VALUES (@user_id, @last_active_ms, @last_connected_ms, @last_update_id)
     ON CONFLICT (user_id) DO UPDATE SET last_active_ms = excluded.last_active_ms,
       last_connected_ms = excluded.last_connected_ms, last_update_id = excluded.last_update_id`,
  );
  return {
    byUser: (userId: number) => byUser.get(userId),
    viewOf: (userId: number) => viewOf.get(userId),
    /** Rows of active human users changed after `afterUpdateId` and connected since `sinceMs`. */
    changedSince,
    /**
     * Stores a user's presence under the next update ID of the organization. Rows are only
     * ever overwritten, never deleted, so the newest ID stored is the newest ever handed out.
     */
    store: (row: Omit<PresenceRow, 'last_update_id'>): PresenceRow => {
      const stored = { ...row, last_update_id: (newestUpdateId.get()!.id ?? 0) + 1 };
      upsert.run(stored);
      return stored;
    },
  };
}

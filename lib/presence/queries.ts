import type { Statements } from '../db';

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

export function preparePresenceQueries(db: Statements) {
  const byUser = db.prepare<[number], PresenceRow>('SELECT * FROM user_presence WHERE user_id = ?');
  const viewOf = db.prepare<[number], PresenceView>(
    `SELECT p.*, u.email, u.date_joined_ms FROM user_presence p JOIN users u ON u.id = p.user_id
     WHERE p.user_id = ?`,
  );
  // Bots report no presence, and deactivated users have none to show.
  const changedSince = db.prepare<[number, number], PresenceView>(
    `SELECT p.*, u.email, u.date_joined_ms FROM user_presence p JOIN users u ON u.id = p.user_id
     WHERE p.last_update_id > ? AND p.last_connected_ms >= ? AND u.is_active = 1 AND u.is_bot = 0
     ORDER BY p.user_id`,
  );
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
    changedSince: (afterUpdateId: number, sinceMs: number) => changedSince.all(afterUpdateId, sinceMs),
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

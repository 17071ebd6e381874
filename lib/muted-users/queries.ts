import type { Statements } from '../db';

/** One user a user has muted, as clients see it: the muted user's ID and when they were muted. */
export interface MutedUser {
  id: number;
  timestamp: number;
}

export function prepareMutedUserQueries(db: Statements) {
  const forUser = db.prepare<[number], MutedUser>(
    'SELECT muted_user_id AS id, date_muted AS timestamp FROM muted_users WHERE user_id = ? ORDER BY date_muted, muted_user_id',
  );
  const get = db.prepare<[number, number], { date_muted: number }>(
    'SELECT date_muted FROM muted_users WHERE user_id = ? AND muted_user_id = ?',
  );
  const insert = db.prepare<[number, number, number]>(
    'INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, ?)',
  );
  const remove = db.prepare<[number, number]>('DELETE FROM muted_users WHERE user_id = ? AND muted_user_id = ?');
  const muters = db.prepare<[number], { user_id: number }>('SELECT user_id FROM muted_users WHERE muted_user_id = ?');
  return {
    forUser: (userId: number) => forUser.all(userId),
    isMuted: (userId: number, mutedUserId: number) => get.get(userId, mutedUserId) !== undefined,
    insert: (userId: number, mutedUserId: number, now: number) => void insert.run(userId, mutedUserId, now),
    remove: (userId: number, mutedUserId: number) => void remove.run(userId, mutedUserId),
    /** Everyone who has muted this user. */
    mutersOf: (mutedUserId: number) => new Set(muters.all(mutedUserId).map((row) => row.user_id)),
  };
}

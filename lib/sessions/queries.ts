import type { Statements } from '../db';

export interface SessionRow {
  id: number;
  token_hash: string;
  user_id: number;
  csrf_token: string;
  created_ms: number;
  last_seen_ms: number;
}

export function prepareSessionQueries(db: Statements) {
  const byTokenHash = db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE token_hash = ?');
  const insert = db.prepare<[string, number, string, number, number]>(
    'INSERT INTO sessions (token_hash, user_id, csrf_token, created_ms, last_seen_ms) VALUES (?, ?, ?, ?, ?)',
  );
  const touch = db.prepare<[number, number]>('UPDATE sessions SET last_seen_ms = ? WHERE id = ?');
  const remove = db.prepare<[number]>('DELETE FROM sessions WHERE id = ?');
  const removeAllOf = db.prepare<[number]>('DELETE FROM sessions WHERE user_id = ?');
  const removeEveryone = db.prepare<[]>('DELETE FROM sessions');
  const removeOthersOf = db.prepare<[number, number]>('DELETE FROM sessions WHERE user_id = ? AND id != ?');
  const removeUnusedSince = db.prepare<[number]>('DELETE FROM sessions WHERE last_seen_ms < ?');
  const countOf = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM sessions WHERE user_id = ?');
  return {
    byTokenHash: (tokenHash: string) => byTokenHash.get(tokenHash),
    /** Stores a new session and returns its ID. */
    insert: (tokenHash: string, userId: number, csrfToken: string, nowMs: number) =>
      Number(insert.run(tokenHash, userId, csrfToken, nowMs, nowMs).lastInsertRowid),
    touch: (id: number, nowMs: number) => void touch.run(nowMs, id),
    remove: (id: number) => void remove.run(id),
    removeAllOf: (userId: number) => void removeAllOf.run(userId),
    /** Ends every browser session (the organization was deactivated). */
    removeEveryone: () => void removeEveryone.run(),
    /** Every session of the user but one (the one that asked). */
    removeOthersOf: (userId: number, keepId: number) => void removeOthersOf.run(userId, keepId),
    removeUnusedSince: (cutoffMs: number) => void removeUnusedSince.run(cutoffMs),
    countOf: (userId: number) => countOf.get(userId)!.n,
  };
}

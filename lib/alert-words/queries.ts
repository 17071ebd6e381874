import type { Db } from '../db';

export function prepareAlertWordQueries(db: Db) {
  const forUser = db.prepare<[number], { word: string }>('SELECT word FROM alert_words WHERE user_id = ? ORDER BY id');
  const insert = db.prepare<[number, string, string]>(
    'INSERT OR IGNORE INTO alert_words (user_id, word, folded) VALUES (?, ?, ?)',
  );
  const remove = db.prepare<[number, string]>('DELETE FROM alert_words WHERE user_id = ? AND folded = ?');
  return {
    /** The user's words as they typed them, oldest first. */
    forUser: (userId: number) => forUser.all(userId).map((r) => r.word),
    /** Adds a word unless the user has it already in any letter case. */
    insert: (userId: number, word: string) => void insert.run(userId, word, foldCase(word)),
    remove: (userId: number, word: string) => void remove.run(userId, foldCase(word)),
  };
}

/** Alert words match without regard to case, in every alphabet. */
export function foldCase(word: string): string {
  return word.toLowerCase();
}

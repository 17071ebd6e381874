import type { Statements } from '../db';

export function prepareAlertWordQueries(db: Statements) {
  const forUser = db.prepare<[number], { word: string }>('SELECT word FROM alert_words WHERE user_id = ? ORDER BY id');
  const insert = db.prepare<[number, string, string]>(
    'INSERT OR IGNORE INTO alert_words (user_id, word, folded) VALUES (?, ?, ?)',
  );
  const ofUsers = db.prepare<[string], { user_id: number; folded: string }>(
    'SELECT user_id, folded FROM alert_words WHERE user_id IN (SELECT value FROM json_each(?))',
  );
  const remove = db.prepare<[number, string]>('DELETE FROM alert_words WHERE user_id = ? AND folded = ?');
  return {
    /** The user's words as they typed them, oldest first. */
    forUser: (userId: number) => forUser.all(userId).map((r) => r.word),
    /** The case-folded words of each of these users who has any. */
    foldedOfUsers: (userIds: readonly number[]): Map<number, string[]> => {
      const byUser = new Map<number, string[]>();
      for (const { user_id, folded } of ofUsers.all(JSON.stringify(userIds))) {
        const words = byUser.get(user_id);
        if (words) words.push(folded);
        else byUser.set(user_id, [folded]);
      }
      return byUser;
    },
    /** Adds a word unless the user has it already in any letter case. */
    insert: (userId: number, word: string) => void insert.run(userId, word, foldCase(word)),
    remove: (userId: number, word: string) => void remove.run(userId, foldCase(word)),
  };
}

/** Alert words match without regard to case, in every alphabet. */
export function foldCase(word: string): string {
  return word.toLowerCase();
}

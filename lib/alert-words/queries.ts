import type { Statements } from '../db';
import { KeptWhileUnwritten, type TableWrites } from '../table-writes';

export function prepareAlertWordQueries(db: Statements, writes: TableWrites) {
  const forUser = db.prepare<[number], { word: string }>('SELECT word FROM alert_words WHERE user_id = ? ORDER BY id');
  const insert = db.prepare<[number, string, string]>(
    'INSERT OR IGNORE INTO alert_words (user_id, word, folded) VALUES (?, ?, ?)',
  );
  const everyones = db.prepare<[], { user_id: number; folded: string }>('SELECT user_id, folded FROM alert_words ORDER BY user_id, folded');
  // Every send asks for the words of all its receivers: a thousand of them for a channel with
  // everyone, though few people have any. Kept until a row of alert_words is written.
  const keptByUser = new KeptWhileUnwritten<ReadonlyMap<number, readonly string[]>>(writes, ['alert_words']);
  const byUser = () =>
    keptByUser.get(() => {
      const words = new Map<number, string[]>();
      for (const { user_id, folded } of everyones.all()) {
        const list = words.get(user_id);
        if (list) list.push(folded);
        else words.set(user_id, [folded]);
      }
      return words;
    });
  const remove = db.prepare<[number, string]>('DELETE FROM alert_words WHERE user_id = ? AND folded = ?');
  return {
    /** The user's words as they typed them, oldest first. */
    forUser: (userId: number) => forUser.all(userId).map((r) => r.word),
    /** The case-folded words of each of these users who has any. */
    foldedOfUsers: (userIds: readonly number[]): Map<number, readonly string[]> => {
      const all = byUser();
      const found = new Map<number, readonly string[]>();
      if (all.size === 0) return found;
      for (const userId of userIds) {
        const words = all.get(userId);
        if (words) found.set(userId, words);
      }
      return found;
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

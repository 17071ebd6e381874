import type { Statements } from '../db';

export interface UserStatusRow {
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  updated_at: number;
}

/** A change to a status: what is undefined stays as it was. */
export interface StatusChange {
  statusText?: string;
  emoji?: { name: string; code: string; reactionType: string };
}

export function prepareUserStatusQueries(db: Statements) {
  const byUser = db.prepare<[number], UserStatusRow>('SELECT * FROM user_status WHERE user_id = ?');
  const all = db.prepare<[], UserStatusRow>('SELECT * FROM user_status');
  const upsert = db.prepare<
    [{ user_id: number; text: string | null; name: string | null; code: string | null; type: string | null; now: number }]
  >(
    `INSERT INTO user_status (user_id, status_text, emoji_name, emoji_code, reaction_type, updated_at)
     VALUES (@user_id, coalesce(@text, ''), coalesce(@name, ''), coalesce(@code, ''), coalesce(@type, 'unicode_emoji'), @now)
     ON CONFLICT (user_id) DO UPDATE SET
       status_text = coalesce(@text, status_text), emoji_name = coalesce(@name, emoji_name),
       emoji_code = coalesce(@code, emoji_code), reaction_type = coalesce(@type, reaction_type),
       updated_at = @now`,
  );
  return {
    byUser: (userId: number) => byUser.get(userId),
    all: () => all.all(),
    change: (userId: number, change: StatusChange, now: number) =>
      void upsert.run({
        user_id: userId,
        text: change.statusText ?? null,
        name: change.emoji?.name ?? null,
        code: change.emoji?.code ?? null,
        type: change.emoji?.reactionType ?? null,
        now,
      }),
  };
}

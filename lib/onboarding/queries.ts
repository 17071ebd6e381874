import type { Statements } from '../db';

/** Which onboarding steps each user has seen. */
export function prepareOnboardingQueries(db: Statements) {
  const seen = db.prepare<[number], { step: string }>('SELECT step FROM onboarding_steps_seen WHERE user_id = ?');
  const markSeen = db.prepare<[number, string, number]>(
    'INSERT INTO onboarding_steps_seen (user_id, step, timestamp) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  );
  return {
    seen: (userId: number) => new Set(seen.all(userId).map((row) => row.step)),
    markSeen: (userId: number, step: string, timestamp: number) => void markSeen.run(userId, step, timestamp),
  };
}

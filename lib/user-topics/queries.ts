import type { Statements } from '../db';

export interface UserTopicRow {
  user_id: number;
  stream_id: number;
  topic_key: string;
  topic: string;
  visibility_policy: 1 | 2 | 3;
  last_updated: number;
}

/** Visibility policies of a topic for one user; 0 (inherit) is stored as no row. */
export const VisibilityPolicy = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

/** Topics match without regard to case. */
export function topicKey(topic: string): string {
  return topic.toLowerCase();
}

export function prepareUserTopicQueries(db: Statements) {
  const get = db.prepare<[number, number, string], UserTopicRow>(
    'SELECT * FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic_key = ?',
  );
  const forUser = db.prepare<[number], UserTopicRow>(
    'SELECT * FROM user_topics WHERE user_id = ? ORDER BY last_updated, stream_id, topic_key',
  );
  // The topic keeps the spelling it was first stored with.
  const upsert = db.prepare<[number, number, string, string, number, number]>(
    `INSERT INTO user_topics (user_id, stream_id, topic_key, topic, visibility_policy, last_updated)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET visibility_policy = excluded.visibility_policy, last_updated = excluded.last_updated`,
  );
  const forTopic = db.prepare<[number, string], UserTopicRow>('SELECT * FROM user_topics WHERE stream_id = ? AND topic_key = ?');
  const remove = db.prepare<[number, number, string]>(
    'DELETE FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic_key = ?',
  );
  return {
    get: (userId: number, streamId: number, topic: string) => get.get(userId, streamId, topicKey(topic)),
    forUser: (userId: number) => forUser.all(userId),
    /** Every user's setting for one topic of a channel. */
    forTopic: (streamId: number, topic: string) => forTopic.all(streamId, topicKey(topic)),
    set: (userId: number, streamId: number, topic: string, policy: number, now: number) =>
      void upsert.run(userId, streamId, topicKey(topic), topic, policy, now),
    remove: (userId: number, streamId: number, topic: string) => void remove.run(userId, streamId, topicKey(topic)),
  };
}

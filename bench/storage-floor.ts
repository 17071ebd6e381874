import type { Db } from '../lib/db';
import { prepareMessageQueries } from '../lib/messages/queries';
import { TableWrites } from '../lib/table-writes';
import { prepareUserQueries } from '../lib/users/queries';
import { plainMemberRow } from '../test/support/user-rows';

/**
 * The storage floor's workload: `subscribers` members of one channel, and a transaction that
 * stores `batch` channel messages with Stoa's own statements (the message row, its search
 * entry, one user_messages row per subscriber, the sender's read). No HTTP, Markdown or
 * events: what storing messages costs SQLite alone, in our schema. `stored()` counts them.
 */
export function storageWorkload(db: Db, subscriberCount: number, batch: number) {
  const writes = new TableWrites(db, ['users'], ['messages']);
  const users = prepareUserQueries(db, writes);
  const messages = prepareMessageQueries(db, writes);
  const subscribers = Array.from({ length: subscriberCount }, (_, i) =>
    users.insert(plainMemberRow(`floor${i}`, `Floor ${i}`)),
  );
  const recipientId = Number(db.prepare('INSERT INTO recipients (type, type_id) VALUES (2, 1)').run().lastInsertRowid);
  let n = 0;
  const store = db.transaction(() => {
    for (let k = 0; k < batch; k++, n++) {
      const sender = subscribers[n % subscriberCount];
      const content = `Message ${n}: the **build** is green again, see https://example.com/builds/${n} for details.`;
      const id = messages.insert({
        sender_id: sender,
        recipient_id: recipientId,
        stream_id: null,
        topic: `topic ${n % 10}`,
        content,
        rendered_content: `<p>${content}</p>`,
        date_sent: 0,
        sending_client: 'bench',
        is_me_message: 0,
        has_link: 1,
        has_image: 0,
        has_attachment: 0,
      });
      messages.insertUserMessages(id, new Map(subscribers.map((userId) => [userId, userId === sender ? 1 : 0])));
    }
  });
  return { store, stored: () => n };
}

import type { ScheduledMessageRow } from './queries';

/** A scheduled message as the API shows it: a channel message names its channel and topic, a direct one its people. */
export function presentScheduledMessage(row: ScheduledMessageRow): Record<string, unknown> {
  const to = JSON.parse(row.to_ids) as number[];
  return {
    scheduled_message_id: row.id,
    to: row.type === 'stream' ? to[0] : to,
    type: row.type,
    content: row.content,
    rendered_content: row.rendered_content,
    ...(row.type === 'stream' ? { topic: row.topic } : {}),
    scheduled_delivery_timestamp: row.scheduled_timestamp,
    failed: row.failed === 1,
  };
}

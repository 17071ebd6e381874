import type { ScheduledMessageRow } from '../scheduled-messages/queries';

/** A reminder as the API shows it: always a direct message to its own user. */
export function presentReminder(row: ScheduledMessageRow): Record<string, unknown> {
  return {
    reminder_id: row.id,
    type: 'private',
    to: JSON.parse(row.to_ids) as number[],
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_timestamp,
    failed: row.failed === 1,
    reminder_target_message_id: row.reminder_target_message_id!,
  };
}

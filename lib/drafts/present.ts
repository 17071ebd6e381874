import type { DraftRow } from './queries';

/** A draft as the API shows it; the edit time in whole seconds. */
export function presentDraft(row: DraftRow): Record<string, unknown> {
  return {
    id: row.id,
    type: row.type,
    to: JSON.parse(row.to_ids) as number[],
    topic: row.topic,
    content: row.content,
    timestamp: Math.floor(row.last_edit_time),
  };
}

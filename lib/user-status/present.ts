import type { UserStatusRow } from './queries';

/** A status as clients see it: only what is set; `away` is the opposite of presence_enabled. */
export function presentStatus(row: UserStatusRow | undefined, presenceEnabled: boolean): Record<string, unknown> {
  const status: Record<string, unknown> = {};
  if (!presenceEnabled) status.away = true;
  if (row?.status_text) status.status_text = row.status_text;
  if (row?.emoji_name) {
    status.emoji_name = row.emoji_name;
    status.emoji_code = row.emoji_code;
    status.reaction_type = row.reaction_type;
  }
  return status;
}

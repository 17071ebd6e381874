import { presentReactionType, type ReactionTypeNames } from '../emoji/choice';
import type { UserStatusRow } from './queries';

/**
 * A status as clients see it: only what is set; `away` is the opposite of presence_enabled.
 * `names` is the name the reading client knows the emoji's reaction type by.
 */
export function presentStatus(row: UserStatusRow | undefined, presenceEnabled: boolean, names: ReactionTypeNames): Record<string, unknown> {
  const status: Record<string, unknown> = {};
  if (!presenceEnabled) status.away = true;
  if (row?.status_text) status.status_text = row.status_text;
  if (row?.emoji_name) {
    status.emoji_name = row.emoji_name;
    status.emoji_code = row.emoji_code;
    status.reaction_type = presentReactionType(row.reaction_type, names);
  }
  return status;
}

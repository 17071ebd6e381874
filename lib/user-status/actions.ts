import { unixSeconds } from '../clock';
import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { changeUserSettings } from '../users/settings-store';
import type { StatusChange } from './queries';

/**
 * Changes what the user asked to change of their status and tells everyone what was asked,
 * even when nothing changed, as Zulip does. `away` is stored as presence_enabled.
 */
export function updateUserStatus(stoa: Stoa, user: UserRow, change: StatusChange & { away?: boolean }): void {
  write(stoa, () => {
    if (change.away !== undefined) changeUserSettings(stoa, user.id, { presence_enabled: !change.away });
    stoa.userStatus.change(user.id, change, unixSeconds(stoa.clock));
    const event: Record<string, unknown> = { type: 'user_status', user_id: user.id };
    if (change.away !== undefined) event.away = change.away;
    if (change.statusText !== undefined) event.status_text = change.statusText;
    if (change.emoji) {
      event.emoji_name = change.emoji.name;
      event.emoji_code = change.emoji.code;
      event.reaction_type = change.emoji.reactionType;
    }
    sendEvent(stoa, event as { type: string }, stoa.users.activeIds());
  });
}

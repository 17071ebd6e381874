import { unixSeconds } from '../clock';
import { presentReactionType } from '../emoji/choice';
import { perShape } from '../events/queues';
import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { usersWhoCanAccess } from '../users/access';
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
    const event = perShape(
      (queue) => queue.settings.reactionTypeNames,
      (queue) => {
        const shaped: Record<string, unknown> = { type: 'user_status', user_id: user.id };
        if (change.away !== undefined) shaped.away = change.away;
        if (change.statusText !== undefined) shaped.status_text = change.statusText;
        if (change.emoji) {
          shaped.emoji_name = change.emoji.name;
          shaped.emoji_code = change.emoji.code;
          shaped.reaction_type = presentReactionType(change.emoji.reactionType, queue.settings.reactionTypeNames);
        }
        return shaped as { type: string };
      },
    );
    // Since Zulip 8.0, only those who may see the user (can_access_all_users_group).
    sendEvent(stoa, event, usersWhoCanAccess(stoa, user));
  });
}

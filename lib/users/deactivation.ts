import { deleteMessages } from '../messages/delete';
import type { MessageRow } from '../messages/queries';
import type { Stoa } from '../stoa';
import { deactivateUser, resetAvatar } from './actions';
import type { UserRow } from './queries';
import { changeFullName } from './settings-store';

/** What else an administrator may ask for while deactivating someone (level 459). */
export interface DeactivationActions {
  delete_profile?: boolean;
  delete_public_channel_messages?: boolean;
  delete_private_channel_messages?: boolean;
  delete_direct_messages?: boolean;
}

/** The name a deleted profile is left with. */
export const DELETED_USER_NAME = 'Deleted user';

/**
 * Deactivates a user after doing what `actions` asks, first to the bots they own (which are
 * deactivated with them) and then to them: their name and picture go, and the messages they
 * sent in public channels, private channels or direct conversations are deleted for everyone,
 * who hear of it as of any deletion (with the administrator as the one deleting).
 */
export function deactivateUserWithActions(stoa: Stoa, actor: UserRow, userId: number, actions: DeactivationActions): void {
  const bots = stoa.users.botsOwnedBy(userId).filter((bot) => bot.is_active);
  for (const account of [...bots, stoa.users.byId(userId)!]) applyActions(stoa, actor, account, actions);
  deactivateUser(stoa, userId);
}

function applyActions(stoa: Stoa, actor: UserRow, account: UserRow, actions: DeactivationActions): void {
  if (actions.delete_profile) {
    changeFullName(stoa, account.id, DELETED_USER_NAME);
    if (account.avatar_source === 'U') resetAvatar(stoa, account.id);
  }
  const wanted = (row: MessageRow): boolean => {
    if (row.stream_id === null) return actions.delete_direct_messages === true;
    const channel = stoa.channels.byId(row.stream_id)!;
    return channel.invite_only ? actions.delete_private_channel_messages === true : actions.delete_public_channel_messages === true;
  };
  if (!actions.delete_direct_messages && !actions.delete_private_channel_messages && !actions.delete_public_channel_messages) return;
  // deleteMessages takes one conversation at a time: a channel's topic, or a direct conversation.
  const conversations = new Map<string, MessageRow[]>();
  for (const row of stoa.messages.sentBy(account.id)) {
    if (!wanted(row)) continue;
    const key = `${row.recipient_id}\u0000${row.stream_id === null ? '' : row.topic_key}`;
    const rows = conversations.get(key);
    if (rows) rows.push(row);
    else conversations.set(key, [row]);
  }
  for (const rows of conversations.values()) deleteMessages(stoa, actor, rows);
}

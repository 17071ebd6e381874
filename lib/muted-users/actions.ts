import { unixSeconds } from '../clock';
import { sendEvent, write } from '../events/send';
import { Flag } from '../messages/flags';
import { withdrawPushNotifications } from '../push/actions';
import type { Stoa } from '../stoa';

/** Every change tells the user's clients the whole new list, as Zulip does. */
function announceMutedUsers(stoa: Stoa, userId: number): void {
  sendEvent(stoa, { type: 'muted_users', muted_users: stoa.mutedUsers.forUser(userId) }, [userId]);
}

/**
 * Mutes a user for another: what the muted user has sent, and will send, reaches the muter
 * already read, so it neither counts as unread nor notifies.
 */
export function muteUser(stoa: Stoa, userId: number, mutedUserId: number): void {
  write(stoa, () => {
    stoa.mutedUsers.insert(userId, mutedUserId, unixSeconds(stoa.clock));
    const unread = stoa.messages.unreadFromSender(userId, mutedUserId);
    if (unread.length > 0) {
      stoa.messages.setFlag(userId, Flag.read, unread);
      withdrawPushNotifications(stoa, [userId], unread);
      sendEvent(
        stoa,
        { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: unread, all: false },
        [userId],
      );
    }
    announceMutedUsers(stoa, userId);
  });
}

/** Unmuting leaves the messages read while muted as they are. */
export function unmuteUser(stoa: Stoa, userId: number, mutedUserId: number): void {
  write(stoa, () => {
    stoa.mutedUsers.remove(userId, mutedUserId);
    announceMutedUsers(stoa, userId);
  });
}

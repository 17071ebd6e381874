import { write } from '../events/send';
import { sendMessage } from '../messages/actions';
import { noticeOptions, notificationBot, silentMention } from '../messages/notices';
import { welcomeNewcomer, welcomeNewUser } from '../realm/welcome';
import type { Stoa } from '../stoa';
import { noteInviteAccepted } from './actions';
import type { InviteRow } from './queries';

/**
 * After someone signed up through an invitation: it is noted as accepted, the Welcome Bot
 * sends its first message and then the organization's or the invitation's welcome message if there is one, and the person who
 * sent an email invitation hears from the notification bot if they asked to (Zulip's
 * notify_referrer_on_join; a reusable link has no one person to tell).
 */
export function acceptInvite(stoa: Stoa, invite: InviteRow, newUserId: number): void {
  write(stoa, () => {
    noteInviteAccepted(stoa, invite);
    welcomeNewUser(stoa, stoa.users.byId(newUserId)!);
    welcomeNewcomer(stoa, stoa.users.byId(newUserId)!, invite.welcome_message_custom_text);
    if (invite.is_multiuse || !invite.notify_referrer_on_join) return;
    const referrer = stoa.users.byId(invite.invited_by_user_id);
    if (!referrer?.is_active) return;
    const newcomer = stoa.users.byId(newUserId)!;
    sendMessage(
      stoa,
      notificationBot(stoa),
      { type: 'direct', users: [referrer] },
      `${silentMention(newcomer)} has accepted your invitation and joined ${stoa.realm.get()!.name}.`,
      noticeOptions(() => false),
    );
  });
}

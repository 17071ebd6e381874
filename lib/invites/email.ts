import { escapeHtml, senderAddress, type OutgoingMail } from '../mail/outgoing';
import type { Stoa } from '../stoa';
import { inviteLink } from './present';
import type { InviteRow } from './queries';

/** An expiry as a person reads it anywhere in the world: a date and time in UTC. */
function expiryText(expiresAt: number | null): string {
  if (expiresAt === null) return 'The link does not expire.';
  const when = new Date(expiresAt * 1000).toISOString().replace('T', ' ').replace(/:\d\d\.\d+Z$/, ' UTC');
  return `The link works until ${when}.`;
}

/** The message that carries an email invitation: who invited whom to which organization, the link, its expiry. */
export function invitationMail(stoa: Stoa, invite: InviteRow): OutgoingMail {
  const inviter = stoa.users.byId(invite.invited_by_user_id)!.full_name;
  const organization = stoa.realm.get()!.name;
  const link = inviteLink(stoa, invite);
  const expiry = expiryText(invite.expires_at);
  const intro = `${inviter} has invited you to join ${organization}, a chat server at ${stoa.site}.`;
  const howTo = 'To accept, open this link and choose your name and a password:';
  const ignore = 'If you did not expect this invitation, you can ignore this message.';
  return {
    from: senderAddress(stoa.config.mailFrom, stoa.site),
    to: invite.email!,
    subject: `${inviter} invited you to ${organization}`,
    text: `Hello,\n\n${intro}\n\n${howTo}\n\n${link}\n\n${expiry}\n\n${ignore}\n`,
    html:
      `<p>Hello,</p>\n<p>${escapeHtml(intro)}</p>\n<p>${escapeHtml(howTo)}</p>\n` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>\n<p>${escapeHtml(expiry)}</p>\n<p>${escapeHtml(ignore)}</p>\n`,
  };
}

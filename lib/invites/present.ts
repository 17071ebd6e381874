import type { Stoa } from '../stoa';
import type { InviteRow } from './queries';

/** Where a person opens an invitation: the web app's join page. */
export function inviteLink(stoa: Stoa, invite: InviteRow): string {
  return `${stoa.site}/join/${invite.key}/`;
}

/** An invitation as GET /invites lists it: a link carries its URL, an email invitation its address. */
export function presentInvite(stoa: Stoa, invite: InviteRow): Record<string, unknown> {
  const common = {
    id: invite.id,
    invited_by_user_id: invite.invited_by_user_id,
    invited: invite.invited_at,
    expiry_date: invite.expires_at,
    invited_as: invite.invited_as,
    is_multiuse: invite.is_multiuse === 1,
  };
  if (invite.is_multiuse) return { ...common, link_url: inviteLink(stoa, invite) };
  return { ...common, email: invite.email, notify_referrer_on_join: invite.notify_referrer_on_join === 1 };
}

import { generateConfirmationKey } from '../auth/credentials';
import { unixSeconds } from '../clock';
import { onCommit, sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { invitationMail } from './email';
import { InviteStatus, type InviteRow } from './queries';

/** What an invitation gives the person who accepts it. */
export interface InviteSpec {
  invitedBy: number;
  invitedAs: number;
  /** Minutes until it expires; null: never. */
  expiresInMinutes: number | null;
  channelIds: readonly number[];
  groupIds: readonly number[];
  includeRealmDefaultSubscriptions: boolean;
  /** An email invitation's address; undefined: a reusable link. */
  email?: string;
  notifyReferrerOnJoin?: boolean;
  /** What the Welcome Bot tells the new account: null the organization's text, '' nothing. */
  welcomeMessageCustomText: string | null;
}

/**
 * Tells the clients that may list invitations to fetch them again: the organization's
 * administrators, and the person whose invitation changed.
 */
function announceInvitesChanged(stoa: Stoa, referrerId: number): void {
  const recipients = new Set(stoa.users.activeAdministratorIds());
  recipients.add(referrerId);
  sendEvent(stoa, { type: 'invites_changed' }, recipients);
}

/** Stores one invitation; the caller announces it. */
function insertInvite(stoa: Stoa, spec: InviteSpec): InviteRow {
    const now = unixSeconds(stoa.clock);
    const id = stoa.invites.insert(
      {
        key: generateConfirmationKey(),
        is_multiuse: spec.email === undefined ? 1 : 0,
        email: spec.email ?? null,
        invited_by_user_id: spec.invitedBy,
        invited_as: spec.invitedAs,
        include_realm_default_subscriptions: spec.includeRealmDefaultSubscriptions ? 1 : 0,
        notify_referrer_on_join: spec.notifyReferrerOnJoin === false ? 0 : 1,
        invited_at: now,
        expires_at: spec.expiresInMinutes === null ? null : now + spec.expiresInMinutes * 60,
        welcome_message_custom_text: spec.welcomeMessageCustomText,
      },
      spec.channelIds,
      spec.groupIds,
    );
    return stoa.invites.byId(id)!;
}

export function createInvite(stoa: Stoa, spec: InviteSpec): InviteRow {
  return write(stoa, () => {
    const invite = insertInvite(stoa, spec);
    announceInvitesChanged(stoa, spec.invitedBy);
    return invite;
  });
}

/** Mails an email invitation's link to its address, once what was written is committed. */
function mailInvitation(stoa: Stoa, invite: InviteRow): void {
  const mail = invitationMail(stoa, invite);
  onCommit(stoa, () => stoa.mailer.send(mail));
}

/** One email invitation per address, each with its own link, mailed after the commit. */
export function createEmailInvites(stoa: Stoa, spec: Omit<InviteSpec, 'email'>, emails: readonly string[]): void {
  write(stoa, () => {
    for (const email of emails) mailInvitation(stoa, insertInvite(stoa, { ...spec, email }));
    announceInvitesChanged(stoa, spec.invitedBy);
  });
}

/** Mails an email invitation again, with the same link and expiry; it counts as sent now. */
export function resendInvite(stoa: Stoa, invite: InviteRow): void {
  write(stoa, () => {
    stoa.invites.setInvitedAt(invite.id, unixSeconds(stoa.clock));
    announceInvitesChanged(stoa, invite.invited_by_user_id);
    mailInvitation(stoa, stoa.invites.byId(invite.id)!);
  });
}

/**
 * Once an account exists for an address, the email invitations to it have nothing left to
 * give, as on Zulip: they are revoked (the one the person accepted is then marked used).
 */
export function revokeInvitesTo(stoa: Stoa, email: string): void {
  write(stoa, () => {
    for (const invite of stoa.invites.activeForEmail(email)) {
      stoa.invites.setStatus(invite.id, InviteStatus.REVOKED);
      announceInvitesChanged(stoa, invite.invited_by_user_id);
    }
  });
}

/** Revokes an invitation: its link stops working at once and it leaves every listing. */
export function revokeInvite(stoa: Stoa, invite: InviteRow): void {
  write(stoa, () => {
    stoa.invites.setStatus(invite.id, InviteStatus.REVOKED);
    announceInvitesChanged(stoa, invite.invited_by_user_id);
  });
}

/** A deactivated person's invitations stop working, as on Zulip: nobody answers for them any more. */
export function revokeInvitesBy(stoa: Stoa, userId: number): void {
  write(stoa, () => {
    if (stoa.invites.revokeAllBy(userId) > 0) announceInvitesChanged(stoa, userId);
  });
}

/** After someone signed up through it: an email invitation is used up; a link stays. */
export function noteInviteAccepted(stoa: Stoa, invite: InviteRow): void {
  if (invite.is_multiuse) return;
  write(stoa, () => {
    stoa.invites.setStatus(invite.id, InviteStatus.USED);
    announceInvitesChanged(stoa, invite.invited_by_user_id);
  });
}

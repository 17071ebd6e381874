import { generateConfirmationKey, hasConfirmationKeyFormat } from '../auth/credentials';
import { write } from '../events/send';
import type { Stoa } from '../stoa';
import type { EmailLinkKind, EmailLinkRow } from './queries';

/** How long a password reset link works: Django's default, which Zulip keeps (three days). */
export const PASSWORD_RESET_VALID_MS = 3 * 24 * 60 * 60 * 1000;
/** How long a link confirming a new email address works: Zulip's confirmation links' default, a day. */
export const EMAIL_CHANGE_VALID_MS = 24 * 60 * 60 * 1000;

/** The paths of the links, as Zulip names them. */
export const PASSWORD_RESET_PATH = '/accounts/password/reset';
export const CONFIRM_EMAIL_PATH = '/accounts/confirm_new_email';
export const UNSUBSCRIBE_PATH = '/accounts/unsubscribe';

/**
 * A new one-use link of a kind for a person; their earlier unused links of that kind stop
 * working, so only the newest mail's link does. Call inside `write`.
 */
export function createOneUseLink(stoa: Stoa, kind: 'password_reset' | 'email_change', userId: number, validMs: number, newEmail: string | null = null): string {
  const now = stoa.clock.now();
  stoa.email.retireOpenLinks(userId, kind, now);
  const key = generateConfirmationKey();
  stoa.email.insertLink({ key, kind, user_id: userId, new_email: newEmail, created_ms: now, expires_ms: now + validMs, used_ms: null });
  return key;
}

/** The link in missed-message emails that turns them off without a login; one per person, kept. */
export function unsubscribeLink(stoa: Stoa, userId: number): string {
  let key = stoa.email.linksOfUser(userId, 'unsubscribe')[0]?.key;
  if (key === undefined) {
    key = generateConfirmationKey();
    const row = { key, kind: 'unsubscribe' as const, user_id: userId, new_email: null, created_ms: stoa.clock.now(), expires_ms: null, used_ms: null };
    write(stoa, () => stoa.email.insertLink(row));
  }
  return `${stoa.site}${UNSUBSCRIBE_PATH}/missed_messages/${key}`;
}

/** The link of this kind the key names, while it still works: unused and not expired. */
export function workingLink(stoa: Stoa, kind: EmailLinkKind, key: string): EmailLinkRow | undefined {
  if (!hasConfirmationKeyFormat(key)) return undefined;
  const link = stoa.email.linkByKey(key);
  if (!link || link.kind !== kind || link.used_ms !== null) return undefined;
  if (link.expires_ms !== null && stoa.clock.now() >= link.expires_ms) return undefined;
  const user = stoa.users.byId(link.user_id);
  return user?.is_active ? link : undefined;
}

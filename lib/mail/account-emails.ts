import { FailureLimiter, type RateLimit } from '../auth/rate-limit';
import { onCommit, write } from '../events/send';
import { badRequest, rateLimited } from '../http/errors';
import { realmSetting } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { changeDeliveryEmail } from '../users/actions';
import { Role, type UserRow } from '../users/queries';
import { updateAccount } from '../users/settings-store';
import { EMAIL_SHAPE } from '../users/names';
import { CONFIRM_EMAIL_PATH, createOneUseLink, EMAIL_CHANGE_VALID_MS, PASSWORD_RESET_PATH, PASSWORD_RESET_VALID_MS } from './links';
import { mailBody, senderAddress, type MailPart } from './outgoing';

/**
 * Mail anyone can make the server send to an address is limited per address, as Zulip limits
 * it (two an hour and five a day), so that the forms cannot be used to flood someone's inbox.
 */
const PER_HOUR: RateLimit = { max: 2, windowMs: 60 * 60 * 1000 };
const PER_DAY: RateLimit = { max: 5, windowMs: 24 * 60 * 60 * 1000 };
const limiters = new WeakMap<Stoa, Map<string, FailureLimiter[]>>();

/** Counts one mail of a kind to a key (an address or a user); answers the seconds to wait instead, if over the limit. */
function countMail(stoa: Stoa, kind: string, key: string): number {
  let byKind = limiters.get(stoa);
  if (!byKind) limiters.set(stoa, (byKind = new Map()));
  let pair = byKind.get(kind);
  if (!pair) byKind.set(kind, (pair = [new FailureLimiter(stoa.clock, PER_HOUR), new FailureLimiter(stoa.clock, PER_DAY)]));
  const wait = Math.max(...pair.map((limiter) => limiter.waitSeconds(key)));
  if (wait > 0) return wait;
  for (const limiter of pair) limiter.recordFailure(key);
  return 0;
}

function organizationName(stoa: Stoa): string {
  return stoa.realm.get()!.name;
}

function sendAccountMail(stoa: Stoa, to: string, subject: string, parts: MailPart[]): void {
  const mail = { from: { name: `${organizationName(stoa)} account security`, address: senderAddress(stoa.config.mailFrom, stoa.site) }, to, subject, ...mailBody(parts) };
  onCommit(stoa, () => stoa.mailer.send(mail));
}

// ---------------------------------------------------------------------------
// Password reset
// ---------------------------------------------------------------------------

/**
 * "Forgot your password?": whoever asks gets the same answer, so the form does not tell
 * whether an account exists. The address gets a one-use link if it has an active account,
 * else a note saying why there is none (as Zulip does). Answers the seconds to wait when the
 * address has had too many such mails lately.
 */
export function requestPasswordReset(stoa: Stoa, email: string): number {
  const address = email.trim();
  if (!EMAIL_SHAPE.test(address)) return 0;
  const wait = countMail(stoa, 'password_reset', address.toLowerCase());
  if (wait > 0) return wait;
  const user = stoa.users.byAnyEmail(address);
  const person = user && !user.is_bot && user.delivery_email.toLowerCase() === address.toLowerCase() ? user : undefined;
  const site = stoa.site;
  const asked = `Someone (perhaps you) asked for a new password for the account ${address} on ${organizationName(stoa)} (${site}).`;
  write(stoa, () => {
    if (person?.is_active) {
      const key = createOneUseLink(stoa, 'password_reset', person.id, PASSWORD_RESET_VALID_MS);
      sendAccountMail(stoa, person.delivery_email, `Choose a new password for ${organizationName(stoa)}`, [
        asked,
        'To choose a new password, open this link. It works once, for three days:',
        { link: `${site}${PASSWORD_RESET_PATH}/${key}` },
        'If you did not ask for this, you can ignore this message: your password stays as it is.',
      ]);
    } else if (person) {
      sendAccountMail(stoa, person.delivery_email, `Your account on ${organizationName(stoa)}`, [
        asked,
        'That account has been deactivated, so its password cannot be reset. An administrator of the organization can reactivate it.',
      ]);
    } else {
      sendAccountMail(stoa, address, `Your account on ${organizationName(stoa)}`, [
        asked,
        'There is no account with this address in that organization. If you have an account under another address, ask for the reset with that one.',
        'If you did not ask for this, you can ignore this message.',
      ]);
    }
  });
  return 0;
}

/** Gives the person of a working reset link the new password; the link is spent and every session ends. */
export function resetPassword(stoa: Stoa, key: string, userId: number, passwordHash: string): void {
  write(stoa, () => {
    stoa.email.markLinkUsed(key, stoa.clock.now());
    updateAccount(stoa, userId, { passwordHash, settings: {} });
  });
}

// ---------------------------------------------------------------------------
// Changing one's own email address
// ---------------------------------------------------------------------------

/**
 * Checks a new address for the person's own account, as Zulip does: the organization may
 * forbid changes (administrators may still), and the address must be valid and free.
 * Answers the address, or undefined when it is the current one.
 */
export function checkOwnEmailChange(stoa: Stoa, user: UserRow, email: string): string | undefined {
  const address = email.trim();
  if (address === user.delivery_email) return undefined;
  if (realmSetting(stoa, 'realm_email_changes_disabled') && user.role > Role.ADMINISTRATOR) {
    throw badRequest('Email address changes are disabled in this organization.');
  }
  if (!EMAIL_SHAPE.test(address)) throw badRequest('Invalid address.');
  const holder = stoa.users.byAnyEmail(address);
  if (holder && holder.id !== user.id) throw badRequest('Email is already in use.');
  // The change is confirmed by a link mailed to the new address; without mail there is no way.
  if (!stoa.mailer.configured) throw badRequest('Email changes are not available on this server.');
  return address;
}

/** Mails a confirmation link to the new address; the change happens when it is followed. Throws 429 when the person asked too often. */
export function startEmailChange(stoa: Stoa, user: UserRow, newEmail: string): void {
  const wait = countMail(stoa, 'email_change', String(user.id));
  if (wait > 0) throw rateLimited(wait);
  write(stoa, () => {
    const key = createOneUseLink(stoa, 'email_change', user.id, EMAIL_CHANGE_VALID_MS, newEmail);
    sendAccountMail(stoa, newEmail, `Confirm your new email address for ${organizationName(stoa)}`, [
      `${user.full_name} asked to change the email address of their account on ${organizationName(stoa)} (${stoa.site}) from ${user.delivery_email} to ${newEmail}.`,
      'To confirm the change, open this link. It works once, for a day:',
      { link: `${stoa.site}${CONFIRM_EMAIL_PATH}/${key}` },
      'Until then the account keeps its old address. If you did not ask for this, you can ignore this message.',
    ]);
  });
}

/**
 * Follows a working email-change link: checked again (the address may have been taken, or
 * changes forbidden, meanwhile), then the address changes and the old one is told. Answers
 * what went wrong, or undefined.
 */
export function confirmEmailChange(stoa: Stoa, key: string, userId: number, newEmail: string): string | undefined {
  const user = stoa.users.byId(userId)!;
  try {
    checkOwnEmailChange(stoa, user, newEmail);
  } catch (err) {
    return (err as Error).message;
  }
  const oldEmail = user.delivery_email;
  write(stoa, () => {
    stoa.email.markLinkUsed(key, stoa.clock.now());
    changeDeliveryEmail(stoa, userId, newEmail);
    sendAccountMail(stoa, oldEmail, `Your email address on ${organizationName(stoa)} has changed`, [
      `The email address of your account on ${organizationName(stoa)} (${stoa.site}) is now ${newEmail}.`,
      'If you did not make this change, contact an administrator of the organization at once.',
    ]);
  });
  return undefined;
}

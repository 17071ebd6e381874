/** What a person's name, email address and password must look like, checked wherever one is given. */
import { badRequest } from '../http/errors';
import { REALM_SERVER_FACTS } from '../realm/settings';

/** Zulip's longest full name; longer names are refused rather than cut. */
export const MAX_NAME_LENGTH = 100;

/** A full name a person or a bot may have, in Zulip's words when it may not. */
export function checkFullName(fullName: string): void {
  if (fullName === '') throw badRequest('Name too short!');
  if (fullName.length > MAX_NAME_LENGTH) throw badRequest('Name too long!');
}

/**
 * What an email address must look like to be given (or invited to) an account. Loose on
 * purpose: one @, something on each side, no spaces. Delivery is not our business.
 */
export const EMAIL_SHAPE = /^[^@\s]+@[^@\s]+\.[^@\s]+$|^[^@\s]+@localhost$/;

/** The shortest password Stoa takes (register's password_min_length). */
export const MIN_PASSWORD_LENGTH = REALM_SERVER_FACTS.password_min_length as number;

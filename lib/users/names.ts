import { badRequest } from '../http/errors';

/** Zulip's longest full name; longer names are refused rather than cut. */
export const MAX_NAME_LENGTH = 100;

/** A full name a person or a bot may have, in Zulip's words when it may not. */
export function checkFullName(fullName: string): void {
  if (fullName === '') throw badRequest('Name too short!');
  if (fullName.length > MAX_NAME_LENGTH) throw badRequest('Name too long!');
}

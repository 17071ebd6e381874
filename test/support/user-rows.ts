import { PLAIN_USER_COLUMNS, Role, type NewUser } from '../../lib/users/queries';

/**
 * A plain member's row, written straight to the users table (no account set-up, events or
 * subscriptions): for measuring and testing storage and caches with many users cheaply.
 */
export function plainMemberRow(localPart: string, fullName: string): NewUser {
  const email = `${localPart}@example.com`;
  return {
    email,
    delivery_email: email,
    full_name: fullName,
    api_key: `${localPart}-key`,
    role: Role.MEMBER,
    ...PLAIN_USER_COLUMNS,
  };
}

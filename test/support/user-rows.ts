import { Role, type NewUser } from '../../lib/users/queries';

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
    password_hash: null,
    api_key: `${localPart}-key`,
    role: Role.MEMBER,
    is_bot: 0,
    bot_type: null,
    bot_owner_id: null,
    is_system_bot: 0,
    can_create_users: 0,
  can_change_user_emails: 0,
    date_joined_ms: 0,
    email_address_visibility: 1,
  };
}

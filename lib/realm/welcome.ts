import { write } from '../events/send';
import { endpoint } from '../http/endpoint';
import { sendMessage } from '../messages/actions';
import { normalizeContent } from '../messages/addressing';
import { noticeOptions } from '../messages/notices';
import type { Stoa } from '../stoa';
import { INTERNAL_EMAIL_DOMAIN } from '../users/email-visibility';
import { Role, type UserRow } from '../users/queries';
import { createSystemBot } from './actions';
import { realmSetting } from './settings-store';
import { requireAdministrator } from '../users/access';

/**
 * The Welcome Bot's custom message (Zulip's level 416): text an organization's administrators
 * write for new accounts, set for the organization (`welcome_message_custom_text`) or for one
 * invitation. The bot sends it to everyone who joins: through an invitation, or made by an
 * administrator (POST /users).
 */

/** Zulip's longest welcome message, in code points. */
export const MAX_WELCOME_MESSAGE_LENGTH = 8000;

const WELCOME_BOT_EMAIL = `welcome-bot@${INTERNAL_EMAIL_DOMAIN}`;

/**
 * The Welcome Bot, made the first time it is needed: organizations created before it existed
 * have none, and one that never sends a welcome message needs none. Call inside `write`.
 */
export function welcomeBot(stoa: Stoa): UserRow {
  const existing = stoa.users.byAnyEmail(WELCOME_BOT_EMAIL);
  return existing ?? stoa.users.byId(createSystemBot(stoa, WELCOME_BOT_EMAIL, 'Welcome Bot'))!;
}

/** The Welcome Bot's direct message to a user; answers its ID. The text must not be blank. */
function sendWelcomeMessage(stoa: Stoa, user: UserRow, text: string): number {
  const content = normalizeContent(text);
  // Read in the app, as Zulip has it: no push notification or email calls its reader back.
  const options = { ...noticeOptions(() => false), noExternalNotifications: true };
  return write(stoa, () => sendMessage(stoa, welcomeBot(stoa), { type: 'direct', users: [user] }, content, options));
}

/**
 * Welcome Bot's first direct message to someone who joins a running organization (signing up,
 * accepting an invitation, or made by an administrator), as Zulip sends every new person one.
 * Administrators are also pointed at the organization's settings. The owner of a new
 * organization gets the longer one in starter.ts instead.
 */
function newcomerWelcome(stoa: Stoa, user: UserRow): string {
  const name = stoa.realm.get()!.name;
  const lines = [
    `Hello, ${user.full_name}, and welcome to ${name}! I am Welcome Bot.`,
    '',
    'Conversations here happen in **topics** inside **channels**. The [Inbox](#inbox) gathers what you have not read yet, ' +
      'and [Channels](#channels) lists the ones you can join.',
    '',
    'Tell people who you are: your name, picture and profile are in [Profile](#settings/profile), ' +
      'and how you are notified is in [Notifications](#settings/notifications).',
  ];
  if (user.role <= Role.ADMINISTRATOR) {
    lines.push('', 'As an administrator you can change how the organization works in [Organization settings](#organization).');
  }
  return lines.join('\n');
}

/** Sends Welcome Bot's first direct message to a person who just joined. Call inside `write`. */
export function welcomeNewUser(stoa: Stoa, user: UserRow): void {
  sendWelcomeMessage(stoa, user, newcomerWelcome(stoa, user));
}

/**
 * Welcome Bot's second message to someone who joined: their invitation's own text, or the
 * organization's custom text when it has none (or there was no invitation); an empty text
 * sends nothing. Call inside `write`, after welcomeNewUser.
 */
export function welcomeNewcomer(stoa: Stoa, newcomer: UserRow, invitationText: string | null): void {
  const text = invitationText ?? (realmSetting(stoa, 'realm_welcome_message_custom_text') as string);
  if (text.trim() !== '') sendWelcomeMessage(stoa, newcomer, text);
}

/** POST /realm/test_welcome_bot_custom_message: an administrator sees the message as a newcomer would. */
export const testWelcomeMessageView = endpoint<{ welcome_message_custom_text: string }>({
  params: {
    properties: { welcome_message_custom_text: { type: 'string', maxLength: MAX_WELCOME_MESSAGE_LENGTH } },
    required: ['welcome_message_custom_text'],
  },
  authorize: requireAdministrator,
  view: ({ stoa, user, params }) => {
    return { message_id: sendWelcomeMessage(stoa, user, params.welcome_message_custom_text) };
  },
});

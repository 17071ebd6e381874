import { sendEvent } from '../events/send';
import type { Stoa } from '../stoa';
import { Role, type UserRow } from '../users/queries';
import { botAudience, presentBot } from './present';

// The realm_bot events. Changes to any account (a rename, a role change, a deactivation) may
// concern bots, so users' actions send these as well as bots' own; they live here, below
// both, because bots' actions create accounts through users' actions and so sit above them.

/** Tells the bot's administrators about one change to it (the changed fields only). */
export function announceBotUpdate(stoa: Stoa, bot: UserRow, change: Record<string, unknown>): void {
  sendEvent(stoa, { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, ...change } }, botAudience(stoa, bot));
}

/** The realm_bot event that puts a bot in a client's bot list. */
export function botAddEvent(stoa: Stoa, bot: UserRow) {
  return { type: 'realm_bot', op: 'add', bot: presentBot(stoa, bot) };
}

/**
 * After a role change, a user who became an administrator gains every bot they did not own
 * in their bot list, and one who stopped being one loses them.
 */
export function announceAdministeredBots(stoa: Stoa, before: UserRow, after: UserRow): void {
  const wasAdministrator = before.role <= Role.ADMINISTRATOR;
  const isAdministrator = after.role <= Role.ADMINISTRATOR;
  if (after.is_bot || wasAdministrator === isAdministrator) return;
  for (const bot of stoa.users.bots()) {
    if (bot.bot_owner_id === after.id) continue;
    const event = isAdministrator ? botAddEvent(stoa, bot) : { type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } };
    sendEvent(stoa, event, [after.id]);
  }
}

import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { BotType } from './queries';

function channelName(stoa: Stoa, channelId: number | null): string | null {
  return channelId === null ? null : (stoa.channels.byId(channelId)?.name ?? null);
}

/** The defaults a bot posts and listens with, by channel name as Zulip sends them. */
export function botDefaults(stoa: Stoa, bot: UserRow) {
  return {
    default_sending_stream: channelName(stoa, bot.default_sending_stream_id),
    default_events_register_stream: channelName(stoa, bot.default_events_register_stream_id),
    default_all_public_streams: bot.default_all_public_streams === 1,
  };
}

/**
 * A Bot object's `services`: an outgoing-webhook bot's endpoint, token included (only those
 * who administer the bot see it). Other bots have none; Stoa runs no embedded bots.
 */
export function presentServices(stoa: Stoa, bot: UserRow): Array<Record<string, unknown>> {
  const service = bot.bot_type === BotType.OUTGOING_WEBHOOK ? stoa.botServices.ofBot(bot.id) : undefined;
  return service ? [{ base_url: service.base_url, interface: service.interface, token: service.token }] : [];
}

/**
 * A Bot object of the API (realm_bots, realm_bot events): what only those who administer the
 * bot see. Since feature level 474 that is its defaults and services; its name, email, type,
 * avatar, owner and whether it is active are in its user object, and its API key comes from
 * GET /bots/{bot_id}/api_key.
 */
export function presentBot(stoa: Stoa, bot: UserRow): Record<string, unknown> {
  return { user_id: bot.id, ...botDefaults(stoa, bot), services: presentServices(stoa, bot) };
}

/** Who administers a bot, and so hears of changes to it: active administrators and its active owner. */
export function botAudience(stoa: Stoa, bot: UserRow): number[] {
  const ids = new Set(stoa.users.activeAdministratorIds());
  const owner = bot.bot_owner_id === null ? undefined : stoa.users.byId(bot.bot_owner_id);
  if (owner?.is_active) ids.add(owner.id);
  return [...ids];
}

/** The bots a user administers: every bot for administrators, else the ones they own. */
export function botsAdministeredBy(stoa: Stoa, user: UserRow): UserRow[] {
  return user.role <= 200 && !user.is_bot ? stoa.users.bots() : stoa.users.botsOwnedBy(user.id);
}

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

/** A Bot object of the API: what those who administer the bot see, API key included. */
export function presentBot(stoa: Stoa, bot: UserRow): Record<string, unknown> {
  return {
    email: bot.email,
    user_id: bot.id,
    full_name: bot.full_name,
    bot_type: bot.bot_type,
    is_active: bot.is_active === 1,
    api_key: bot.api_key,
    ...botDefaults(stoa, bot),
    avatar_url: stoa.avatars.url(bot),
    services: presentServices(stoa, bot),
    owner_id: bot.bot_owner_id,
  };
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

import { notificationBot } from '../messages/notices';
import { sendMessage } from '../messages/actions';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';

/** A misconfigured integration can send many requests a minute; its owner hears of it at most this often, as on Zulip. */
export const OWNER_NOTICE_INTERVAL_MS = 5 * 60 * 1000;

// When each bot's owner was last told something, per server. Kept in memory: after a restart
// an owner may hear of a problem once more, which is harmless.
const lastNotices = new WeakMap<Stoa, Map<number, number>>();

/**
 * The notification bot tells a bot's owner, in a direct message, what went wrong with a
 * request the bot received; at most once in OWNER_NOTICE_INTERVAL_MS per bot. A person (not a
 * bot) using their own key has no owner to tell.
 */
export function tellOwner(stoa: Stoa, bot: UserRow, content: string): void {
  if (!bot.is_bot || bot.bot_owner_id === null) return;
  const owner = stoa.users.byId(bot.bot_owner_id);
  if (!owner || !owner.is_active) return;
  let byBot = lastNotices.get(stoa);
  if (!byBot) lastNotices.set(stoa, (byBot = new Map()));
  const now = stoa.clock.now();
  const last = byBot.get(bot.id);
  if (last !== undefined && now - last <= OWNER_NOTICE_INTERVAL_MS) return;
  byBot.set(bot.id, now);
  sendMessage(stoa, notificationBot(stoa), { type: 'direct', users: [owner] }, content, { client: 'Internal', readBySender: true });
}

/** The address people are told to write to for help: the organization's first owner. */
export function supportAddress(stoa: Stoa): string {
  return stoa.users.firstOwner()?.delivery_email ?? 'the server administrators';
}

import { unixSeconds } from '../clock';
import type { ChannelRow } from '../channels/queries';
import { Flag } from '../messages/flags';
import type { Stoa } from '../stoa';

/** How far back, how many messages a new account is given, and how many of them start unread (Zulip's onboarding numbers). */
const RECENT_SECONDS = 7 * 24 * 3600;
const MAX_MESSAGES = 1000;
const MAX_UNREAD = 20;

/**
 * A new person's first screen is not empty, as on Zulip: the last week's messages of the
 * channels they joined (those whose history subscribers may read), up to a thousand, become
 * theirs, the newest twenty unread. Call inside the `write` that subscribed them; their
 * client, registered later, fetches these with everything else.
 */
export function giveRecentHistory(stoa: Stoa, userId: number, channels: readonly ChannelRow[]): void {
  const since = unixSeconds(stoa.clock) - RECENT_SECONDS;
  const ids = channels
    .filter((channel) => channel.history_public_to_subscribers)
    .flatMap((channel) => stoa.messages.recentIdsTo(channel.recipient_id, since, MAX_MESSAGES))
    .sort((a, b) => b - a)
    .slice(0, MAX_MESSAGES);
  ids.forEach((messageId, newestFirst) => {
    // A message sent to them since they were subscribed already has its row.
    if (stoa.messages.flagsOf(userId, messageId) !== undefined) return;
    stoa.messages.insertUserMessage(userId, messageId, newestFirst < MAX_UNREAD ? 0 : Flag.read);
  });
}

import { sendEvent, write } from '../events/send';
import type { EventQueue } from '../events/queues';
import { REALM_SERVER_FACTS } from '../realm/settings';
import type { Stoa } from '../stoa';
import { usersWhoCanAccess } from '../users/access';
import type { UserRow } from '../users/queries';
import { legacyClientPresence, modernPresence } from './present';
import type { PresenceRow } from './queries';

const PING_INTERVAL_MS = (REALM_SERVER_FACTS.server_presence_ping_interval_seconds as number) * 1000;
/** After this long without a report, clients show a user as offline. */
const OFFLINE_THRESHOLD_MS = (REALM_SERVER_FACTS.server_presence_offline_threshold_seconds as number) * 1000;
/**
 * Reports closer together than this change nothing stored: several open clients each ping
 * every minute, and storing each ping would only churn update IDs.
 */
const MIN_STORED_INTERVAL_MS = 55_000;
/**
 * A user whose last activity is older than this has missed two pings and may already look
 * offline to others, so an active report tells everyone at once rather than at their next poll.
 */
const BACK_ONLINE_AFTER_MS = OFFLINE_THRESHOLD_MS - PING_INTERVAL_MS - 10_000;
/**
 * In bigger organizations, telling everyone each time someone comes online costs more than
 * it helps (clients poll anyway), so those events stop, as on Zulip.
 */
const MAX_USERS_FOR_ONLINE_EVENTS = 100;

/**
 * Whether a user is away, as Zulip decides before notifying them on their phone (and by
 * email): no open client receives messages, or none has reported them active within the
 * offline threshold.
 */
export function isIdle(stoa: Stoa, userId: number): boolean {
  const receiving = [...stoa.queues.queuesOf(userId)].some((queue) => queue.accepts({ type: 'message' }));
  if (!receiving) return true;
  const lastActive = stoa.presence.byUser(userId)?.last_active_ms ?? null;
  return lastActive === null || stoa.clock.now() - lastActive >= OFFLINE_THRESHOLD_MS;
}

/**
 * The presence event for one queue, in the format it asked for: the modern map for clients
 * with the simplified_presence_events capability, the legacy entry otherwise (without the
 * email for queues registered with slim_presence).
 */
function presenceEvent(stoa: Stoa, user: UserRow, row: PresenceRow) {
  const view = { ...row, email: user.email, date_joined_ms: user.date_joined_ms };
  const serverTimestamp = stoa.clock.now() / 1000;
  return (queue: EventQueue) => {
    if (queue.settings.capabilities.simplified_presence_events) {
      return { type: 'presence', presences: { [String(user.id)]: modernPresence(view) } };
    }
    const email = queue.settings.slimPresence ? {} : { email: user.email };
    const presence = { website: legacyClientPresence(view) };
    return { type: 'presence', user_id: user.id, ...email, server_timestamp: serverTimestamp, presence };
  };
}

/**
 * presence_enabled is also the deprecated `away` of user status (away = not enabled), so
 * clients keeping user statuses learn of every change, whichever endpoint made it.
 */
function announceAway(stoa: Stoa, user: UserRow, away: boolean): void {
  sendEvent(stoa, { type: 'user_status', user_id: user.id, away }, usersWhoCanAccess(stoa, user));
}

function announce(stoa: Stoa, user: UserRow, row: PresenceRow, force: boolean): void {
  const recipients = stoa.users.activeIds();
  if (!force && recipients.length > MAX_USERS_FOR_ONLINE_EVENTS) return;
  sendEvent(stoa, presenceEvent(stoa, user, row), recipients);
}

/**
 * Records that one of the user's clients is connected, and whether the user is using it.
 * Everyone learns at once when the user appears for the first time or comes back online;
 * other changes reach them when their clients next poll.
 */
export function reportPresence(stoa: Stoa, user: UserRow, active: boolean): void {
  write(stoa, () => {
    const now = stoa.clock.now();
    const before = stoa.presence.byUser(user.id);
    if (!before) {
      const row = stoa.presence.store({ user_id: user.id, last_active_ms: active ? now : null, last_connected_ms: now });
      return announce(stoa, user, row, false);
    }
    const sinceActive = before.last_active_ms === null ? Infinity : now - before.last_active_ms;
    const sinceConnected = now - before.last_connected_ms;
    let { last_active_ms: lastActive, last_connected_ms: lastConnected } = before;
    if (sinceConnected > MIN_STORED_INTERVAL_MS) lastConnected = now;
    if (active && sinceActive > MIN_STORED_INTERVAL_MS) {
      lastActive = now;
      lastConnected = Math.max(lastConnected, now);
    }
    if (lastActive === before.last_active_ms && lastConnected === before.last_connected_ms) return;
    const row = stoa.presence.store({ user_id: user.id, last_active_ms: lastActive, last_connected_ms: lastConnected });
    if (active && sinceActive > BACK_ONLINE_AFTER_MS) announce(stoa, user, row, false);
  });
}

/**
 * Turning presence_enabled on reports the user active now; turning it off replaces their
 * presence with one old enough that every client shows them offline (with some margin for
 * clock skew), where it stays while the setting is off. Either way everyone is told at once,
 * so the change takes effect in every client without waiting for a poll.
 */
export function presenceEnabledChanged(stoa: Stoa, user: UserRow, enabled: boolean): void {
  write(stoa, () => {
    announceAway(stoa, user, !enabled);
    const now = stoa.clock.now();
    if (enabled) {
      const before = stoa.presence.byUser(user.id);
      const row = stoa.presence.store({
        user_id: user.id,
        last_active_ms: now,
        last_connected_ms: Math.max(before?.last_connected_ms ?? now, now),
      });
      return announce(stoa, user, row, true);
    }
    const offlineSince = now - OFFLINE_THRESHOLD_MS - 120_000;
    const row = stoa.presence.store({ user_id: user.id, last_active_ms: null, last_connected_ms: offlineSince });
    announce(stoa, user, row, true);
  });
}

import { JsonText } from '../http/json';
import type { Stoa } from '../stoa';
import type { PresenceView } from './queries';

/**
 * Zulip's legacy format calls a user active while their last activity is at most this much
 * older than their last connection, so one missed ping does not flip them to idle.
 */
const LEGACY_ACTIVE_SLACK_MS = 70_000;

export interface ModernPresence {
  active_timestamp: number;
  idle_timestamp: number;
}

export interface LegacyClientPresence {
  client: string;
  status: 'active' | 'idle';
  timestamp: number;
  pushable: boolean;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** A user never reported active is shown as last active when they joined, as Zulip does. */
function lastActiveMs(row: PresenceView): number {
  return row.last_active_ms ?? row.date_joined_ms;
}

export function modernPresence(row: PresenceView): ModernPresence {
  return { active_timestamp: seconds(lastActiveMs(row)), idle_timestamp: seconds(row.last_connected_ms) };
}

/**
 * The one client entry of the legacy format. Stoa, like Zulip since feature level 178, does
 * not track clients, so it is always "website".
 */
export function legacyClientPresence(row: PresenceView): LegacyClientPresence {
  const activeMs = lastActiveMs(row);
  const active = activeMs + LEGACY_ACTIVE_SLACK_MS >= row.last_connected_ms;
  return {
    client: 'website',
    status: active ? 'active' : 'idle',
    timestamp: seconds(active ? activeMs : row.last_connected_ms),
    pushable: false,
  };
}

/** The legacy format of one user: the website entry and the same data as `aggregated`. */
export function legacyPresence(row: PresenceView): { aggregated: Omit<LegacyClientPresence, 'pushable'>; website: LegacyClientPresence } {
  const website = legacyClientPresence(row);
  const { pushable: _pushable, ...aggregated } = website;
  return { aggregated, website };
}

/** Presence of many users in the legacy format, keyed by API email. */
function legacyPresenceMap(rows: readonly PresenceView[]): Record<string, unknown> {
  return Object.fromEntries(rows.map((row) => [row.email, legacyPresence(row)]));
}

/** How far back presence goes when a client does not say (Zulip's two weeks). */
const DEFAULT_HISTORY_LIMIT_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface PresenceQuery {
  /** Keyed by user ID with two timestamps, or by email in the legacy format. */
  modern: boolean;
  /** Only rows changed after this update ID; null: every row within the history limit. */
  lastUpdateId: number | null;
  historyLimitDays: number | null;
}

/**
 * The organization's presence as POST /users/me/presence and POST /register return it. A
 * client that already holds some data (last_update_id above 0) gets every change since, however
 * old; the history limit only trims a first fetch.
 */
export function presenceData(stoa: Stoa, query: PresenceQuery) {
  const now = stoa.clock.now();
  const incremental = query.lastUpdateId !== null && query.lastUpdateId > 0;
  const sinceMs = incremental ? -Infinity : now - (query.historyLimitDays ?? DEFAULT_HISTORY_LIMIT_DAYS) * DAY_MS;
  const fallbackId = query.lastUpdateId ?? -1;
  if (query.modern) {
    // Every /register asks for everyone's: written as JSON straight from the rows kept.
    const { text, newestUpdateId } = query.historyLimitDays === 0 ? { text: '{}', newestUpdateId: null } : stoa.presence.modernJson(fallbackId, sinceMs, modernPresence);
    return { presences: new JsonText(text), presence_last_update_id: newestUpdateId ?? fallbackId, server_timestamp: now / 1000 };
  }
  const rows = query.historyLimitDays === 0 ? [] : stoa.presence.changedSince(fallbackId, sinceMs);
  const newestId = rows.length > 0 ? Math.max(...rows.map((row) => row.last_update_id)) : fallbackId;
  return {
    presences: legacyPresenceMap(rows),
    presence_last_update_id: newestId,
    server_timestamp: now / 1000,
  };
}

/**
 * A user's flags on a message, stored as bits of user_messages.flags. The bit values are
 * ours (nothing outside the database sees them); the names are Zulip's.
 */
export const Flag = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  has_alert_word: 64,
  historical: 128,
  /** A direct message: lets unread direct messages be found without reading the message. */
  is_private: 256,
  /**
   * A push notification of the message is showing on the user's phones: reading, deleting or
   * losing the message withdraws it (Zulip's "remove" notification). Never shown to clients.
   */
  active_mobile_push_notification: 512,
} as const;
export type FlagName = keyof typeof Flag;

/** The flags a user may set and clear through the flags endpoints. */
export const USER_CHANGEABLE_FLAGS: ReadonlySet<string> = new Set(['read', 'starred', 'collapsed']);

/** Every flag name clients may name, including the deprecated combined wildcard flag. */
export const KNOWN_FLAGS: ReadonlySet<string> = new Set([...Object.keys(Flag), 'wildcard_mentioned']);

/** Flags set at send time that depend on the content, recomputed when the content changes. */
export const CONTENT_FLAGS =
  Flag.mentioned | Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned | Flag.has_alert_word;

const LISTED: ReadonlyArray<[string, number]> = (
  [
    'read',
    'starred',
    'collapsed',
    'mentioned',
    'stream_wildcard_mentioned',
    'topic_wildcard_mentioned',
    'has_alert_word',
    'historical',
  ] as const
).map((name) => [name, Flag[name]]);

/** The flag names clients see for a bit field, with `wildcard_mentioned` derived as Zulip does. */
export function flagNames(bits: number): string[] {
  const names: string[] = [];
  for (const [name, bit] of LISTED) {
    if (bits & bit) names.push(name);
    if (name === 'topic_wildcard_mentioned' && bits & (Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned)) {
      names.push('wildcard_mentioned');
    }
  }
  return names;
}

/**
 * Flags of a message the user can read without having it in their own history (a public
 * channel's history): read, and marked as historical.
 */
export const HISTORICAL_VIEW_FLAGS = Flag.read | Flag.historical;

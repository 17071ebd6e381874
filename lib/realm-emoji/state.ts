import type { StateContext } from '../events/state-context';

/**
 * Register state for fetch type `realm_emoji`: the organization's custom emoji by ID. There are
 * none yet, but clients (the mobile app among them) require the key.
 */
export function realmEmojiState(_context: StateContext): Record<string, unknown> {
  return { realm_emoji: {} };
}

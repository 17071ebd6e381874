import type { StateContext } from '../events/state-context';
import { realmEmojiDict } from './present';

/** Register state for fetch type `realm_emoji`: the organization's custom emoji by ID, deactivated ones included. */
export function realmEmojiState({ stoa }: StateContext): Record<string, unknown> {
  return { realm_emoji: realmEmojiDict(stoa) };
}

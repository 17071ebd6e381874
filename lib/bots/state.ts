import type { StateContext } from '../events/state-context';
import { botsAdministeredBy, presentBot } from './present';

/** Register state for fetch type `realm_bot`: the bots the caller administers. */
export function realmBotsState({ stoa, user }: StateContext): Record<string, unknown> {
  return { realm_bots: botsAdministeredBy(stoa, user).map((bot) => presentBot(stoa, bot)) };
}

import type { StateContext } from '../events/state-context';
import { userSettings } from '../users/settings-store';
import { presentDraft } from './present';

/** Register state for fetch type `drafts`: empty while the user does not synchronize drafts. */
export function draftsState({ stoa, user }: StateContext): Record<string, unknown> {
  const syncing = userSettings(stoa, user).enable_drafts_synchronization === true;
  return { drafts: syncing ? stoa.drafts.forUser(user.id).map(presentDraft) : [] };
}

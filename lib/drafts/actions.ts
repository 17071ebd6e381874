import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { presentDraft } from './present';
import type { DraftFields } from './queries';

/** Stores new drafts and tells the user's clients; answers their IDs in the order given. */
export function createDrafts(stoa: Stoa, userId: number, drafts: readonly DraftFields[]): number[] {
  return write(stoa, () => {
    const ids = drafts.map((draft) => stoa.drafts.insert(userId, draft));
    if (ids.length > 0) {
      const created = ids.map((id) => presentDraft(stoa.drafts.get(userId, id)!));
      sendEvent(stoa, { type: 'drafts', op: 'add', drafts: created }, [userId]);
    }
    return ids;
  });
}

/** Replaces a draft's contents. */
export function editDraft(stoa: Stoa, userId: number, draftId: number, draft: DraftFields): void {
  write(stoa, () => {
    stoa.drafts.update(draftId, draft);
    sendEvent(stoa, { type: 'drafts', op: 'update', draft: presentDraft(stoa.drafts.get(userId, draftId)!) }, [userId]);
  });
}

export function deleteDraft(stoa: Stoa, userId: number, draftId: number): void {
  write(stoa, () => {
    stoa.drafts.remove(draftId);
    sendEvent(stoa, { type: 'drafts', op: 'remove', draft_id: draftId }, [userId]);
  });
}

/**
 * Turning draft synchronization off forgets the user's drafts without remove events: the
 * drafts still exist on the devices that have them, the server just stops keeping a copy.
 */
export function forgetDrafts(stoa: Stoa, userId: number): void {
  write(stoa, () => stoa.drafts.removeAllOf(userId));
}

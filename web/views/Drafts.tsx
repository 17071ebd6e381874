import { deleteDraft, restoreDraft } from '../compose/state';
import { channelName, drafts, session, userName } from '../state';
import type { Draft } from '../types';
import { timeOf } from '../messages/time';
import { reportError } from '../ui/Toasts';

function recipientOf(draft: Draft, self: number): string {
  if (draft.type === 'stream') {
    const channel = draft.to.length ? channelName(draft.to[0]) : undefined;
    return channel ? `#${channel} › ${draft.topic || 'general chat'}` : 'No channel chosen';
  }
  if (draft.type === 'private') {
    const others = draft.to.filter((id) => id !== self);
    return others.length ? `You and ${others.map(userName).join(', ')}` : 'You and yourself';
  }
  return 'No recipient chosen';
}

/** The person's drafts, newest first: text left in a closed compose box, kept on the server. */
export function Drafts() {
  const self = session.value?.user_id ?? 0;
  const list = [...drafts.value.values()].sort((a, b) => b.timestamp - a.timestamp);
  return (
    <div class="panel" role="region" aria-label="Drafts">
      <h1 class="view-title">Drafts</h1>
      {list.length === 0 && <p class="feed-empty">No drafts. What is left in the compose box when it is closed is kept here.</p>}
      <ul class="item-list">
        {list.map((draft) => {
          const to = recipientOf(draft, self);
          return (
            <li key={draft.id}>
              <div>
                <p class="draft-recipient">
                  {to} <span class="draft-time">{timeOf(draft.timestamp)}</span>
                </p>
                <p class="description">{draft.content}</p>
              </div>
              <div class="channel-actions">
                <button type="button" class="primary" aria-label={`Restore the draft to ${to}`} onClick={() => restoreDraft(draft)}>
                  Restore
                </button>
                <button type="button" aria-label={`Delete the draft to ${to}`} onClick={() => deleteDraft(draft.id).catch(reportError)}>
                  Delete
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

import { deleteDraft, restoreDraft } from '../compose/state';
import { describeTime } from '../compose/scheduled';
import { drafts } from '../state';
import { reportError } from '../ui/Toasts';
import { recipientLine, SavedMessageList } from './SavedMessages';

/** The person's drafts, newest first: text left in a closed compose box, kept on the server. */
export function Drafts() {
  const list = [...drafts.value.values()].sort((a, b) => b.timestamp - a.timestamp);
  return (
    <SavedMessageList
      title="Drafts"
      empty="No drafts. What is left in the compose box when it is closed is kept here."
      messages={list.map((draft) => {
        const to = recipientLine(draft.type, draft.to, draft.topic);
        return {
          key: draft.id,
          recipient: to,
          time: describeTime(new Date(draft.timestamp * 1000)),
          content: draft.content,
          actions: (
            <>
              <button type="button" class="primary" aria-label={`Restore the draft to ${to}`} onClick={() => restoreDraft(draft)}>
                Restore
              </button>
              <button type="button" aria-label={`Delete the draft to ${to}`} onClick={() => deleteDraft(draft.id).catch(reportError)}>
                Delete
              </button>
            </>
          ),
        };
      })}
    />
  );
}

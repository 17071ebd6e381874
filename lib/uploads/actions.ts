import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { canDownload } from './access';
import { presentAttachment } from './present';
import type { AttachmentRow, NewAttachment } from './queries';

function announce(stoa: Stoa, ownerId: number, op: 'add' | 'update' | 'remove', attachment: Record<string, unknown>): void {
  sendEvent(stoa, { type: 'attachment', op, attachment, upload_space_used: stoa.attachments.spaceUsed() }, [ownerId]);
}

/**
 * Removes a file once its row is gone for good. By the next turn of the event loop whatever
 * transaction removed the row (or failed to add it) has committed or rolled back; a row that
 * is still there keeps its file.
 */
function removeFileUnlessRecorded(stoa: Stoa, pathId: string): void {
  setImmediate(() => {
    if (stoa.db.open && !stoa.attachments.byPath(pathId)) void stoa.uploads.remove(pathId);
  });
}

/** Records a stored file; if the record fails, the file goes too. */
export function addAttachment(stoa: Stoa, attachment: NewAttachment): AttachmentRow {
  try {
    return write(stoa, () => {
      const added = stoa.attachments.byId(stoa.attachments.insert(attachment))!;
      announce(stoa, added.owner_id, 'add', presentAttachment(stoa, added));
      return added;
    });
  } finally {
    removeFileUnlessRecorded(stoa, attachment.path_id);
  }
}

/** Removes an upload: its row, then its file. */
export function removeAttachment(stoa: Stoa, row: AttachmentRow): void {
  write(stoa, () => {
    stoa.attachments.remove(row.id);
    announce(stoa, row.owner_id, 'remove', { id: row.id });
  });
  removeFileUnlessRecorded(stoa, row.path_id);
}

/**
 * Makes a message's links to uploads count: the uploads it links become readable by whoever
 * reads the message. A sender may share only uploads they may download themselves, as on
 * Zulip; links to others are left as plain links. Uploads the message no longer links (after
 * an edit) are let go, and removed once no message links them, except the sender's own: as on
 * Zulip those stay (the edit history still shows them) and are returned, for the edit's
 * `detached_uploads`, so that the client can ask whether to delete them.
 */
export function claimAttachments(stoa: Stoa, sender: UserRow, messageId: number, pathIds: ReadonlySet<string>): AttachmentRow[] {
  return write(stoa, () => {
    const before = stoa.attachments.ofMessage(messageId);
    const kept = new Set<number>();
    for (const pathId of pathIds) {
      const row = stoa.attachments.byPath(pathId);
      if (!row || !canDownload(stoa, sender, row)) continue;
      kept.add(row.id);
      if (before.some((b) => b.id === row.id)) continue;
      stoa.attachments.link(row.id, messageId);
      announce(stoa, row.owner_id, 'update', presentAttachment(stoa, row));
    }
    const detached: AttachmentRow[] = [];
    for (const row of before) {
      if (kept.has(row.id)) continue;
      stoa.attachments.unlink(row.id, messageId);
      if (row.owner_id === sender.id && stoa.attachments.messageIdsOf(row.id).length === 0) {
        detached.push(row);
        announce(stoa, row.owner_id, 'update', presentAttachment(stoa, row));
      } else {
        releaseIfUnlinked(stoa, row);
      }
    }
    return detached;
  });
}

/** The uploads a message links, to let go of with `releaseAttachments` once it is deleted. */
export function attachmentsOfMessage(stoa: Stoa, messageId: number): AttachmentRow[] {
  return stoa.attachments.ofMessage(messageId);
}

/** After messages are deleted: uploads no message links any more are deleted too, as on Zulip. */
export function releaseAttachments(stoa: Stoa, rows: readonly AttachmentRow[]): void {
  for (const row of rows) releaseIfUnlinked(stoa, row);
}

function releaseIfUnlinked(stoa: Stoa, row: AttachmentRow): void {
  if (stoa.attachments.messageIdsOf(row.id).length > 0) {
    announce(stoa, row.owner_id, 'update', presentAttachment(stoa, row));
    return;
  }
  removeAttachment(stoa, row);
}

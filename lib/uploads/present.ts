import type { Stoa } from '../stoa';
import type { AttachmentRow } from './queries';

/** The URL of an upload, relative to the server: path IDs are percent-encoded segment by segment. */
export function uploadUrl(pathId: string): string {
  return `/user_uploads/${pathId.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * An attachment as GET /attachments, the attachment events and an edit's `detached_uploads`
 * give it: the upload time in whole seconds (level 443; it is kept in milliseconds) and the
 * IDs of the messages linking it, oldest first (level 472).
 */
export function presentAttachment(stoa: Stoa, row: AttachmentRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.file_name,
    path_id: row.path_id,
    size: row.size,
    create_time: Math.floor(row.create_time / 1000),
    message_ids: stoa.attachments.messageIdsOf(row.id),
  };
}

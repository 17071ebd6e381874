import type { Stoa } from '../stoa';
import type { AttachmentRow } from './queries';

/** The URL of an upload, relative to the server: path IDs are percent-encoded segment by segment. */
export function uploadUrl(pathId: string): string {
  return `/user_uploads/${pathId.split('/').map(encodeURIComponent).join('/')}`;
}

/** An attachment as GET /attachments and the attachment events give it. */
export function presentAttachment(stoa: Stoa, row: AttachmentRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.file_name,
    path_id: row.path_id,
    size: row.size,
    create_time: row.create_time,
    messages: stoa.attachments.messagesOf(row.id).map((m) => ({ id: m.id, date_sent: m.date_sent * 1000 })),
  };
}

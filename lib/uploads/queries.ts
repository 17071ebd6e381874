import type { Statements } from '../db';

export interface AttachmentRow {
  id: number;
  path_id: string;
  file_name: string;
  owner_id: number;
  size: number;
  create_time: number;
  content_type: string | null;
  width: number | null;
  height: number | null;
  animated: 0 | 1;
}

export type NewAttachment = Omit<AttachmentRow, 'id'>;

export function prepareAttachmentQueries(db: Statements) {
  const insert = db.prepare<NewAttachment>(
    `INSERT INTO attachments (path_id, file_name, owner_id, size, create_time, content_type, width, height, animated)
     VALUES (@path_id, @file_name, @owner_id, @size, @create_time, @content_type, @width, @height, @animated)`,
  );
  const byId = db.prepare<[number], AttachmentRow>('SELECT * FROM attachments WHERE id = ?');
  const byPath = db.prepare<[string], AttachmentRow>('SELECT * FROM attachments WHERE path_id = ?');
  const ofOwner = db.prepare<[number], AttachmentRow>('SELECT * FROM attachments WHERE owner_id = ? ORDER BY id');
  const remove = db.prepare<[number]>('DELETE FROM attachments WHERE id = ?');
  const spaceUsed = db.prepare<[], { used: number }>('SELECT coalesce(sum(size), 0) AS used FROM attachments');
  const link = db.prepare<[number, number]>('INSERT OR IGNORE INTO attachment_messages (attachment_id, message_id) VALUES (?, ?)');
  const unlink = db.prepare<[number, number]>('DELETE FROM attachment_messages WHERE attachment_id = ? AND message_id = ?');
  const messageIdsOf = db.prepare<[number], { message_id: number }>(
    'SELECT message_id FROM attachment_messages WHERE attachment_id = ? ORDER BY message_id',
  );
  const ofMessage = db.prepare<[number], AttachmentRow>(
    `SELECT a.* FROM attachment_messages am JOIN attachments a ON a.id = am.attachment_id WHERE am.message_id = ? ORDER BY a.id`,
  );
  const allPaths = db.prepare<[], { path_id: string }>('SELECT path_id FROM attachments');
  return {
    insert: (attachment: NewAttachment) => Number(insert.run(attachment).lastInsertRowid),
    byId: (id: number) => byId.get(id),
    byPath: (pathId: string) => byPath.get(pathId),
    ofOwner: (ownerId: number) => ofOwner.all(ownerId),
    remove: (id: number) => void remove.run(id),
    /** Bytes all uploads of the organization take together. */
    spaceUsed: () => spaceUsed.get()!.used,
    link: (attachmentId: number, messageId: number) => void link.run(attachmentId, messageId),
    unlink: (attachmentId: number, messageId: number) => void unlink.run(attachmentId, messageId),
    /** The IDs of the messages linking an upload, oldest first. */
    messageIdsOf: (attachmentId: number) => messageIdsOf.all(attachmentId).map((row) => row.message_id),
    ofMessage: (messageId: number) => ofMessage.all(messageId),
    allPaths: () => new Set(allPaths.all().map((row) => row.path_id)),
  };
}

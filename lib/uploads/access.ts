import { ApiError } from '../http/errors';
import { accessMessage } from '../messages/access';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import type { AttachmentRow } from './queries';

/**
 * Who may download an upload, as on Zulip: its owner, and whoever may read a message that
 * links it (a message they received, or one in a channel whose history they may read).
 */
export function canDownload(stoa: Stoa, user: UserRow, attachment: AttachmentRow): boolean {
  if (attachment.owner_id === user.id) return true;
  return stoa.attachments.messagesOf(attachment.id).some((message) => canRead(stoa, user, message.id));
}

function canRead(stoa: Stoa, user: UserRow, messageId: number): boolean {
  try {
    accessMessage(stoa, user, messageId);
    return true;
  } catch (err) {
    if (err instanceof ApiError) return false;
    throw err;
  }
}

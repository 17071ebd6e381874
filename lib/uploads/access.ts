import { isSpectatorReadable } from '../channels/access';
import { webPublicChannelsEnabled } from '../realm/settings-store';
import { canAccessMessage } from '../messages/access';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import type { AttachmentRow } from './queries';

/**
 * Who may download an upload, as on Zulip: its owner, and whoever may read a message that
 * links it (a message they received, or one in a channel whose history they may read).
 */
export function canDownload(stoa: Stoa, user: UserRow, attachment: AttachmentRow): boolean {
  if (attachment.owner_id === user.id) return true;
  return stoa.attachments.messageIdsOf(attachment.id).some((messageId) => {
    const row = stoa.messages.byId(messageId);
    return row !== undefined && canAccessMessage(stoa, user, row);
  });
}

/**
 * Whether a spectator may download an upload: a message in a channel spectators may read links
 * it (Zulip's web-public attachments), and the file has not been fetched by spectators more
 * than a thousand times today. Each permitted download counts. None may while the
 * organization keeps spectators out.
 */
export function spectatorCanDownload(stoa: Stoa, attachment: AttachmentRow): boolean {
  if (!webPublicChannelsEnabled(stoa)) return false;
  const inPublicView = stoa.attachments.messageIdsOf(attachment.id).some((messageId) => {
    const row = stoa.messages.byId(messageId);
    const channel = row?.stream_id == null ? undefined : stoa.channels.byId(row.stream_id);
    return channel !== undefined && isSpectatorReadable(channel);
  });
  if (!inPublicView) return false;
  // The limiter counts "failures"; here every download is one.
  const limiter = stoa.spectatorDownloads;
  if (limiter.waitSeconds(attachment.path_id) > 0) return false;
  limiter.recordFailure(attachment.path_id);
  return true;
}

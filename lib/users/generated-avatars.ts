import { toPng } from 'jdenticon';
import { onCommit } from '../events/send';
import type { Stoa } from '../stoa';
import { AVATAR_SIZE, MEDIUM_AVATAR_SIZE } from './avatars';

/**
 * Draws a user's generated avatar (a Jdenticon, level 456) and stores it as an uploaded one is
 * stored. The pattern follows the account, not its email, so it stays when the address
 * changes. Written once the account is committed, in the same turn, so the pictures are in
 * place before any client can ask for the URL the events name.
 */
export function drawGeneratedAvatar(stoa: Stoa, userId: number): void {
  onCommit(stoa, () => {
    const seed = stoa.avatars.fileName(userId, false);
    stoa.uploads.storeAvatarNow(stoa.avatars.fileName(userId, false), toPng(seed, AVATAR_SIZE));
    stoa.uploads.storeAvatarNow(stoa.avatars.fileName(userId, true), toPng(seed, MEDIUM_AVATAR_SIZE));
  });
}

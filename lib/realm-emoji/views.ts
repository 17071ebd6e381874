import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { ApiError, badRequest, insufficientPermission } from '../http/errors';
import { emojiCodeByName } from '../markdown/emoji';
import { userHasRealmPermission } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { makeEmojiImages } from '../uploads/images';
import { checkFileSize, discardFiles, fileReceiver } from '../uploads/receive';
import { requireMemberOrAdmin } from '../users/access';
import { Role } from '../users/queries';
import { addRealmEmoji, deactivateRealmEmoji } from './actions';
import { emojiPathId, realmEmojiDict } from './present';

/** Zulip's default MAX_EMOJI_FILE_SIZE_MIB. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

/** Zulip's rule: lowercase ASCII letters, digits, dashes and underscores, ending in a letter or digit. */
function checkEmojiName(name: string): void {
  if (name === '') throw badRequest('Emoji name is missing');
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[_-]$/.test(name)) throw badRequest('Emoji names must end with either a letter or digit.');
    return;
  }
  throw badRequest('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}

export const getRealmEmoji = endpoint({
  params: NO_PARAMS,
  // The list is public to the organization, as on Zulip.
  view: ({ stoa }) => ({ emoji: realmEmojiDict(stoa) }),
});

/**
 * POST /realm/emoji/{emoji_name}: one image, made into the emoji. The checks come in Zulip's
 * order, so that a client sees the same first error Zulip would give it.
 */
export const uploadRealmEmojiView = endpoint<{ emoji_name: string }>({
  params: { properties: { emoji_name: { type: 'string' } }, required: ['emoji_name'] },
  fileReceiver: (stoa) => fileReceiver(stoa, MAX_EMOJI_FILE_SIZE_MIB),
  authorize: requireMemberOrAdmin,
  view: async ({ stoa, user, params, req }) => {
    const files = (req as Request).files ?? [];
    try {
      // Spaces are how people type underscores in names.
      const name = params.emoji_name.trim().replace(/ /g, '_');
      checkEmojiName(name);
      if (!userHasRealmPermission(stoa, user, 'realm_can_add_custom_emoji_group')) throw insufficientPermission();
      if (stoa.realmEmoji.activeByName(name)) throw badRequest('A custom emoji with this name already exists.');
      if (files.length !== 1) throw badRequest('You must upload exactly one file.');
      if (emojiCodeByName(name) !== null && user.role > Role.ADMINISTRATOR) {
        throw badRequest('Only administrators can override default emoji.');
      }
      const [file] = files;
      checkFileSize(file, MAX_EMOJI_FILE_SIZE_MIB);
      const images = await makeEmojiImages(file.path);
      if (!images) throw badRequest('Invalid image format');
      return await storeEmoji(stoa, user.id, name, images);
    } finally {
      await discardFiles(req as Request);
    }
  },
});

/**
 * Stores the images, then records the emoji: a crash in between leaves files without a row,
 * which the upload store's sweep removes at the next start. If the record fails, the files go.
 */
async function storeEmoji(stoa: Stoa, authorId: number, name: string, images: NonNullable<Awaited<ReturnType<typeof makeEmojiImages>>>) {
  const realmId = stoa.realm.get()!.id;
  // Random, so that the files of an organization's emoji cannot be listed by guessing.
  const row = { file_name: `${randomBytes(9).toString('base64url')}.${images.extension}` };
  const pathIds = [emojiPathId(realmId, row)];
  await stoa.uploads.store(pathIds[0], images.image);
  if (images.still) {
    pathIds.push(emojiPathId(realmId, row, true));
    await stoa.uploads.store(pathIds[1], images.still);
  }
  try {
    // Another upload of the same name may have finished while this one was being stored.
    if (stoa.realmEmoji.activeByName(name)) throw badRequest('A custom emoji with this name already exists.');
    addRealmEmoji(stoa, { name, file_name: row.file_name, author_id: authorId, is_animated: images.still ? 1 : 0 });
    return {};
  } finally {
    // By the next turn of the event loop the transaction has committed or rolled back.
    setImmediate(() => {
      if (stoa.db.open && !stoa.realmEmoji.byFileName(row.file_name)) for (const pathId of pathIds) void stoa.uploads.remove(pathId);
    });
  }
}

/** DELETE /realm/emoji/{emoji_name}: deactivates it; its author or an administrator may. */
export const deactivateRealmEmojiView = endpoint<{ emoji_name: string }>({
  params: { properties: { emoji_name: { type: 'string' } }, required: ['emoji_name'] },
  view: ({ stoa, user, params }) => {
    const emoji = stoa.realmEmoji.activeByName(params.emoji_name);
    if (!emoji) throw new ApiError('BAD_REQUEST', `Emoji '${params.emoji_name}' does not exist`, 404);
    if (user.role > Role.ADMINISTRATOR && emoji.author_id !== user.id) {
      throw badRequest('Must be an organization administrator or emoji author');
    }
    deactivateRealmEmoji(stoa, emoji.id);
    return {};
  },
});

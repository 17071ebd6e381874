import type { Stoa } from '../stoa';
import type { RealmEmojiRow } from './queries';

/**
 * Where custom emoji images live: in the upload store under emoji/<realm id>/, and on the web
 * at Zulip's path for them, /user_avatars/<realm id>/emoji/images/, with the still first frame
 * of an animated one under still/ beside it as a PNG.
 */
export const EMOJI_URL_PREFIX = '/user_avatars';

function stillFileName(fileName: string): string {
  return `${fileName.replace(/\.[^.]*$/, '')}.png`;
}

/** The image's path ID in the upload store; the still frame's with `still`. */
export function emojiPathId(realmId: number, row: Pick<RealmEmojiRow, 'file_name'>, still = false): string {
  return still ? `emoji/${realmId}/still/${stillFileName(row.file_name)}` : `emoji/${realmId}/${row.file_name}`;
}

export function emojiUrl(realmId: number, row: Pick<RealmEmojiRow, 'file_name'>, still = false): string {
  const name = still ? `still/${stillFileName(row.file_name)}` : row.file_name;
  return `${EMOJI_URL_PREFIX}/${realmId}/emoji/images/${name}`;
}

/** An emoji as GET /realm/emoji, register and the realm_emoji events give it. */
export function presentRealmEmoji(realmId: number, row: RealmEmojiRow): Record<string, unknown> {
  return {
    id: String(row.id),
    name: row.name,
    source_url: emojiUrl(realmId, row),
    still_url: row.is_animated ? emojiUrl(realmId, row, true) : null,
    deactivated: row.deactivated === 1,
    author_id: row.author_id,
  };
}

/** Every custom emoji by ID, deactivated ones included: clients still show those in old messages. */
export function realmEmojiDict(stoa: Stoa): Record<string, Record<string, unknown>> {
  const realmId = stoa.realm.get()!.id;
  return Object.fromEntries(stoa.realmEmoji.all().map((row) => [String(row.id), presentRealmEmoji(realmId, row)]));
}

/** The path IDs of every custom emoji's files, which the upload store's sweep must keep. */
export function emojiPathIds(stoa: Stoa): string[] {
  const realm = stoa.realm.get();
  if (!realm) return [];
  const realmId = realm.id;
  return stoa.realmEmoji.all().flatMap((row) => (row.is_animated ? [emojiPathId(realmId, row), emojiPathId(realmId, row, true)] : [emojiPathId(realmId, row)]));
}

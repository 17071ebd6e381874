import { emojiUrl } from '../realm-emoji/present';
import { realmSetting } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { previewFormat } from '../uploads/images';
import { uploadUrl } from '../uploads/present';
import type { MarkdownContext } from './render';

/** The sounds Zulip shows a player for: AAC, FLAC, MP3 and WAV. */
const AUDIO_TYPES = new Set(['audio/aac', 'audio/flac', 'audio/mpeg', 'audio/wav', 'audio/x-wav', 'audio/vnd.wave']);
const AUDIO_EXTENSIONS: Record<string, string> = { aac: 'audio/aac', flac: 'audio/flac', mp3: 'audio/mpeg', wav: 'audio/wav' };

/** Whether an upload is one of those sounds, by its type or, when the browser sent none, its name. */
function isPlayableAudio(contentType: string | null, name: string): boolean {
  if (contentType && contentType !== 'application/octet-stream') return AUDIO_TYPES.has(contentType.toLowerCase());
  return AUDIO_EXTENSIONS[/\.([^./]+)$/.exec(name)?.[1]?.toLowerCase() ?? ''] !== undefined;
}

/** How Zulip shows its system groups to people; their API names ("role:members") are for machines. */
const SYSTEM_GROUP_DISPLAY_NAMES: Record<string, string> = {
  'role:internet': 'Everyone on the internet',
  'role:everyone': 'Everyone including guests',
  'role:members': 'Everyone except guests',
  'role:fullmembers': 'Full members',
  'role:moderators': 'Moderators',
  'role:administrators': 'Administrators',
  'role:owners': 'Owners',
  'role:nobody': 'Nobody',
};

/** What the renderer may know about the realm, read from the database as it renders. */
export function markdownContextFor(stoa: Stoa): MarkdownContext {
  return {
    usersByName: (name) => {
      // SQLite folds only ASCII letters; other names are compared here, in every alphabet.
      const users = /^[\x00-\x7f]*$/.test(name)
        ? stoa.users.activeByFullName(name)
        : stoa.users.inRealm().filter((user) => user.is_active && user.full_name.toLowerCase() === name.toLowerCase());
      return users.map((user) => ({ id: user.id, fullName: user.full_name }));
    },
    userById: (id) => {
      const user = stoa.users.byId(id);
      return user && user.is_active && !user.is_system_bot ? { id: user.id, fullName: user.full_name } : null;
    },
    groupByName: (name) => {
      const group = stoa.groups.byName(name);
      if (!group || group.deactivated) return null;
      return { id: group.id, name: group.name!, displayName: SYSTEM_GROUP_DISPLAY_NAMES[group.name!] };
    },
    channelByName: (name) => {
      const channel = stoa.channels.byName(name);
      return channel ? { id: channel.id, name: channel.name } : null;
    },
    realmEmoji: (name) => {
      const row = stoa.realmEmoji.activeByName(name);
      if (!row) return null;
      const realmId = stoa.realm.get()!.id;
      return { id: String(row.id), name: row.name, url: emojiUrl(realmId, row), stillUrl: row.is_animated ? emojiUrl(realmId, row, true) : null };
    },
    linkifiers: stoa.linkifiers.realmLinkifiers(),
    alertWords: [],
    realmUrl: stoa.site,
    defaultCodeLanguage: () => String(realmSetting(stoa, 'realm_default_code_block_language') ?? ''),
    uploadedAudio: (pathId) => {
      const row = stoa.attachments.byPath(pathId);
      return row !== undefined && isPlayableAudio(row.content_type, row.path_id);
    },
    // Read only when a message links an upload: sending is the hot path.
    uploadedImage: (pathId) => {
      if (realmSetting(stoa, 'realm_inline_image_preview') === false) return null;
      const row = stoa.attachments.byPath(pathId);
      if (!row || row.width === null || row.height === null || row.content_type === null) return null;
      return {
        width: row.width,
        height: row.height,
        contentType: row.content_type,
        animated: row.animated === 1,
        // The still format: clients swap in the moving one where they want it.
        thumbnailUrl: `/user_uploads/thumbnail/${uploadUrl(row.path_id).slice('/user_uploads/'.length)}/${previewFormat(false).name}`,
      };
    },
  };
}

import { unixSeconds } from '../clock';
import type { StateContext } from '../events/state-context';
import { sendEvent, write } from '../events/send';
import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';
import { markdownContextFor } from '../markdown/context';
import { renderMarkdown } from '../markdown/render';
import { CHANNEL_FOLDER_DESCRIPTION_MAX, CHANNEL_FOLDER_NAME_MAX } from '../realm/settings';
import type { Stoa } from '../stoa';
import { isUnprintable } from './names';
import type { ChannelFolderRow } from './queries';
import { requireAdministrator } from '../users/access';

/**
 * Channel folders: named groups of channels that clients list together, in an order the
 * administrators set. Everyone in the organization sees every folder; only administrators
 * create, change, archive and reorder them.
 */

/** A ChannelFolder object of the API. */
export function presentChannelFolder(folder: ChannelFolderRow): Record<string, unknown> {
  return {
    id: folder.id,
    name: folder.name,
    description: folder.description,
    rendered_description: folder.rendered_description,
    date_created: folder.date_created,
    creator_id: folder.creator_id,
    is_archived: folder.is_archived === 1,
    order: folder.position,
  };
}

function everyone(stoa: Stoa): number[] {
  return stoa.users.activeIds();
}

/** A folder by ID, or Zulip's refusal. */
export function accessChannelFolder(stoa: Stoa, folderId: number): ChannelFolderRow {
  const folder = stoa.channels.folderById(folderId);
  if (!folder) throw badRequest('Invalid channel folder ID');
  return folder;
}

/**
 * A new name: not blank, printable, and no folder's without regard to case. As on Zulip, a
 * folder's own name counts too, so changing only its case is refused.
 */
function checkFolderName(stoa: Stoa, name: string): void {
  if (name.trim() === '') throw badRequest("Channel folder name can't be empty.");
  const bad = [...name].findIndex(isUnprintable);
  if (bad >= 0) throw badRequest(`Invalid character in channel folder name, at position ${bad + 1}.`);
  const key = name.toLowerCase();
  if (stoa.channels.folders().some((f) => f.name.toLowerCase() === key)) {
    throw badRequest(`Channel folder '${name}' already exists`);
  }
}

const NAME = { type: 'string', maxLength: CHANNEL_FOLDER_NAME_MAX } as const;
const DESCRIPTION = { type: 'string', maxLength: CHANNEL_FOLDER_DESCRIPTION_MAX } as const;

function renderDescription(stoa: Stoa, description: string): string {
  return renderMarkdown(description, markdownContextFor(stoa)).html;
}

export const createChannelFolderView = endpoint<{ name: string; description: string }>({
  params: { properties: { name: NAME, description: DESCRIPTION }, required: ['name', 'description'] },
  authorize: requireAdministrator,
  view: ({ stoa, user, params }) => {
    checkFolderName(stoa, params.name);
    const id = write(stoa, () => {
      // A new folder goes last.
      const position = stoa.channels.folders().reduce((last, f) => Math.max(last, f.position + 1), 0);
      const folderId = stoa.channels.insertFolder({
        name: params.name,
        description: params.description,
        rendered_description: renderDescription(stoa, params.description),
        date_created: unixSeconds(stoa.clock),
        creator_id: user.id,
        position,
      });
      const folder = stoa.channels.folderById(folderId)!;
      sendEvent(stoa, { type: 'channel_folder', op: 'add', channel_folder: presentChannelFolder(folder) }, everyone(stoa));
      return folderId;
    });
    return { channel_folder_id: id };
  },
});

export const getChannelFoldersView = endpoint<{ include_archived: boolean }>({
  params: { properties: { include_archived: { type: 'boolean', default: false } } },
  view: ({ stoa, params }) => ({
    channel_folders: stoa.channels
      .folders()
      .filter((f) => params.include_archived || !f.is_archived)
      .map(presentChannelFolder),
  }),
});

interface UpdateFolderParams {
  channel_folder_id: number;
  name?: string;
  description?: string;
  is_archived?: boolean;
}

export const updateChannelFolderView = endpoint<UpdateFolderParams>({
  params: {
    properties: { channel_folder_id: { type: 'integer' }, name: NAME, description: DESCRIPTION, is_archived: { type: 'boolean' } },
    required: ['channel_folder_id'],
  },
  pathPatterns: { channel_folder_id: /^\d+$/ },
  authorize: requireAdministrator,
  view: ({ stoa, params }) => {
    const folder = accessChannelFolder(stoa, params.channel_folder_id);
    const rename = params.name !== undefined && params.name !== folder.name;
    if (rename) checkFolderName(stoa, params.name!);
    const archive = params.is_archived !== undefined && params.is_archived !== (folder.is_archived === 1);
    if (archive && params.is_archived && stoa.channels.folderInUse(folder.id)) {
      throw badRequest('You need to remove all the channels from this folder to archive it.');
    }
    // Each change is its own event, as clients apply them one by one.
    write(stoa, () => {
      const update = (data: Record<string, unknown>) =>
        sendEvent(stoa, { type: 'channel_folder', op: 'update', channel_folder_id: folder.id, data }, everyone(stoa));
      if (rename) {
        stoa.channels.renameFolder(folder.id, params.name!);
        update({ name: params.name });
      }
      if (params.description !== undefined && params.description !== folder.description) {
        const rendered = renderDescription(stoa, params.description);
        stoa.channels.describeFolder(folder.id, params.description, rendered);
        update({ description: params.description, rendered_description: rendered });
      }
      if (archive) {
        stoa.channels.setFolderArchived(folder.id, params.is_archived!);
        update({ is_archived: params.is_archived });
      }
    });
    return {};
  },
});

export const reorderChannelFoldersView = endpoint<{ order: number[] }>({
  params: { properties: { order: { type: 'array', items: { type: 'integer' } } }, required: ['order'] },
  authorize: requireAdministrator,
  view: ({ stoa, params }) => {
    const folders = stoa.channels.folders();
    // Every folder must be placed, archived ones too.
    const ids = new Set(params.order);
    if (folders.some((f) => !ids.has(f.id))) {
      throw badRequest('Invalid order mapping.');
    }
    write(stoa, () => {
      // A folder named twice takes its last place, as on Zulip.
      params.order.forEach((id, position) => stoa.channels.setFolderPosition(id, position));
      sendEvent(stoa, { type: 'channel_folder', op: 'reorder', order: params.order }, everyone(stoa));
    });
    return {};
  },
});

/** Register state for fetch type `channel_folders`: every folder, archived ones too, in order. */
export function channelFoldersState({ stoa }: StateContext): Record<string, unknown> {
  return { channel_folders: stoa.channels.folders().map(presentChannelFolder) };
}

/** A spectator sees only the folders that hold a channel they may read. */
export function spectatorChannelFoldersState(stoa: Stoa, readable: ReadonlyArray<{ folder_id: number | null }>): Record<string, unknown> {
  const used = new Set(readable.map((c) => c.folder_id));
  return { channel_folders: stoa.channels.folders().filter((f) => used.has(f.id)).map(presentChannelFolder) };
}

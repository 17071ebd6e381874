import { accessChannelByName } from '../channels/access';
import type { ChannelRow } from '../channels/queries';
import type { StateContext } from '../events/state-context';
import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import { Role } from '../users/queries';
import {
  addChannelsToDefaultStreamGroup,
  createDefaultStreamGroup,
  editDefaultStreamGroup,
  presentDefaultStreamGroups,
  removeChannelsFromDefaultStreamGroup,
  removeDefaultStreamGroup,
} from './actions';
import type { DefaultStreamGroupRow } from './queries';
import { requireAdministrator } from '../users/access';

/**
 * Default channel groups: named sets of channels that people signing up may choose to join
 * (Zulip's DefaultStreamGroup). Only administrators manage them; everyone but guests sees them.
 */

/** Zulip's DefaultStreamGroup.MAX_NAME_LENGTH. */
const MAX_NAME_LENGTH = 60;
const GROUP_ID = { group_id: /^\d+$/ };
const CHANNEL_NAMES = { type: 'array', items: { type: 'string' } } as const;

function accessGroup(stoa: Stoa, groupId: number): DefaultStreamGroupRow {
  const group = stoa.defaultStreamGroups.byId(groupId);
  if (!group) throw badRequest(`Default channel group with id '${groupId}' does not exist.`);
  return group;
}

function checkGroupName(name: string): void {
  if (name.trim() === '') throw badRequest(`Invalid default channel group name '${name}'`);
  if (Array.from(name).length > MAX_NAME_LENGTH) {
    throw badRequest(`Default channel group name too long (limit: ${MAX_NAME_LENGTH} characters)`);
  }
  if (name.includes('\0')) throw badRequest(`Default channel group name '${name}' contains NULL (0x00) characters.`);
}

function checkNameFree(stoa: Stoa, name: string): void {
  if (stoa.defaultStreamGroups.byName(name)) throw badRequest(`Default channel group '${name}' already exists`);
}

/** A default channel is joined by everyone already, so it cannot be in a group too. */
function checkNotDefault(channel: ChannelRow, groupName: string): void {
  if (channel.is_default) throw badRequest(`'${channel.name}' is a default channel and cannot be added to '${groupName}'`);
}

export const createDefaultStreamGroupView = endpoint<{ group_name: string; description: string; stream_names: string[] }>({
  params: {
    properties: { group_name: { type: 'string' }, description: { type: 'string' }, stream_names: CHANNEL_NAMES },
    required: ['group_name', 'description', 'stream_names'],
  },
  authorize: requireAdministrator,
  view: ({ stoa, user, params }) => {
    const channels = params.stream_names.map((name) => accessChannelByName(stoa, user, name));
    for (const channel of channels) checkNotDefault(channel, params.group_name);
    checkGroupName(params.group_name);
    checkNameFree(stoa, params.group_name);
    createDefaultStreamGroup(stoa, params.group_name, params.description, channels.map((channel) => channel.id));
    return {};
  },
});

export const editDefaultStreamGroupView = endpoint<{ group_id: number; new_group_name?: string; new_description?: string }>({
  pathPatterns: GROUP_ID,
  params: {
    properties: { group_id: { type: 'integer' }, new_group_name: { type: 'string' }, new_description: { type: 'string' } },
    required: ['group_id'],
  },
  authorize: requireAdministrator,
  view: ({ stoa, params }) => {
    if (!params.new_group_name && !params.new_description) throw badRequest('You must pass "new_description" or "new_group_name".');
    const group = accessGroup(stoa, params.group_id);
    if (params.new_group_name !== undefined) {
      if (params.new_group_name === group.name) {
        throw badRequest(`This default channel group is already named '${params.new_group_name}'`);
      }
      checkNameFree(stoa, params.new_group_name);
      checkGroupName(params.new_group_name);
    }
    editDefaultStreamGroup(stoa, group, { name: params.new_group_name, description: params.new_description });
    return {};
  },
});

export const updateDefaultStreamGroupChannelsView = endpoint<{ group_id: number; op: string; stream_names: string[] }>({
  pathPatterns: GROUP_ID,
  params: {
    properties: { group_id: { type: 'integer' }, op: { type: 'string' }, stream_names: CHANNEL_NAMES },
    required: ['group_id', 'op', 'stream_names'],
  },
  authorize: requireAdministrator,
  view: ({ stoa, user, params }) => {
    const group = accessGroup(stoa, params.group_id);
    const channels = params.stream_names.map((name) => accessChannelByName(stoa, user, name));
    const present = new Set(stoa.defaultStreamGroups.channelIds(group.id));
    if (params.op === 'add') {
      for (const channel of channels) {
        checkNotDefault(channel, group.name);
        if (present.has(channel.id)) {
          throw badRequest(`Channel '${channel.name}' is already present in default channel group '${group.name}'`);
        }
        present.add(channel.id);
      }
      addChannelsToDefaultStreamGroup(stoa, group.id, channels.map((channel) => channel.id));
    } else if (params.op === 'remove') {
      for (const channel of channels) {
        if (!present.has(channel.id)) {
          throw badRequest(`Channel '${channel.name}' is not present in default channel group '${group.name}'`);
        }
      }
      removeChannelsFromDefaultStreamGroup(stoa, group.id, [...new Set(channels.map((channel) => channel.id))]);
    } else {
      throw badRequest('Invalid value for "op". Specify one of "add" or "remove".');
    }
    return {};
  },
});

export const removeDefaultStreamGroupView = endpoint<{ group_id: number }>({
  pathPatterns: GROUP_ID,
  params: { properties: { group_id: { type: 'integer' } }, required: ['group_id'] },
  authorize: requireAdministrator,
  view: ({ stoa, params }) => {
    removeDefaultStreamGroup(stoa, accessGroup(stoa, params.group_id).id);
    return {};
  },
});

/** Register state for fetch type `default_stream_groups`; guests get none, as on Zulip. */
export function defaultStreamGroupsState({ stoa, user }: StateContext): Record<string, unknown> {
  return { realm_default_stream_groups: user.role === Role.GUEST ? [] : presentDefaultStreamGroups(stoa) };
}

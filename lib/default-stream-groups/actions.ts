import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { Role } from '../users/queries';
import type { DefaultStreamGroupRow } from './queries';

/** A group as the API shows it: its channels by ID. */
export function presentDefaultStreamGroup(stoa: Stoa, group: DefaultStreamGroupRow): Record<string, unknown> {
  return { id: group.id, name: group.name, description: group.description, streams: stoa.defaultStreamGroups.channelIds(group.id) };
}

export function presentDefaultStreamGroups(stoa: Stoa): Array<Record<string, unknown>> {
  return stoa.defaultStreamGroups.all().map((group) => presentDefaultStreamGroup(stoa, group));
}

/** Every change sends the whole list again, to everyone but guests, as Zulip does. */
function announce(stoa: Stoa): void {
  const nonGuests = stoa.users.activeIds().filter((id) => stoa.users.byId(id)!.role !== Role.GUEST);
  sendEvent(stoa, { type: 'default_stream_groups', default_stream_groups: presentDefaultStreamGroups(stoa) }, nonGuests);
}

export function createDefaultStreamGroup(stoa: Stoa, name: string, description: string, channelIds: readonly number[]): number {
  return write(stoa, () => {
    const id = stoa.defaultStreamGroups.insert(name, description);
    for (const channelId of new Set(channelIds)) stoa.defaultStreamGroups.addChannel(id, channelId);
    announce(stoa);
    return id;
  });
}

/** Renames a group or changes its description; what is not given stays. */
export function editDefaultStreamGroup(stoa: Stoa, group: DefaultStreamGroupRow, changes: { name?: string; description?: string }): void {
  write(stoa, () => {
    stoa.defaultStreamGroups.update({ ...group, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) });
    announce(stoa);
  });
}

export function addChannelsToDefaultStreamGroup(stoa: Stoa, groupId: number, channelIds: readonly number[]): void {
  write(stoa, () => {
    for (const channelId of channelIds) stoa.defaultStreamGroups.addChannel(groupId, channelId);
    announce(stoa);
  });
}

export function removeChannelsFromDefaultStreamGroup(stoa: Stoa, groupId: number, channelIds: readonly number[]): void {
  write(stoa, () => {
    for (const channelId of channelIds) stoa.defaultStreamGroups.removeChannel(groupId, channelId);
    announce(stoa);
  });
}

export function removeDefaultStreamGroup(stoa: Stoa, groupId: number): void {
  write(stoa, () => {
    stoa.defaultStreamGroups.remove(groupId);
    announce(stoa);
  });
}

/** An archived channel leaves every group it was in, as on Zulip. Call inside `write`. */
export function dropArchivedChannelFromGroups(stoa: Stoa, channelId: number): void {
  if (stoa.defaultStreamGroups.groupsOfChannel(channelId).length === 0) return;
  stoa.defaultStreamGroups.removeChannelEverywhere(channelId);
  announce(stoa);
}

import { realm, session, userGroups, userName } from '../state';
import type { Channel, GroupSettingValue, UserGroup } from '../types';
import { realmSettings } from './state';

/** The channel's group settings as the settings screen shows them, in Zulip's sections. */
export const PERMISSION_SECTIONS: Array<{ title: string; hint?: string; settings: Array<{ name: string; label: string }> }> = [
  {
    title: 'Posting',
    settings: [
      { name: 'can_send_message_group', label: 'Who can post to the channel' },
      { name: 'can_create_topic_group', label: 'Who can start new topics' },
    ],
  },
  {
    title: 'Subscribers',
    settings: [
      { name: 'can_subscribe_group', label: 'Who can subscribe themselves' },
      { name: 'can_add_subscribers_group', label: 'Who can subscribe anyone' },
      { name: 'can_remove_subscribers_group', label: 'Who can unsubscribe anyone' },
    ],
  },
  {
    title: 'Administration',
    settings: [{ name: 'can_administer_channel_group', label: 'Who can administer the channel' }],
  },
  {
    title: 'Moderation',
    // As in Zulip, these add to what the organization's own settings allow everywhere.
    hint: 'Beyond those the organization’s settings already allow in every channel.',
    settings: [
      { name: 'can_move_messages_within_channel_group', label: 'Who can move messages between its topics' },
      { name: 'can_move_messages_out_of_channel_group', label: 'Who can move messages out of it' },
      { name: 'can_resolve_topics_group', label: 'Who can resolve topics' },
      { name: 'can_delete_any_message_group', label: 'Who can delete any message' },
      { name: 'can_delete_own_message_group', label: 'Who can delete their own messages' },
    ],
  },
];

/** Our names for Zulip's system groups, from the widest to the narrowest. */
const SYSTEM_GROUPS: Array<[string, string]> = [
  ['role:internet', 'Anyone on the internet'],
  ['role:everyone', 'Everyone, guests included'],
  ['role:members', 'Members'],
  ['role:fullmembers', 'Full members'],
  ['role:moderators', 'Moderators and administrators'],
  ['role:administrators', 'Administrators'],
  ['role:owners', 'Owners'],
  ['role:nobody', 'Nobody'],
];

/** What the server allows a channel setting to name (register's server_supported_permission_settings). */
interface PermissionRule {
  require_system_group?: boolean;
  allow_internet_group?: boolean;
  allow_nobody_group?: boolean;
  allow_everyone_group?: boolean;
  allowed_system_groups?: string[];
}

/** Whose setting it is: a channel's, a user group's, or the organization's ('realm', named without the realm_ prefix). */
type SettingOwner = 'stream' | 'group' | 'realm';

function ruleOf(setting: string, owner: SettingOwner): PermissionRule {
  const supported = realmSettings.value.server_supported_permission_settings as Partial<Record<SettingOwner, Record<string, PermissionRule>>> | undefined;
  return supported?.[owner]?.[setting] ?? {};
}

/** The groups a setting may be given: system groups as its rule allows, then the organization's own groups. */
export function groupChoices(setting: string, owner: SettingOwner = 'stream'): Array<{ id: number; label: string }> {
  const rule = ruleOf(setting, owner);
  const byName = new Map([...userGroups.value.values()].map((g) => [g.name, g]));
  const choices: Array<{ id: number; label: string }> = [];
  for (const [name, label] of SYSTEM_GROUPS) {
    const group = byName.get(name);
    if (!group) continue;
    if (name === 'role:internet' && !rule.allow_internet_group) continue;
    if (name === 'role:everyone' && rule.allow_everyone_group === false) continue;
    if (name === 'role:nobody' && rule.allow_nobody_group === false) continue;
    if (rule.allowed_system_groups?.length && !rule.allowed_system_groups.includes(name)) continue;
    choices.push({ id: group.id, label });
  }
  if (!rule.require_system_group) {
    const own = [...userGroups.value.values()].filter((g) => !g.is_system_group && !g.deactivated).sort((a, b) => a.name.localeCompare(b.name));
    for (const group of own) choices.push({ id: group.id, label: group.name });
  }
  return choices;
}

function groupLabel(group: UserGroup | undefined): string {
  if (!group) return 'Unknown group';
  return SYSTEM_GROUPS.find(([name]) => name === group.name)?.[1] ?? group.name;
}

/** A group-setting value in words: a group's name, or the people and groups named one by one. */
export function describeGroupSetting(value: GroupSettingValue | undefined): string {
  if (value === undefined) return 'Not set';
  if (typeof value === 'number') return groupLabel(userGroups.value.get(value));
  const names = [...value.direct_members.map(userName), ...value.direct_subgroups.map((id) => groupLabel(userGroups.value.get(id)))];
  return names.length ? names.join(', ') : 'Nobody';
}

/** May the person administer the channel: an organization administrator, or in its administering group. */
export function canAdminister(channel: Channel): boolean {
  return realm.value.isAdmin || holdsGroupSetting(channel.can_administer_channel_group);
}

/** Whether the person holds a realm-wide group setting (realm_can_...). */
export function holdsRealmSetting(name: string): boolean {
  return holdsGroupSetting(realmSettings.value[name] as GroupSettingValue | undefined);
}

/** May the person subscribe others to the channel, as the server decides. */
export function canAddSubscribers(channel: Channel): boolean {
  return canAdminister(channel) || holdsRealmSetting('realm_can_add_subscribers_group') || holdsGroupSetting(channel.can_add_subscribers_group);
}

/** May the person unsubscribe others from the channel (anyone may unsubscribe themselves). */
export function canRemoveSubscribers(channel: Channel): boolean {
  return canAdminister(channel) || holdsGroupSetting(channel.can_remove_subscribers_group);
}

/** Whether the organization and server allow web-public channels, and the person may make one. */
export function mayMakeWebPublic(): boolean {
  const settings = realmSettings.value;
  return Boolean(settings.server_web_public_streams_enabled) && Boolean(settings.realm_enable_spectator_access) && holdsRealmSetting('realm_can_create_web_public_channel_group');
}

/** Whether the person is in a group setting's value: a named group (with its subgroups) or an ad-hoc one. */
export function holdsGroupSetting(value: GroupSettingValue | undefined, userId = session.value?.user_id ?? 0): boolean {
  if (value === undefined) return false;
  if (typeof value === 'number') return inGroup(value, userId, new Set());
  return value.direct_members.includes(userId) || value.direct_subgroups.some((id) => inGroup(id, userId, new Set()));
}

function inGroup(groupId: number, userId: number, seen: Set<number>): boolean {
  if (seen.has(groupId)) return false;
  seen.add(groupId);
  const group = userGroups.value.get(groupId);
  if (!group) return false;
  return Boolean(group.members?.includes(userId)) || (group.direct_subgroup_ids ?? []).some((id) => inGroup(id, userId, seen));
}

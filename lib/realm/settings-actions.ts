import { unixSeconds } from '../clock';
import type { Event } from '../events/queues';
import { sendEvent, write } from '../events/send';
import { updateFullMembers } from '../groups/full-members';
import { groupForValue, groupSettingValue, type GroupSettingValue } from '../groups/settings';
import type { Stoa } from '../stoa';
import { markdownContextFor } from '../markdown/context';
import { renderMarkdown } from '../markdown/render';
import { announceUserAccessChanges, snapshotUserAccess } from '../users/access-events';
import { REALM_SETTINGS } from './settings';
import { realmSetting } from './settings-store';

// Kept apart from actions.ts, which creates the organization's first users: user actions
// call in here, and the two would otherwise load each other.

/** Checked changes to the organization; each entry differs from what is stored. */
export interface RealmChanges {
  settings: Array<{ key: string; value: unknown }>;
  groupSettings: Array<{ key: string; value: GroupSettingValue }>;
  name?: string;
  description?: string;
}

/** Settings Zulip announces in the update_dict shape for historical reasons. */
const ANNOUNCED_AS_DICT = new Set(['allow_message_editing', 'message_content_edit_limit_seconds']);

/** The realm event clients apply for a changed plain setting, named without the realm_ prefix. */
function settingEvent(property: string, value: unknown): Event {
  if (property === 'topics_policy') {
    // Clients that predate topics_policy keep their mandatory_topics switch in step.
    const data = { topics_policy: value, mandatory_topics: value === 'disable_empty_topic' };
    return { type: 'realm', op: 'update_dict', property: 'default', data };
  }
  if (ANNOUNCED_AS_DICT.has(property)) {
    return { type: 'realm', op: 'update_dict', property: 'default', data: { [property]: value } };
  }
  return { type: 'realm', op: 'update', property, value };
}

function groupSettingEvent(key: string, groupId: number, stoa: Stoa): Event {
  const data = { [key.replace(/^realm_/, '')]: groupSettingValue(stoa, groupId) };
  return { type: 'realm', op: 'update_dict', property: 'default', data };
}

/** Applies checked organization changes in one transaction; everyone in the organization hears of each. */
export function updateRealm(stoa: Stoa, changes: RealmChanges): void {
  write(stoa, () => {
    const everyone = stoa.users.activeIds();
    if (changes.name !== undefined) {
      stoa.realm.setName(changes.name);
      sendEvent(stoa, { type: 'realm', op: 'update', property: 'name', value: changes.name }, everyone);
    }
    if (changes.description !== undefined) {
      stoa.realm.setDescription(changes.description);
      // With its HTML, in the update_dict shape (level 464).
      const data = { description: changes.description, rendered_description: renderMarkdown(changes.description, markdownContextFor(stoa)).html };
      sendEvent(stoa, { type: 'realm', op: 'update_dict', property: 'default', data }, everyone);
    }
    for (const { key, value } of changes.settings) {
      stoa.realm.storeSetting(key, value);
      sendEvent(stoa, settingEvent(key.replace(/^realm_/, ''), value), everyone);
      if (key === 'realm_waiting_period_threshold') updateFullMembers(stoa);
    }
    const now = unixSeconds(stoa.clock);
    // Who guests may see follows can_access_all_users_group: when it changes, each guest hears
    // of the people appearing (realm_user add) or vanishing (remove) for them, after the setting.
    const changesAccess = changes.groupSettings.some(({ key }) => key === 'realm_can_access_all_users_group');
    const accessBefore = changesAccess ? snapshotUserAccess(stoa, undefined, true) : new Map();
    for (const { key, value } of changes.groupSettings) {
      const groupId = groupForValue(stoa, value, now);
      stoa.realm.storeSetting(key, groupId);
      sendEvent(stoa, groupSettingEvent(key, groupId, stoa), everyone);
    }
    announceUserAccessChanges(stoa, accessBefore);
  });
}

/**
 * Clients drop a deactivated user from every ad-hoc group; when the user comes back, each
 * organization setting whose ad-hoc group names them is sent again. Call inside `write`.
 */
export function announceReturningRealmSettingHolder(stoa: Stoa, userId: number): void {
  for (const def of REALM_SETTINGS) {
    if (!def.groupSetting) continue;
    const groupId = realmSetting(stoa, def.key) as number;
    const group = stoa.groups.byId(groupId)!;
    if (group.name !== null || !stoa.groups.directMemberIds(groupId).includes(userId)) continue;
    sendEvent(stoa, groupSettingEvent(def.key, groupId, stoa), stoa.users.activeIds());
  }
}

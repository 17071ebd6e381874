import { avatarUrlOf } from '../people/avatar-url';
import { useEffect, useState } from 'preact/hooks';
import { patch, post } from '../api';
import { GroupSettingField } from '../channels/GroupSettingField';
import { groupChoices, holdsGroupSetting, holdsRealmSetting } from '../channels/permissions';
import { Avatar } from '../people/Avatar';
import { realm, session, userGroups, userName, users } from '../state';
import type { GroupSettingValue, UserGroup } from '../types';
import { confirmAction } from '../ui/Confirm';
import { reportError, showNotice } from '../ui/Toasts';
import { view } from '../app/nav';
import { groupHash, parseGroupsAddress, type GroupTab } from './address';
import { PersonPicker } from '../people/PersonPicker';
import { addGroupStyles } from './styles';

addGroupStyles();

/** A group's permissions, in our words, in the order Zulip's group settings show them. */
const PERMISSIONS: Array<{ name: string; label: string }> = [
  { name: 'can_manage_group', label: 'Who can administer this group' },
  { name: 'can_mention_group', label: 'Who can mention this group' },
  { name: 'can_add_members_group', label: 'Who can add members' },
  { name: 'can_remove_members_group', label: 'Who can remove members' },
  { name: 'can_join_group', label: 'Who can join' },
  { name: 'can_leave_group', label: 'Who can leave' },
];

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/**
 * What the person may do with a group, as the server decides (it checks again). A deactivated
 * group can still be edited, as Zulip allows, until it is reactivated.
 */
function powersOver(group: UserGroup) {
  const holds = (setting: `can_${string}_group`) => !group.is_system_group && holdsGroupSetting(group[setting]);
  const manage = !group.is_system_group && (holdsRealmSetting('realm_can_manage_all_groups') || holds('can_manage_group'));
  const add = manage || holds('can_add_members_group');
  const remove = manage || holds('can_remove_members_group');
  return { manage, add, remove, join: add || holds('can_join_group'), leave: remove || holds('can_leave_group') };
}

/**
 * The organization's user groups: everyone sees them (and joins or leaves as each group
 * allows); those allowed create groups and change their name, description, members,
 * subgroups and permissions, or deactivate them. Changes by others arrive live.
 */
export function UserGroups() {
  // Opened by a `#groups/...` address (Zulip's), or by the older `#organization/user-groups-admin`.
  const current = view.value;
  const byAddress = current.kind === 'settings' ? current.groups : undefined;
  const address = parseGroupsAddress(byAddress);
  const addressKey = (byAddress ?? []).join('/');
  const [openId, setOpenId] = useState<number | null>(address.groupId ?? null);
  const [creating, setCreating] = useState(address.creating);
  const [showDeactivated, setShowDeactivated] = useState(false);
  const [filter, setFilter] = useState('');
  useEffect(() => {
    setOpenId(address.groupId ?? null);
    setCreating(address.creating);
  }, [addressKey]);
  const wanted = filter.trim().toLowerCase();
  const self = session.value?.user_id ?? 0;
  const all = [...userGroups.value.values()].filter((g) => !g.is_system_group).sort(byName);
  const shown = all.filter(
    (g) => (showDeactivated || !g.deactivated) && (!wanted || g.name.toLowerCase().includes(wanted)) && (address.list === 'all' || (g.members ?? []).includes(self)),
  );
  const open = openId === null ? undefined : userGroups.value.get(openId);
  // Under `#groups/...` the address follows what is open, so it can be shared and Back works.
  const choose = (group: UserGroup | undefined) => {
    if (byAddress === undefined) setOpenId(group?.id ?? null);
    else location.hash = group ? groupHash(group) : `#groups/${address.list}`;
  };
  return (
    <div class="groups-page">
      <nav class="groups-lists" aria-label="Which groups">
        <a href="#groups/your" aria-current={byAddress !== undefined && address.list === 'your' ? 'page' : undefined}>
          Your groups
        </a>
        <a href="#groups/all" aria-current={byAddress === undefined || address.list === 'all' ? 'page' : undefined}>
          All groups
        </a>
      </nav>
      <div class="groups-toolbar">
        {holdsRealmSetting('realm_can_create_groups') && (
          <button type="button" class="primary" aria-expanded={creating} onClick={() => setCreating(!creating)}>
            Create user group
          </button>
        )}
        <label class="groups-filter">
          Filter groups
          <input type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        </label>
        <label class="inline">
          <input type="checkbox" checked={showDeactivated} onChange={(e) => setShowDeactivated(e.currentTarget.checked)} />
          Show deactivated groups
        </label>
      </div>
      {creating && (
        <CreateGroup
          onDone={(id) => {
            setCreating(false);
            if (id !== undefined) choose(userGroups.value.get(id) ?? { id, name: '' } as UserGroup);
            else if (byAddress?.[0] === 'new') location.hash = '#groups/all';
          }}
        />
      )}
      <div class="groups-layout">
        <ul class="group-list" aria-label="User groups">
          {shown.length === 0 && <li class="hint">{wanted ? 'No groups match.' : address.list === 'your' ? 'You are in no groups yet.' : 'No groups yet.'}</li>}
          {shown.map((group) => (
            <li key={group.id}>
              <button type="button" class="group-row" aria-current={group.id === openId ? 'true' : undefined} onClick={() => choose(group.id === openId ? undefined : group)}>
                <strong>{group.name}</strong>
                <small>
                  {(group.members ?? []).length} {(group.members ?? []).length === 1 ? 'member' : 'members'}
                  {(group.members ?? []).includes(self) && ' · you are a member'}
                  {group.deactivated && ' · deactivated'}
                </small>
                {group.description && <small class="group-description">{group.description}</small>}
              </button>
            </li>
          ))}
        </ul>
        {open && !open.is_system_group && <GroupDetails key={open.id} group={open} tab={address.groupId === open.id ? address.tab : 'general'} />}
      </div>
    </div>
  );
}

/** The groups that may become subgroups of `group`: active, named, not itself. */
function subgroupCandidates(exclude: readonly number[]): UserGroup[] {
  return [...userGroups.value.values()].filter((g) => !g.is_system_group && !g.deactivated && !exclude.includes(g.id)).sort(byName);
}

function CreateGroup({ onDone }: { onDone: (id?: number) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const self = session.value?.user_id ?? 0;
  const [members, setMembers] = useState<number[]>([self]);
  const [subgroups, setSubgroups] = useState<number[]>([]);
  const [subgroupChoice, setSubgroupChoice] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      const answer = await post<{ group_id: number }>('/json/user_groups/create', { name: name.trim(), description, members, subgroups });
      showNotice(`${name.trim()} created.`);
      onDone(answer.group_id);
    } catch (err) {
      reportError(err);
    }
  };
  return (
    <form class="group-create" aria-label="New user group" onSubmit={submit}>
      <label>
        Name
        <input required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Description
        <textarea rows={2} maxLength={1024} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
      <PersonPicker label="Add a member" exclude={members} onPick={(u) => setMembers([...members, u.user_id])} />
      <ul class="chips" aria-label="Members of the new group">
        {members.map((id) => (
          <li key={id}>
            {userName(id)}
            <button type="button" aria-label={`Leave out ${userName(id)}`} onClick={() => setMembers(members.filter((m) => m !== id))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      {subgroupCandidates(subgroups).length > 0 && (
        <div class="picker">
          <label>
            Add a subgroup
            <select value={subgroupChoice} onChange={(e) => setSubgroupChoice(e.currentTarget.value)}>
              <option value="">Choose a group</option>
              {subgroupCandidates(subgroups).map((g) => (
                <option key={g.id} value={String(g.id)}>
                  {g.name}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            disabled={!subgroupChoice}
            onClick={() => {
              setSubgroups([...subgroups, Number(subgroupChoice)]);
              setSubgroupChoice('');
            }}
          >
            Add
          </button>
        </div>
      )}
      {subgroups.length > 0 && (
        <ul class="chips" aria-label="Subgroups of the new group">
          {subgroups.map((id) => (
            <li key={id}>
              {userGroups.value.get(id)?.name}
              <button type="button" aria-label={`Leave out ${userGroups.value.get(id)?.name}`} onClick={() => setSubgroups(subgroups.filter((s) => s !== id))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="form-buttons">
        <button type="button" onClick={() => onDone()}>
          Cancel
        </button>
        <button type="submit" class="primary">
          Create
        </button>
      </div>
    </form>
  );
}

function GroupDetails({ group, tab }: { group: UserGroup; tab: GroupTab }) {
  const powers = powersOver(group);
  // An address naming the members or permissions brings that part into view.
  useEffect(() => {
    if (tab !== 'general') document.getElementById(`group-${tab}-${group.id}`)?.scrollIntoView({ block: 'start' });
  }, [tab, group.id]);
  const self = session.value?.user_id ?? 0;
  const path = `/json/user_groups/${group.id}`;
  const [name, setName] = useState(group.name);
  const [description, setDescription] = useState(group.description);
  const [subgroupChoice, setSubgroupChoice] = useState('');
  const members = [...(group.members ?? [])].sort((a, b) => userName(a).localeCompare(userName(b)));
  const subgroups = group.direct_subgroup_ids ?? [];
  const isMember = members.includes(self);
  const changeMembers = (change: Record<string, number[]>) => post(`${path}/members`, change).catch(reportError);
  const changeSubgroups = (change: Record<string, number[]>) => post(`${path}/subgroups`, change).catch(reportError);
  const save = async (event: Event) => {
    event.preventDefault();
    const changes: Record<string, string> = {};
    if (name.trim() !== group.name) changes.name = name.trim();
    if (description !== group.description) changes.description = description;
    if (Object.keys(changes).length === 0) return;
    try {
      await patch(path, changes);
      showNotice('Group saved.');
    } catch (err) {
      reportError(err);
    }
  };
  const changeSetting = (setting: string, to: GroupSettingValue) =>
    patch(path, { [setting]: { new: to, old: group[setting as `can_${string}_group`] } }).catch(reportError);
  const deactivate = async () => {
    const yes = await confirmAction(`Deactivate ${group.name}?`, 'It can no longer be mentioned or given permissions. It can be reactivated later.', 'Deactivate');
    if (yes) await post(`${path}/deactivate`).catch(reportError);
  };
  return (
    <section class="group-details" aria-label={`Group ${group.name}`}>
      <h3>{group.name}</h3>
      {group.deactivated && <p class="archived-note">This group is deactivated.</p>}
      {powers.manage ? (
        <form onSubmit={save} aria-label="Name and description">
          <label>
            Group name
            <input required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label>
            Description
            <textarea rows={2} maxLength={1024} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
          </label>
          <button type="submit">Save name and description</button>
        </form>
      ) : (
        group.description && <p>{group.description}</p>
      )}
      <div class="group-self">
        {!isMember && powers.join && (
          <button type="button" class="primary" onClick={() => changeMembers({ add: [self] })}>
            Join group
          </button>
        )}
        {isMember && powers.leave && (
          <button type="button" onClick={() => changeMembers({ delete: [self] })}>
            Leave group
          </button>
        )}
      </div>
      <h4 id={`group-members-${group.id}`}>Members ({members.length})</h4>
      {powers.add && <PersonPicker label="Add a member" exclude={members} onPick={(u) => changeMembers({ add: [u.user_id] })} />}
      <ul class="group-members" aria-labelledby={`group-members-${group.id}`}>
        {members.length === 0 && <li class="hint">No members.</li>}
        {members.map((id) => (
          <li key={id}>
            <Avatar url={avatarUrlOf(users.value.get(id))} size={24} />
            <span>{userName(id)}</span>
            {powers.remove && (
              <button type="button" aria-label={`Remove ${userName(id)} from ${group.name}`} onClick={() => changeMembers({ delete: [id] })}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      <h4 id={`group-subgroups-${group.id}`}>Subgroups</h4>
      {powers.add && subgroupCandidates([...subgroups, group.id]).length > 0 && (
        <div class="picker">
          <label>
            Add a subgroup
            <select value={subgroupChoice} onChange={(e) => setSubgroupChoice(e.currentTarget.value)}>
              <option value="">Choose a group</option>
              {subgroupCandidates([...subgroups, group.id]).map((g) => (
                <option key={g.id} value={String(g.id)}>
                  {g.name}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            disabled={!subgroupChoice}
            onClick={() => {
              void changeSubgroups({ add: [Number(subgroupChoice)] });
              setSubgroupChoice('');
            }}
          >
            Add
          </button>
        </div>
      )}
      <ul class="group-members" aria-labelledby={`group-subgroups-${group.id}`}>
        {subgroups.length === 0 && <li class="hint">No subgroups.</li>}
        {subgroups.map((id) => (
          <li key={id}>
            <span>{userGroups.value.get(id)?.name ?? 'Unknown group'}</span>
            {powers.remove && (
              <button type="button" aria-label={`Remove subgroup ${userGroups.value.get(id)?.name} from ${group.name}`} onClick={() => changeSubgroups({ delete: [id] })}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      <fieldset class="permissions" id={`group-permissions-${group.id}`}>
        <legend>Permissions</legend>
        {PERMISSIONS.filter((p) => group[p.name as `can_${string}_group`] !== undefined).map((p) => (
          <GroupSettingField
            key={p.name}
            label={p.label}
            value={group[p.name as `can_${string}_group`]}
            choices={groupChoices(p.name, 'group')}
            editable={powers.manage}
            onChange={(to) => changeSetting(p.name, to)}
          />
        ))}
      </fieldset>
      {powers.manage && (
        <div class="group-state">
          {group.deactivated ? (
            <button type="button" class="primary" onClick={() => patch(path, { deactivated: false }).catch(reportError)}>
              Reactivate group
            </button>
          ) : (
            <button type="button" class="danger" onClick={deactivate}>
              Deactivate group
            </button>
          )}
        </div>
      )}
      {realm.value.isAdmin && group.creator_id && <p class="hint">Created by {userName(group.creator_id)}.</p>}
    </section>
  );
}

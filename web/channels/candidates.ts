import { userGroups, users } from '../state';

/** Someone, or a group, who may be made a subscriber: as written in the picker, and who it adds. */
export interface SubscriberCandidate {
  text: string;
  ids: number[];
}

/** The people of a group and of its subgroups. */
function groupMembers(groupId: number, seen = new Set<number>()): number[] {
  if (seen.has(groupId)) return [];
  seen.add(groupId);
  const group = userGroups.value.get(groupId);
  if (!group) return [];
  return [...(group.members ?? []), ...(group.direct_subgroup_ids ?? []).flatMap((id) => groupMembers(id, seen))];
}

/** Active people not in `excluded`, and the organization's own groups, offered by name; a group adds its members. */
export function subscriberCandidates(excluded: ReadonlySet<number>): SubscriberCandidate[] {
  const people = [...users.value.values()].filter((u) => u.is_active && !excluded.has(u.user_id));
  const groups = [...userGroups.value.values()].filter((g) => !g.is_system_group && !g.deactivated);
  return [
    ...people.map((u) => ({ text: `${u.full_name} <${u.email}>`, ids: [u.user_id] })),
    ...groups.map((g) => ({ text: `Group: ${g.name}`, ids: groupMembers(g.id) })),
  ];
}

/**
 * What was picked from the list, or typed far enough to name one person or group; undefined
 * if the text names no one or several.
 */
export function chosenCandidate(typed: string, candidates: SubscriberCandidate[]): SubscriberCandidate | undefined {
  const wanted = typed.trim().toLowerCase();
  if (!wanted) return undefined;
  const matches = candidates.filter((c) => c.text.toLowerCase().includes(wanted));
  return candidates.find((c) => c.text.toLowerCase() === wanted) ?? (matches.length === 1 ? matches[0] : undefined);
}

/** Of a candidate's people, those active and not in `excluded`, once each. */
export function newSubscribers(candidate: SubscriberCandidate, excluded: ReadonlySet<number>): number[] {
  return [...new Set(candidate.ids)].filter((userId) => users.value.get(userId)?.is_active && !excluded.has(userId));
}

import { pythonStr, truthy } from './payload';
import type { Integration } from './types';

/**
 * Taiga's project webhooks: what changed in an epic, user story, task, issue or sprint, one
 * line per change (sorted), in the topic of the item's sprint or "General".
 */

type Payload = any;
type Values = Record<string, string | null>;

/** The line each kind of change reads as, by item type and change; {user} is who made it. */
const TEMPLATES: Record<string, Record<string, string>> = {
  epic: {
    create: "created epic {subject}.",
    set_assigned_to: "assigned epic {subject} to {new}.",
    unset_assigned_to: "unassigned epic {subject}.",
    changed_assigned_to: "reassigned epic {subject} from {old} to {new}.",
    blocked: "blocked epic {subject}.",
    unblocked: "unblocked epic {subject}.",
    changed_status: "changed status of epic {subject} from {old} to {new}.",
    renamed: "renamed epic from **{old}** to **{new}**.",
    description_diff: "updated description of epic {subject}.",
    commented: "commented on epic {subject}.",
    delete: "deleted epic {subject}.",
  },
  relateduserstory: {
    create: "added a related user story {userstory_subject} to the epic {epic_subject}.",
    delete: "removed a related user story {userstory_subject} from the epic {epic_subject}.",
  },
  userstory: {
    create: "created user story {subject}.",
    set_assigned_to: "assigned user story {subject} to {new}.",
    unset_assigned_to: "unassigned user story {subject}.",
    changed_assigned_to: "reassigned user story {subject} from {old} to {new}.",
    points: "changed estimation of user story {subject}.",
    blocked: "blocked user story {subject}.",
    unblocked: "unblocked user story {subject}.",
    set_milestone: "added user story {subject} to sprint {new}.",
    unset_milestone: "removed user story {subject} from sprint {old}.",
    changed_milestone: "changed sprint of user story {subject} from {old} to {new}.",
    changed_status: "changed status of user story {subject} from {old} to {new}.",
    closed: "closed user story {subject}.",
    reopened: "reopened user story {subject}.",
    renamed: "renamed user story from {old} to **{new}**.",
    description_diff: "updated description of user story {subject}.",
    commented: "commented on user story {subject}.",
    delete: "deleted user story {subject}.",
    due_date: "changed due date of user story {subject} from {old} to {new}.",
    set_due_date: "set due date of user story {subject} to {new}.",
  },
  milestone: {
    create: "created sprint {subject}.",
    renamed: "renamed sprint from {old} to **{new}**.",
    estimated_start: "changed estimated start of sprint {subject} from {old} to {new}.",
    estimated_finish: "changed estimated finish of sprint {subject} from {old} to {new}.",
    set_estimated_start: "changed estimated start of sprint {subject} to {new}.",
    set_estimated_finish: "set estimated finish of sprint {subject} to {new}.",
    delete: "deleted sprint {subject}.",
  },
  task: {
    create: "created task {subject}.",
    set_assigned_to: "assigned task {subject} to {new}.",
    unset_assigned_to: "unassigned task {subject}.",
    changed_assigned_to: "reassigned task {subject} from {old} to {new}.",
    blocked: "blocked task {subject}.",
    unblocked: "unblocked task {subject}.",
    changed_status: "changed status of task {subject} from {old} to {new}.",
    renamed: "renamed task {old} to **{new}**.",
    description_diff: "updated description of task {subject}.",
    set_milestone: "added task {subject} to sprint {new}.",
    commented: "commented on task {subject}.",
    delete: "deleted task {subject}.",
    changed_us: "moved task {subject} from user story {old} to {new}.",
    due_date: "changed due date of task {subject} from {old} to {new}.",
    set_due_date: "set due date of task {subject} to {new}.",
  },
  issue: {
    create: "created issue {subject}.",
    set_assigned_to: "assigned issue {subject} to {new}.",
    unset_assigned_to: "unassigned issue {subject}.",
    changed_assigned_to: "reassigned issue {subject} from {old} to {new}.",
    set_milestone: "added issue {subject} to sprint {new}.",
    unset_milestone: "detached issue {subject} from sprint {old}.",
    changed_priority: "changed priority of issue {subject} from {old} to {new}.",
    changed_severity: "changed severity of issue {subject} from {old} to {new}.",
    changed_status: "changed status of issue {subject} from {old} to {new}.",
    changed_type: "changed type of issue {subject} from {old} to {new}.",
    renamed: "renamed issue {old} to **{new}**.",
    description_diff: "updated description of issue {subject}.",
    commented: "commented on issue {subject}.",
    delete: "deleted issue {subject}.",
    due_date: "changed due date of issue {subject} from {old} to {new}.",
    set_due_date: "set due date of issue {subject} to {new}.",
    blocked: "blocked issue {subject}.",
    unblocked: "unblocked issue {subject}.",
  },
  webhook_test: {
    test: "triggered a test of the Taiga integration.",
  },
};

/** One change: which template, with which values. */
interface Change {
  type: string;
  event: string;
  values: Values;
}

/** A linked or bold name of an item. */
function named(name: string, item: Payload): string {
  return 'permalink' in item ? `[${name}](${item.permalink})` : `**${name}**`;
}

const subject = (p: Payload) => named(truthy(p.data.subject) ? p.data.subject : p.data.name, p.data);
const text = (value: unknown) => (value === null || value === undefined ? null : String(value));

function fromTo(p: Payload, key: string): { old: string | null; now: string | null } {
  const diff = p.change.diff[key];
  return { old: text(diff.from), now: text(diff.to) };
}

/** One field's change, as a template's event and values, or null for a change not worth a line. */
function fieldChange(p: Payload, key: string): { event: string; values: Values } | null {
  if (key === 'description_diff' || key === 'points') return { event: key, values: {} };
  if (key === 'milestone' || key === 'assigned_to') {
    const { old, now } = fromTo(p, key);
    if (!old) return { event: `set_${key}`, values: { new: now } };
    if (!now) return { event: `unset_${key}`, values: { old } };
    return { event: `changed_${key}`, values: { old, new: now } };
  }
  if (key === 'is_blocked') return { event: p.change.diff.is_blocked.to ? 'blocked' : 'unblocked', values: {} };
  if (key === 'is_closed') return { event: p.change.diff.is_closed.to ? 'closed' : 'reopened', values: {} };
  if (key === 'user_story') {
    const { old, now } = fromTo(p, key);
    return { event: 'changed_us', values: { old, new: now } };
  }
  if (key === 'subject' || key === 'name') {
    const { old, now } = fromTo(p, key);
    return { event: 'renamed', values: { old, new: now } };
  }
  if (key === 'estimated_finish' || key === 'estimated_start' || key === 'due_date') {
    const { old, now } = fromTo(p, key);
    if (!old) return { event: `set_${key}`, values: { new: now } };
    if (old !== now) return { event: key, values: { old, new: now } };
    return null;
  }
  if (['priority', 'severity', 'type', 'status'].includes(key)) {
    const { old, now } = fromTo(p, key);
    return { event: `changed_${key}`, values: { old, new: now } };
  }
  return null;
}

function changes(p: Payload): Change[] {
  const by = { user: p.by.full_name, user_link: p.by.permalink };
  const action: string = p.action;
  const type: string = p.type;
  if (action === 'create' || action === 'delete') {
    if (type === 'relateduserstory') {
      const values = { ...by, epic_subject: named(p.data.epic.subject, p.data.epic), userstory_subject: named(p.data.user_story.subject, p.data.user_story) };
      return [{ type, event: action, values }];
    }
    return [{ type, event: action, values: { ...by, subject: subject(p) } }];
  }
  if (action === 'change') {
    const found: Change[] = [];
    for (const key of Object.keys(p.change.diff ?? {})) {
      const change = fieldChange(p, key);
      if (change) found.push({ type, event: change.event, values: { ...by, subject: subject(p), ...change.values } });
    }
    if (p.change.comment) found.push({ type, event: 'commented', values: { ...by, subject: subject(p) } });
    return found;
  }
  if (action === 'test') return [{ type: 'webhook_test', event: 'test', values: by }];
  return [];
}

function line(change: Change): string {
  const template = TEMPLATES[change.type]?.[change.event];
  if (template === undefined) throw new TypeError(`Taiga ${change.type} ${change.event}`);
  const filled = template.replace(/\{(\w+)\}/g, (_, key: string) => {
    if (!(key in change.values)) throw new TypeError(`Taiga ${change.type} ${change.event} without ${key}`);
    return pythonStr(change.values[key]);
  });
  return `[${change.values.user}](${change.values.user_link}) ${filled}`;
}

export const taiga: Integration = {
  name: 'taiga',
  displayName: 'Taiga',
  handle(request) {
    const p = request.json();
    const content = changes(p)
      .map((change) => `${line(change)}\n`)
      .sort()
      .join('');
    const sprint = p.data.milestone;
    const topic = truthy(sprint) && 'name' in sprint ? sprint.name : 'General';
    return { topic, content };
  },
};

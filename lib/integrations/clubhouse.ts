import { UnsupportedEvent } from './errors';
import { num, pythonStr, str } from './payload';
import type { Integration, WebhookMessage } from './types';

/**
 * Clubhouse (now Shortcut): stories, epics, tasks, comments, labels, attachments and GitHub
 * links, from the actions of each webhook, in a topic per story or epic.
 */

type Payload = any;
type Body = (p: Payload, action: Payload) => string | null;

const storyLink = (name: string, url: string | null) => `[${name}](${url === null ? 'None' : url})`;
const epicName = (name: string) => `**${name}**`;
const nameOf = (entity: string, action: Payload) =>
  entity === 'story' ? storyLink(str(action, 'name'), action.app_url ?? null) : epicName(str(action, 'name'));

/** The last item that passes the test, or undefined. */
function lastWhere(items: readonly Payload[], test: (item: Payload) => boolean): Payload | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return items[i];
  return undefined;
}

/** The reference (a state, epic, project, label or file the actions point to) with this ID, the last if several. */
function reference(p: Payload, id: unknown): Payload | undefined {
  return lastWhere(p.references, (ref) => ref.id === id);
}
const referenceName = (p: Payload, id: unknown): string | undefined => (reference(p, id) === undefined ? undefined : str(reference(p, id), 'name'));

/** The names of the references a change moves between (workflow states, projects), which must be listed. */
function changedNames(p: Payload, change: Payload, what: string): [before: string, now: string] {
  const now = referenceName(p, num(change, 'new'));
  const before = referenceName(p, num(change, 'old'));
  if (now === undefined || before === undefined) throw new TypeError(`a ${what} is not among the references`);
  return [before, now];
}

/** The action the webhook is about (the last with the payload's primary_id). */
function primaryAction(p: Payload): Payload {
  const action = lastWhere(p.actions, (a) => a.id === p.primary_id);
  if (action === undefined) throw new TypeError('no action with the primary_id');
  return action;
}

/** Which of an update's changes names it, in the order Clubhouse's changes are looked at. */
const CHANGE_SUFFIXES: ReadonlyArray<[field: string, suffix: string]> = [
  ['description', 'description'], ['state', 'state'], ['workflow_state_id', 'state'], ['name', 'name'], ['archived', 'archived'],
  ['complete', 'complete'], ['epic_id', 'epic'], ['estimate', 'estimate'], ['file_ids', 'attachment'], ['label_ids', 'label'],
  ['project_id', 'project'], ['story_type', 'type'], ['owner_ids', 'owner'],
];

function eventOf(p: Payload, action: Payload): string | null {
  const event = `${str(action, 'entity_type')}_${str(action, 'action')}`;
  // Several stories updated at once: no primary_id.
  if (event === 'story_update' && !('primary_id' in p)) return 'story_update_batch';
  if (event === 'story-comment_update') return null;
  if (!('changes' in action)) return event;
  const suffix = CHANGE_SUFFIXES.find(([field]) => field in action.changes)?.[1];
  return suffix === undefined ? event : `${event}_${suffix}`;
}

function storyCreated(p: Payload, action: Payload): string {
  const link = storyLink(str(action, 'name'), str(action, 'app_url'));
  if (!('epic_id' in action)) return `New story ${link} of type **${str(action, 'story_type')}** was created.`;
  const epic = referenceName(p, num(action, 'epic_id'));
  if (epic === undefined) throw new TypeError('the story\'s epic is not among the references');
  return `New story ${link} was created and added to the epic **${epic}**.`;
}

function commentAdded(entity: string): Body {
  return (p) => {
    let text: string | undefined;
    let target: string | undefined;
    for (const action of p.actions as Payload[]) {
      if (action.id === p.primary_id) text = str(action, 'text');
      else if (action.entity_type === entity) target = nameOf(entity, action);
    }
    return `New comment added to the ${entity} ${target}:\n\`\`\` quote\n${text}\n\`\`\``;
  };
}

function descriptionUpdated(entity: string): Body {
  return (_p, action) => {
    const change = action.changes.description;
    const [now, before] = [str(change, 'new'), str(change, 'old')];
    const name = nameOf(entity, action);
    if (now && before) return `Description for the ${entity} ${name} was changed from:\n\`\`\` quote\n${before}\n\`\`\`\nto\n\`\`\` quote\n${now}\n\`\`\``;
    if (now) return `New description added to the ${entity} ${name}:\n\`\`\` quote\n${now}\n\`\`\``;
    return `Description for the ${entity} ${name} was removed.`;
  };
}

const stateChanged = (entity: string, name: string, before: unknown, now: unknown) =>
  `State of the ${entity} ${name} was changed from **${pythonStr(before)}** to **${pythonStr(now)}**.`;

function storyStateUpdated(p: Payload, action: Payload): string {
  const [before, now] = changedNames(p, action.changes.workflow_state_id, 'workflow state');
  return stateChanged('story', nameOf('story', action), before, now);
}

function nameUpdated(entity: string): Body {
  return (_p, action) => {
    const change = action.changes.name;
    return `The name of the ${entity} ${nameOf(entity, action)} was changed from:\n\`\`\` quote\n${str(change, 'old')}\n\`\`\`\nto\n\`\`\` quote\n${str(change, 'new')}\n\`\`\``;
  };
}

function archivedUpdated(entity: string): Body {
  return (_p, action) => `The ${entity} ${nameOf(entity, action)} was ${action.changes.archived.new ? 'archived' : 'unarchived'}.`;
}

function taskChanged(operation: string): Body {
  return (p, action) => {
    const story = lastWhere(p.actions, (a) => str(a, 'entity_type') === 'story');
    if (story === undefined) throw new TypeError('a task without its story');
    const name = storyLink(str(story, 'name'), str(story, 'app_url'));
    return `Task **${str(action, 'description')}** was ${operation} the story ${name}.`;
  };
}

function taskCompleted(p: Payload, action: Payload): string | null {
  const story = reference(p, num(action, 'story_id'));
  if (action.changes.complete.new !== true) return null;
  if (story === undefined) throw new TypeError('a task without its story');
  const name = storyLink(str(story, 'name'), str(story, 'app_url'));
  return `Task **${str(action, 'description')}** (${name}) was completed. :tada:`;
}

function epicUpdated(p: Payload, action: Payload): string {
  const story = storyLink(str(action, 'name'), str(action, 'app_url'));
  const change = action.changes.epic_id;
  const [now, before] = [change.new ?? null, change.old ?? null];
  const nowName = referenceName(p, now);
  const beforeName = referenceName(p, before);
  const epic = (name: string | undefined) => {
    if (name === undefined) throw new TypeError('an epic is not among the references');
    return epicName(name);
  };
  if (now && before) return `The story ${story} was moved from ${epic(beforeName)} to ${epic(nowName)}.`;
  if (now) return `The story ${story} was added to the epic ${epic(nowName)}.`;
  return `The story ${story} was removed from the epic ${epic(beforeName)}.`;
}

function estimateUpdated(_p: Payload, action: Payload): string {
  const change = action.changes.estimate;
  const estimate = 'new' in change ? `${num(change, 'new')} points` : '*Unestimated*';
  return `The estimate for the story ${storyLink(str(action, 'name'), str(action, 'app_url'))} was set to ${estimate}.`;
}

/** The pull request, comment or branch linked to a story, with the story's state change when there is one. */
function githubLinked(entity: 'pull-request' | 'pull-request-comment' | 'branch'): Body {
  return (p, action) => {
    const linked = primaryAction(p);
    const story = storyLink(str(action, 'name'), str(action, 'app_url'));
    const name = entity === 'branch' ? str(linked, 'name') : num(linked, 'number');
    const url = str(linked, 'url');
    let state = '';
    if ('workflow_state_id' in action.changes) {
      const [before, now] = changedNames(p, action.changes.workflow_state_id, 'workflow state');
      state = ` (${before} -> ${now})`;
    }
    if (entity === 'pull-request') return `New GitHub PR [#${name}](${url}) opened for story ${story}${state}.`;
    if (entity === 'pull-request-comment') return `Existing GitHub PR [#${name}](${url}) associated with story ${story}${state}.`;
    return `New GitHub branch [${name}](${url}) associated with story ${story}${state}.`;
  };
}

function attachmentAdded(p: Payload, action: Payload): string | null {
  const story = storyLink(str(action, 'name'), str(action, 'app_url'));
  const files = action.changes.file_ids;
  // An attachment removed is not reported.
  if (!('adds' in files)) return null;
  const file = reference(p, num(files.adds, '0'));
  if (file === undefined) throw new TypeError('an attachment that is not among the references');
  return `A ${str(file, 'entity_type')} attachment \`${str(file, 'name')}\` was added to the story ${story}.`;
}

/** "**a**, **b**": labels by the name their action or reference gives them. */
function labelNames(p: Payload, ids: readonly number[]): string {
  return ids
    .map((id) => {
      const action = lastWhere(p.actions, (a) => num(a, 'id') === id);
      let name = action === undefined ? '' : action.name ?? '';
      if (name === '') name = referenceName(p, id) ?? '';
      return `**${name}**`;
    })
    .join(', ');
}

function labelAdded(p: Payload, action: Payload): string | null {
  const story = storyLink(str(action, 'name'), str(action, 'app_url'));
  const labels = action.changes.label_ids;
  if (!('adds' in labels)) return null;
  const added: number[] = labels.adds;
  return added.length === 1
    ? `The label ${labelNames(p, added)} was added to the story ${story}.`
    : `The labels ${labelNames(p, added)} were added to the story ${story}.`;
}

function projectUpdated(p: Payload, action: Payload): string {
  const story = storyLink(str(action, 'name'), str(action, 'app_url'));
  const [before, now] = changedNames(p, action.changes.project_id, 'project');
  return `The story ${story} was moved from the **${before}** project to **${now}**.`;
}

function typeUpdated(_p: Payload, action: Payload): string {
  const change = action.changes.story_type;
  return `The type of the story ${storyLink(str(action, 'name'), str(action, 'app_url'))} was changed from **${str(change, 'old')}** to **${str(change, 'new')}**.`;
}

/**
 * Several stories changed at once, several attributes each: one sentence per story, or the
 * single-change message when only one attribute (or only the state) changed.
 */
function batchUpdated(p: Payload, action: Payload): string | null {
  const changes = action.changes;
  const story = storyLink(str(action, 'name'), str(action, 'app_url'));
  const parts: string[] = [];
  let last = 'other';
  const movedFrom = (entity: string, change: Payload) =>
    `${entity} **${pythonStr(referenceName(p, change.old ?? null) ?? null)}** to **${pythonStr(referenceName(p, change.new ?? null) ?? null)}**`;
  const moves: string[] = [];
  if ('epic_id' in changes) {
    last = 'epic';
    moves.push(movedFrom('Epic', changes.epic_id));
  }
  if ('project_id' in changes) {
    last = 'project';
    moves.push(movedFrom('Project', changes.project_id));
  }
  if (moves.length > 0) parts.push(`was moved from ${moves.join(', ')}`);
  if ('story_type' in changes) {
    last = 'type';
    const change = changes.story_type;
    parts.push(`${parts.length === 0 ? 'was' : 'and'} changed from type **${pythonStr(change.old ?? null)}** to **${pythonStr(change.new ?? null)}**`);
  }
  if ('label_ids' in changes && 'adds' in changes.label_ids) {
    last = 'label';
    // Plural when the change lists both added and removed labels, as Zulip counts them.
    const plural = Object.keys(changes.label_ids).length > 1 ? 's' : '';
    parts.push(`${parts.length === 0 ? 'was' : 'and'} added with the new label${plural} ${labelNames(p, changes.label_ids.adds)}`);
  }
  let state = '';
  if ('workflow_state_id' in changes) {
    last = 'state';
    const change = changes.workflow_state_id;
    state = ` (${pythonStr(referenceName(p, change.old ?? null) ?? null)} -> ${pythonStr(referenceName(p, change.new ?? null) ?? null)})`;
  }
  if (parts.length <= 1) {
    const single = BODIES[`story_update_${last}`];
    return single === undefined ? null : single(p, action);
  }
  return `The story ${story} ${parts.join(', ')}${state}.`;
}

const deleted: Body = (_p, action) => `The ${str(action, 'entity_type')} **${str(action, 'name')}** was deleted.`;

const BODIES: Record<string, Body> = {
  story_update_archived: archivedUpdated('story'),
  epic_update_archived: archivedUpdated('epic'),
  story_create: storyCreated,
  'pull-request_create': githubLinked('pull-request'),
  'pull-request_comment': githubLinked('pull-request-comment'),
  branch_create: githubLinked('branch'),
  story_delete: deleted,
  epic_delete: deleted,
  'story-task_create': taskChanged('added to'),
  'story-task_delete': taskChanged('removed from'),
  'story-task_update_complete': taskCompleted,
  story_update_epic: epicUpdated,
  story_update_estimate: estimateUpdated,
  story_update_attachment: attachmentAdded,
  story_update_label: labelAdded,
  story_update_owner: (_p, action) => `New owner added to the story ${storyLink(str(action, 'name'), str(action, 'app_url'))}.`,
  story_update_project: projectUpdated,
  story_update_type: typeUpdated,
  epic_create: (_p, action) => `New epic **${str(action, 'name')}**(${str(action, 'state')}) was created.`,
  'epic-comment_create': commentAdded('epic'),
  'story-comment_create': commentAdded('story'),
  epic_update_description: descriptionUpdated('epic'),
  story_update_description: descriptionUpdated('story'),
  epic_update_state: (_p, action) => stateChanged('epic', epicName(str(action, 'name')), str(action.changes.state, 'old'), str(action.changes.state, 'new')),
  story_update_state: storyStateUpdated,
  epic_update_name: nameUpdated('epic'),
  story_update_name: nameUpdated('story'),
  story_update_batch: batchUpdated,
};

/** The topic of an action: the name of its story or epic, from the action, another action or a reference. */
const TOPIC_ENTITIES: Record<string, string> = {
  story: 'story', 'pull-request': 'story', branch: 'story', 'story-comment': 'story', 'story-task': 'story', epic: 'epic', 'epic-comment': 'epic',
};

function topicOf(p: Payload, action: Payload, entity: string): string | undefined {
  let name: string | undefined = 'name' in action ? str(action, 'name') : undefined;
  if (name === undefined || action.entity_type === 'branch') {
    const other = lastWhere(p.actions, (a) => str(a, 'entity_type') === entity);
    if (other !== undefined) name = str(other, 'name');
  }
  if (name === undefined) {
    const ref = lastWhere(p.references, (r) => str(r, 'entity_type') === entity);
    if (ref !== undefined) name = str(ref, 'name');
  }
  return name;
}

/** Events whose action only links a story: the message is about each story the link changed. */
const LINKED_STORIES: Record<string, string> = {
  'pull-request_create': 'pull_request_ids',
  branch_create: 'branch_ids',
  'pull-request_comment': 'pull_request_ids',
};

function messageFor(p: Payload, action: Payload, event: string): WebhookMessage | null {
  const body = BODIES[event];
  const entity = TOPIC_ENTITIES[str(action, 'entity_type')];
  if (!Object.hasOwn(BODIES, event) || entity === undefined) throw new UnsupportedEvent(event);
  const topic = topicOf(p, action, entity);
  const content = body(p, action);
  return topic && content ? { topic, content, event } : null;
}

export const clubhouse: Integration = {
  name: 'clubhouse',
  displayName: 'Clubhouse',
  eventTypes: Object.keys(BODIES),
  handle(request) {
    // Clubhouse sometimes posts a body of JSON null: nothing to say.
    const p = request.json();
    if (p === null) return null;
    const actions: Payload[] = 'primary_id' in p ? [primaryAction(p)] : p.actions;
    const messages: WebhookMessage[] = [];
    for (const action of actions) {
      const event = eventOf(p, action);
      if (event === null) continue;
      const targets = Object.hasOwn(LINKED_STORIES, event)
        ? (p.actions as Payload[]).filter((a) => str(a, 'entity_type') === 'story' && LINKED_STORIES[event] in a.changes)
        : [action];
      for (const target of targets) {
        const message = messageFor(p, target, event);
        if (message) messages.push(message);
      }
    }
    return messages;
  },
};

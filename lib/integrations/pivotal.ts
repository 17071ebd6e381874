import { badRequest } from '../http/errors';
import { UnsupportedEvent } from './errors';
import { pythonStr } from './payload';
import type { Integration, WebhookMessage } from './types';

/**
 * Pivotal Tracker's activity: API v3 posts XML, v5 posts JSON (whatever the content type).
 * A body that is not v3's XML is read as v5's JSON.
 */

type Payload = any;

/** An XML element as Python's ElementTree sees it: `text` is what precedes its first child, or null. */
interface XmlElement {
  name: string;
  text: string | null;
  children: XmlElement[];
}

/** The document's root element, or undefined when the text is not well-formed enough to have one. */
function parseXml(text: string): XmlElement | undefined {
  const root: XmlElement = { name: '', text: null, children: [] };
  const stack = [root];
  let broken = false;
  // Loaded on first use: a start that receives no such webhook needs no HTML parser.
  const { Parser } = require('htmlparser2') as typeof import('htmlparser2');
  const parser = new Parser(
    {
      onopentag(name) {
        const element: XmlElement = { name, text: null, children: [] };
        stack.at(-1)!.children.push(element);
        stack.push(element);
      },
      ontext(data) {
        const current = stack.at(-1)!;
        if (current.children.length === 0) current.text = (current.text ?? '') + data;
      },
      onclosetag(name) {
        if (stack.at(-1)?.name !== name) broken = true;
        stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(text);
  parser.end();
  const elements = root.children;
  return broken || stack.length !== 1 || elements.length !== 1 ? undefined : elements[0];
}

/** Thrown where Zulip's v3 reading fails, so that the body is read as v5. */
class NotV3 extends Error {}

/** The text of the element at `path` below `element`: "" when one is missing. */
function textAt(element: XmlElement, path: readonly string[]): string {
  let current = element;
  for (const name of path) {
    const child = current.children.find((c) => c.name === name);
    if (!child) return '';
    current = child;
  }
  if (current.text === null) throw new NotV3();
  return current.text;
}

function v3(root: XmlElement): WebhookMessage {
  const child = (name: string) => {
    const found = root.children.find((c) => c.name === name);
    if (!found || found.text === null) throw new NotV3();
    return found.text;
  };
  const eventType = child('event_type');
  const description = child('description');
  const url = `https://www.pivotaltracker.com/s/projects/${child('project_id')}/stories/${textAt(root, ['stories', 'story', 'id'])}`;
  // Pivotal does not name the story, but the description quotes it first.
  const name = /^[^"]+"([^"]+)"/.exec(description)?.[1] ?? 'Story changed';
  const view = ` [(view)](${url}).`;
  const event = `${eventType}_v3`;
  if (eventType === 'story_update') return { topic: name, content: description + view, event };
  if (eventType === 'note_create') return { topic: 'Comment added', content: description + view, event };
  if (eventType !== 'story_create') throw new NotV3();
  const story = (field: string) => textAt(root, ['stories', 'story', field]);
  const estimate = story('estimate');
  const worth = estimate !== '' ? ` worth ${estimate} story points` : '';
  const content = `${description} (${story('current_state')} ${story('story_type')}${worth}):\n\n~~~ quote\n${story('description')}\n~~~\n\n${view}`;
  return { topic: name, content, event };
}

/** v5 kinds Pivotal sends that Zulip knows and does not report (they end in Zulip's "Unable to handle"). */
const V5_UNREPORTED = new Set([
  'task_create_activity', 'comment_delete_activity', 'task_delete_activity', 'task_update_activity', 'story_move_from_project_activity',
  'story_delete_activity', 'story_move_into_project_activity', 'epic_update_activity', 'label_create_activity',
]);

const commentOf = (change: Payload): string | undefined => (change.kind === 'comment' ? change.new_values?.text ?? undefined : undefined);
const hasBoth = (change: Payload, key: string) => key in (change.original_values ?? {}) && key in change.new_values;

function updated(change: Payload): string {
  const before = change.original_values ?? {};
  const after = change.new_values;
  let lines = '';
  if (hasBoth(change, 'current_state')) lines += `* state changed from **${pythonStr(before.current_state)}** to **${pythonStr(after.current_state)}**\n`;
  if (hasBoth(change, 'estimate')) {
    const estimate = before.estimate === null || before.estimate === undefined ? 'is now' : `changed from ${pythonStr(before.estimate)} to`;
    lines += `* estimate ${estimate} **${after.estimate !== null ? pythonStr(after.estimate) : '0'} points**\n`;
  }
  if (hasBoth(change, 'story_type')) lines += `* type changed from **${pythonStr(before.story_type)}** to **${pythonStr(after.story_type)}**\n`;
  const comment = commentOf(change);
  if (comment !== undefined) lines += `* Comment added:\n~~~quote\n${comment}\n~~~\n`;
  return lines;
}

function v5(p: Payload): WebhookMessage {
  const kind: string = p.kind;
  const project = p.project;
  const story = p.primary_resources[0];
  const by = (p.performed_by ?? {}).name ?? '';
  const info = `[${project.name}](https://www.pivotaltracker.com/s/projects/${project.id}): [${story.name}](${story.url})`;
  const changes: Payload[] = p.changes ?? [];
  let content = '';
  if (kind === 'story_update_activity') content = `${by} updated ${info}:\n${changes.map(updated).join('')}`;
  else if (kind === 'comment_create_activity') {
    for (const change of changes) {
      const comment = commentOf(change);
      if (comment !== undefined) content += `${by} added a comment to ${info}:\n~~~quote\n${comment}\n~~~`;
    }
  } else if (kind === 'story_create_activity') {
    content = `${by} created ${pythonStr(story.story_type)}: ${info}\n`;
    for (const change of changes) {
      const after = change.new_values ?? {};
      if ('current_state' in after) content += `* State is **${after.current_state}**\n`;
      if ('description' in after) content += `* Description is\n\n> ${after.description}`;
    }
  } else if (kind === 'story_move_activity') {
    content = `${by} moved ${info}`;
    for (const change of changes) {
      if (hasBoth(change, 'current_state')) content += ` from **${change.original_values.current_state}** to **${change.new_values.current_state}**.`;
    }
  } else if (!V5_UNREPORTED.has(kind)) throw new UnsupportedEvent(kind);
  return { topic: `#${story.id}: ${story.name}`, content, event: `${kind}_v5` };
}

export const pivotal: Integration = {
  name: 'pivotal',
  displayName: 'Pivotal',
  menuName: 'Pivotal Tracker',
  eventTypes: [
    'story_update_v3', 'note_create_v3', 'story_create_v3',
    'story_move_activity_v5', 'story_create_activity_v5', 'story_update_activity_v5', 'comment_create_activity_v5',
  ],
  handle(request) {
    let message: WebhookMessage | undefined;
    const root = parseXml(request.raw);
    if (root) {
      try {
        message = v3(root);
      } catch (err) {
        if (!(err instanceof NotV3)) throw err;
      }
    }
    message ??= v5(request.json());
    if (!message.content) throw badRequest('Unable to handle Pivotal payload');
    return message;
  },
};

import { UnsupportedEvent } from './errors';
import { endsWithPunctuation } from './git';
import type { Integration } from './types';

/** Basecamp 3's project webhooks: documents, questions and answers, messages, comments, to-do lists and to-dos. */


const SUPPORTED = new Set([
  'document_active',
  'document_created',
  'document_archived',
  'document_unarchived',
  'document_publicized',
  'document_title_changed',
  'document_content_changed',
  'document_trashed',
  'question_archived',
  'question_created',
  'question_trashed',
  'question_unarchived',
  'question_answer_archived',
  'question_answer_content_changed',
  'question_answer_created',
  'question_answer_trashed',
  'question_answer_unarchived',
  'message_archived',
  'message_content_changed',
  'message_created',
  'message_subject_changed',
  'message_trashed',
  'message_unarchived',
  'comment_created',
  'todolist_created',
  'todolist_description_changed',
  'todolist_name_changed',
  'todo_assignment_changed',
  'todo_completed',
  'todo_uncompleted',
  'todo_created',
  'todo_due_on_changed',
]);

/** The kinds of recording, by the prefix of their events (longest first), and how a message names one. */
const KINDS: Array<[prefix: string, event: string, noun: string]> = [
  ['document_', 'document', 'the document'],
  ['question_answer_', 'question_answer', ''],
  ['question_', 'question', 'the question'],
  ['message_', 'message', 'the message'],
  ['todolist_', 'todolist', 'the todo list'],
  ['todo_', 'todo', 'the todo task'],
  ['comment_', 'comment', ''],
];

/** "created", "activated", "changed title of" ... */
function verb(kind: string, prefix: string): string {
  const rest = kind.replace(prefix, '');
  if (rest === 'active') return 'activated';
  const changed = /^([A-z]*)_changed/.exec(rest);
  return changed ? `changed ${changed[1]} of` : rest;
}

const withPeriod = (text: string, title: string) => (endsWithPunctuation(title) ? text : `${text}.`);

export const basecamp: Integration = {
  name: 'basecamp',
  displayName: 'Basecamp',
  handle(request) {
    const p = request.json();
    const kind: string = p.kind;
    const found = KINDS.find(([prefix]) => kind.startsWith(prefix));
    if (!SUPPORTED.has(kind) || !found) throw new UnsupportedEvent(kind);
    const [prefix, event, noun] = found;
    const user: string = p.creator.name;
    const recording = p.recording;
    const action = verb(kind, prefix);
    let content: string;
    if (event === 'question_answer' || event === 'comment') {
      const parent = recording.parent;
      const what = event === 'comment' ? `[comment](${recording.app_url}) of the task` : `[answer](${recording.app_url}) of the question`;
      content = withPeriod(`${user} ${action} the ${what} [${parent.title}](${parent.app_url})`, parent.title);
    } else {
      content = withPeriod(`${user} ${action} ${noun} [${recording.title}](${recording.app_url})`, recording.title);
    }
    return { topic: recording.bucket.name, content, event };
  },
};

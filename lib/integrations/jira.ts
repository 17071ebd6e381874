import { anomalousPayload, UnsupportedEvent } from './errors';
import { endsWithPunctuation } from './git';
import { truthy } from './payload';
import type { Integration, WebhookRequest } from './types';

/** Jira's issue and comment webhooks, in a topic per issue ("BUG-12: Title"). */

type Payload = any;
type People = WebhookRequest['people'];

/** Events Jira sends that say nothing worth a message. */
const IGNORED_EVENTS = new Set([
  'attachment_created',
  'issuelink_created',
  'issuelink_deleted',
  'jira:version_released',
  'jira:worklog_updated',
  'sprint_closed',
  'sprint_started',
  'worklog_created',
  'worklog_updated',
]);

/** A value deep in the payload, or `fallback` where the path breaks off. */
function dig(p: Payload, keys: readonly string[], fallback = ''): any {
  let value = p;
  for (const key of keys) {
    if (value === null || typeof value !== 'object' || !(key in value)) return fallback;
    value = value[key];
  }
  return value;
}

/** Jira's wiki markup in Zulip's Markdown, as far as simple rewriting goes. */
function jiraToMarkdown(text: string, people: People): string {
  let content = text
    .replace(/\*([^*]+)\*/g, '**$1**')
    .replace(/\{\{([^*]+?)\}\}/g, '`$1`')
    .replace(/bq\. (.*)/g, '> $1')
    .replace(/\{quote\}([\s\S]*?)\{quote\}/g, '~~~ quote\n$1\n~~~')
    .replace(/\{noformat\}([\s\S]*?)\{noformat\}/g, '~~~\n$1\n~~~')
    .replace(/\{code[^\n]*\}([\s\S]*?)\{code\}/g, '~~~\n$1\n~~~')
    .replace(/\[([^|~]+?)\]/g, '[$1]($1)')
    .replace(/\[(?:([^|~]+)\|)([^\]]*)\]/g, '[$1]($2)');
  // [~username] mentions: the person of that name or email where there is one.
  for (const [, username] of [...content.matchAll(/\[~(.*?)\]/g)]) {
    const person = people.guess(username);
    content = content.replaceAll(`[~${username}]`, `**${person ? person.full_name : username}**`);
  }
  return content;
}

function issueId(p: Payload): string {
  // Some old Jira versions send comments without their issue: its internal number is in the comment's URL.
  if (!('issue' in p)) return String(p.comment.self).split('/').at(-3)!;
  return dig(p, ['issue', 'key']);
}

function issueTitle(p: Payload): string {
  return 'issue' in p ? dig(p, ['issue', 'fields', 'summary']) : 'Upgrade Jira to get the issue title here.';
}

/** The issue as a link to its /browse page, which Jira's REST URL of the issue leads to. */
function issueLink(p: Payload, id = issueId(p), withTitle = false): string {
  const text = withTitle ? `${id}: ${issueTitle(p)}` : id;
  const base = /(.*)\/rest\/api\/.*/.exec(String(dig(p, ['issue', 'self'])));
  return base ? `[${text}](${base[1]}/browse/${id})` : text;
}

const author = (p: Payload): string => dig(p, ['user', 'displayName']);

function changeLine(field: string | null, from: string | null, to: string | null): string {
  let line = `* Changed ${field}`;
  if (from) line += ` from **${from}**`;
  if (to) line += ` to ${to}\n`;
  return line;
}

function updated(p: Payload, people: People): string {
  const id: string = dig(p, ['issue', 'key']);
  const issue = issueLink(p, id, true);
  const assigneeEmail: string = dig(p, ['issue', 'fields', 'assignee', 'emailAddress'], '');
  const assignee = assigneeEmail === '' ? '' : `**${people.byEmail(assigneeEmail)?.full_name ?? assigneeEmail}**`;
  const assigned = assignee === '' ? '' : ` (assigned to ${assignee})`;
  let subEvent: string = p.issue_event_type_name ?? '';
  if (subEvent === '') {
    if (truthy(p.comment)) subEvent = 'issue_commented';
    else if (truthy(p.transition)) subEvent = 'issue_transited';
  }
  if (subEvent.includes('comment')) {
    const verb =
      subEvent === 'issue_commented' ? 'commented on' : subEvent === 'issue_comment_edited' ? 'edited a comment on' : 'deleted a comment from';
    const who = p.webhookEvent === 'comment_created' ? p.comment.author.displayName : author(p);
    const comment: string = dig(p, ['comment', 'body']);
    const line = `${who} ${verb} ${issue}${assigned}`;
    return comment ? `${line}:\n\n\`\`\` quote\n${jiraToMarkdown(comment, people)}\n\`\`\`` : `${line}.`;
  }
  let content = `${author(p)} updated ${issue}${assigned}:\n\n`;
  if (truthy(p.changelog)) {
    for (const item of p.changelog.items ?? []) {
      const field = item.field ?? null;
      const to = field === 'assignee' && assignee !== '' ? assignee : `**${item.toString ?? 'None'}**`;
      const from = item.fromString ?? null;
      if (to || from) content += changeLine(field, from, to);
    }
  } else if (subEvent === 'issue_transited') {
    content += changeLine('status', dig(p, ['transition', 'from_status']), `**${dig(p, ['transition', 'to_status'])}**`);
  }
  return content;
}

/** Jira escapes "!" in comment bodies twice. */
const commentBody = (p: Payload) => String(p.comment.body).replaceAll('\\!', '!');

const BODIES: Record<string, (p: Payload, people: People) => string> = {
  'jira:issue_created': (p) =>
    `${author(p)} created ${issueLink(p, undefined, true)}:\n\n* **Priority**: ${dig(p, ['issue', 'fields', 'priority', 'name'])}\n* **Assignee**: ${dig(p, ['issue', 'fields', 'assignee', 'displayName'], 'no one')}`,
  'jira:issue_deleted': (p) => `${author(p)} deleted ${issueLink(p, undefined, true)}${endsWithPunctuation(issueTitle(p)) ? '' : '.'}`,
  'jira:issue_updated': updated,
  comment_created: (p) => `${p.comment.author.displayName} commented on ${issueLink(p, undefined, true)}\n\`\`\` quote\n${commentBody(p)}\n\`\`\``,
  comment_updated: (p) =>
    `${p.comment.author.displayName} updated their comment on ${issueLink(p, undefined, true)}\n\`\`\` quote\n${commentBody(p)}\n\`\`\``,
  comment_deleted: (p) =>
    `${p.comment.author.displayName} deleted their comment on ${issueLink(p, undefined, true)}\n\`\`\` quote\n~~${commentBody(p)}~~\n\`\`\``,
};

export const jira: Integration = {
  name: 'jira',
  displayName: 'Jira',
  eventTypes: Object.keys(BODIES),
  unquoteParameters: true,
  handle(request) {
    const p = request.json();
    let event: string | null = p.webhookEvent ?? null;
    if (event === null && truthy(p.transition)) event = 'jira:issue_updated';
    if (event !== null && IGNORED_EVENTS.has(event)) return null;
    if (event === null) throw anomalousPayload('Jira');
    const body = BODIES[event];
    if (!body) throw new UnsupportedEvent(event);
    return { topic: `${issueId(p)}: ${issueTitle(p)}`, content: body(p, request.people), event };
  },
};

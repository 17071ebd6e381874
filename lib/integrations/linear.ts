import { UnsupportedEvent } from './errors';
import type { Integration } from './types';

/** Linear's webhooks: issues (and sub-issues) and their comments. */

type Payload = any;

const IGNORED_TYPES = new Set(['IssueLabel', 'Project', 'ProjectUpdate', 'Cycle', 'Reaction']);
const quoted = (text: string) => `\n~~~ quote\n${text}\n~~~\n`;

function issueBody(p: Payload, kind: 'Issue' | 'Sub-Issue'): string {
  const data = p.data;
  if (p.action === 'remove') return `This issue has been removed from team ${data.team.name}.`;
  let text = `[${kind}](${p.url}) was ${p.action === 'create' ? 'created' : 'updated'} in team ${data.team.name}`;
  text += 'description' in data ? `:${quoted(data.description)}` : '.';
  const details: string[] = [];
  if (data.priorityLabel !== 'No priority') details.push(`Priority: ${data.priorityLabel}`);
  if ('assignee' in data) details.push(`Assignee: ${data.assignee.name}`);
  details.push(`Status: ${data.state.name}`);
  return `${text}\n${details.join(', ')}.`;
}

function commentBody(p: Payload): string {
  const data = p.data;
  if (p.action === 'remove') return `${data.user.name} has removed a comment.`;
  const action = p.action === 'create' ? 'commented' : 'updated comment';
  return `${data.user.name} [${action}](${p.url}) on issue **${data.issue.title}**:${quoted(data.body)}`;
}

export const linear: Integration = {
  name: 'linear',
  displayName: 'Linear',
  handle(request) {
    const p = request.json();
    const type: string = p.type;
    if (type === 'Issue') {
      const kind = 'parentId' in p.data ? 'Sub-Issue' : 'Issue';
      return { topic: `${kind}: ${p.data.title}`, content: issueBody(p, kind) };
    }
    if (type === 'Comment') return { topic: `Issue: ${p.data.issue.title}`, content: commentBody(p) };
    if (IGNORED_TYPES.has(type)) return null;
    throw new UnsupportedEvent(`${type}:${p.action ?? '???'}`);
  },
};

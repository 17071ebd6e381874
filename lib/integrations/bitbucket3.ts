import { UnsupportedEvent } from './errors';
import {
  branchTopic,
  commitCommentMessage,
  createBranchMessage,
  endsWithPunctuation,
  issueTopic,
  pullRequestMessage,
  pushTagMessage,
  removeBranchMessage,
} from './git';
import { BRANCHES_OPTION, type Integration, type WebhookMessage, type WebhookRequest } from './types';

/** Bitbucket Server (and Data Center): repository, push and pull-request events, named by eventKey. */

type Payload = any;
/** One event's messages; `title` is the URL's topic, when one is given. */
type Handler = (p: Payload, request: WebhookRequest, title: string | undefined) => WebhookMessage[];

const link = (entity: Payload): string => entity.links.self[0].href;
const actor = (p: Payload): string => `[${p.actor.name}](${link(p.actor)})`;

function reviewers(pr: Payload): string | null {
  const names = (pr.reviewers as Payload[]).map((r) => `[${r.user.name}](${link(r.user)})`);
  if (names.length === 0) return null;
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

const prTopic = (pr: Payload) => issueTopic(pr.toRef.repository.name, 'PR', pr.id, pr.title);

function repoComment(action: string): Handler {
  return (p) => {
    const sha: string = p.commit;
    const url = `${String(link(p.repository)).replace(/browse$/, '')}commits/${sha}`;
    const text = action === 'deleted their comment' ? `~~${p.comment.text}~~` : p.comment.text;
    return [{ topic: p.repository.name, content: commitCommentMessage(actor(p), action, url, sha, text) }];
  };
}

function pushChange(p: Payload, change: Payload): WebhookMessage {
  const name: string = change.ref.displayId;
  if (change.ref.type === 'TAG') {
    const action = change.type === 'ADD' ? 'pushed' : change.type === 'DELETE' ? 'removed' : null;
    if (!action) throw new UnsupportedEvent(`${p.eventKey}.${change.type}`);
    return { topic: p.repository.name, content: pushTagMessage(actor(p), name, null, action) };
  }
  let content: string;
  if (change.type === 'ADD') content = createBranchMessage(actor(p), null, name);
  else if (change.type === 'UPDATE') content = `${actor(p)} pushed to branch ${name}. Head is now ${change.toHash}.`;
  else if (change.type === 'DELETE') content = removeBranchMessage(actor(p), name);
  else throw new UnsupportedEvent(`${p.eventKey}.${change.type}`);
  return { topic: branchTopic(p.repository.name, name), content };
}

/** The PR as the message names it: "PR #12" or, with a topic of the URL's, "PR #12 Title". */
const prLabel = (pr: Payload, title: string | undefined) => (title ? `PR #${pr.id} ${pr.title}` : `PR #${pr.id}`);

function pullRequestBody(action: string, p: Payload, title: string | undefined): string {
  const pr = p.pullRequest;
  const base = { user: actor(p), url: link(pr), number: pr.id, title: title ? pr.title : null };
  if (action === 'opened' || action === 'modified') {
    const opened = action === 'opened';
    return pullRequestMessage({
      ...base,
      action,
      targetBranch: opened ? pr.fromRef.displayId : null,
      baseBranch: opened ? pr.toRef.displayId : null,
      message: pr.description ?? null,
      reviewer: reviewers(pr),
    });
  }
  if (action === 'merged') return pullRequestMessage({ ...base, action, targetBranch: pr.fromRef.displayId, baseBranch: pr.toRef.displayId });
  if (action === 'needs_work') return `${actor(p)} marked [${prLabel(pr, title)}](${link(pr)}) as "needs work".`;
  if (action === 'reviewers_updated') {
    const who = reviewers(pr);
    if (who) return `${actor(p)} reassigned [${prLabel(pr, title)}](${link(pr)}) to ${who}.`;
    const line = `${actor(p)} removed all reviewers from [${prLabel(pr, title)}](${link(pr)})`;
    return title && endsWithPunctuation(pr.title) ? line : `${line}.`;
  }
  return pullRequestMessage({ ...base, action });
}

const pullRequest =
  (action: string): Handler =>
  (p, _request, title) => [{ topic: prTopic(p.pullRequest), content: pullRequestBody(action, p, title) }];

const pullRequestComment =
  (action: string): Handler =>
  (p, _request, title) => {
    const pr = p.pullRequest;
    const text = action === 'deleted their comment on' ? `~~${p.comment.text}~~` : p.comment.text;
    const content = pullRequestMessage({ user: actor(p), action, url: link(pr), number: pr.id, message: text, title: title ? pr.title : null });
    return [{ topic: prTopic(pr), content }];
  };

const HANDLERS: Record<string, Handler> = {
  'diagnostics:ping': (_p, _request, title) => [
    { topic: title || 'Bitbucket Server Ping', content: 'Congratulations! The Bitbucket Server webhook was configured successfully!' },
  ],
  'repo:comment:added': repoComment('commented'),
  'repo:comment:edited': repoComment('edited their comment'),
  'repo:comment:deleted': repoComment('deleted their comment'),
  'repo:forked': (p) => [
    {
      topic: p.repository.origin.name,
      content: `User ${p.actor.displayName}(login: ${actor(p)}) forked the repository into [${p.repository.name}](${link(p.repository)}).`,
    },
  ],
  'repo:modified': (p) => {
    // A rename is the only change Bitbucket Server reports.
    const renamed: string = p.new.name;
    const content = `${actor(p)} changed the name of the **${p.old.name}** repo from **${p.old.name}** to **${renamed}**`;
    return [{ topic: renamed, content: endsWithPunctuation(renamed) ? content : `${content}.` }];
  },
  'repo:refs_changed': (p, request) =>
    (p.changes as Payload[])
      .filter((change) => change.ref.type !== 'BRANCH' || request.wantsBranch(change.ref.displayId))
      .map((change) => {
        if (change.ref.type !== 'BRANCH' && change.ref.type !== 'TAG') throw new UnsupportedEvent(`${p.eventKey}.${change.ref.type}`);
        return pushChange(p, change);
      }),
  'pr:comment:added': pullRequestComment('commented on'),
  'pr:comment:edited': pullRequestComment('edited their comment on'),
  'pr:comment:deleted': pullRequestComment('deleted their comment on'),
  'pr:declined': pullRequest('declined'),
  'pr:deleted': pullRequest('deleted'),
  'pr:merged': pullRequest('merged'),
  'pr:modified': pullRequest('modified'),
  'pr:opened': pullRequest('opened'),
  'pr:reviewer:approved': pullRequest('approved'),
  'pr:reviewer:needs_work': pullRequest('needs_work'),
  'pr:reviewer:updated': pullRequest('reviewers_updated'),
  'pr:reviewer:unapproved': pullRequest('unapproved'),
};

export const bitbucket3: Integration = {
  name: 'bitbucket3',
  displayName: 'Bitbucket3',
  menuName: 'Bitbucket Server',
  eventTypes: Object.keys(HANDLERS),
  urlOptions: [BRANCHES_OPTION],
  unquoteParameters: true,
  handle(request) {
    const p = request.json();
    const event: string = 'eventKey' in p ? p.eventKey : request.requireHeader('X-Event-Key');
    const handler = HANDLERS[event];
    if (!handler) throw new UnsupportedEvent(event);
    return handler(p, request, request.param('topic')).map((message) => ({ ...message, event }));
  },
};

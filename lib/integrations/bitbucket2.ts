import { UnsupportedEvent } from './errors';
import {
  branchTopic,
  commitCommentMessage,
  endsWithPunctuation,
  forcePushMessage,
  issueMessage,
  issueTopic,
  pullRequestMessage,
  pushMessage,
  pushTagMessage,
  removeBranchMessage,
  shortSha,
} from './git';
import { pythonStr, truthy } from './payload';
import type { Integration, WebhookMessage } from './types';

/**
 * Bitbucket Cloud's webhooks. The payload's keys tell most events apart; pull-request events
 * and repository updates are named by the X-Event-Key header.
 */

type Payload = any;
type Body = (p: Payload, withTitle: boolean) => string;

/** Since GDPR Bitbucket names people by display name or nickname only. */
function person(user: Payload): string {
  if (user && typeof user === 'object') {
    if ('display_name' in user) return user.display_name;
    if ('nickname' in user) return user.nickname;
  }
  return 'Unknown user';
}

const actor = (p: Payload) => person(p.actor);
const html = (entity: Payload): string => entity.links.html.href;

const PULL_REQUEST_ACTIONS = new Set([
  'approved',
  'unapproved',
  'created',
  'updated',
  'rejected',
  'fulfilled',
  'comment_created',
  'comment_updated',
  'comment_deleted',
]);

function eventType(p: Payload, header: () => string): string {
  if ('push' in p) return 'push';
  if ('fork' in p) return 'fork';
  if ('comment' in p && 'commit' in p) return 'commit_comment';
  if ('commit_status' in p) return 'change_commit_status';
  if ('issue' in p) return 'changes' in p ? 'issue_updated' : 'comment' in p ? 'issue_commented' : 'issue_created';
  const key = header();
  if ('pullrequest' in p) {
    const action = /^pullrequest:(.*)$/.exec(key)?.[1];
    if (action !== undefined && PULL_REQUEST_ACTIONS.has(action)) return `pull_request_${action}`;
  } else if (key === 'repo:updated') return key;
  throw new UnsupportedEvent(key);
}

function issueBody(action: string): Body {
  return (p, withTitle) => {
    const issue = p.issue;
    const created = action === 'created';
    return issueMessage({
      user: actor(p),
      action,
      url: html(issue),
      number: issue.id,
      message: created ? issue.content.raw : null,
      assignee: created && truthy(issue.assignee) ? person(issue.assignee) : null,
      title: withTitle ? issue.title : null,
    });
  };
}

/**
 * A pull request's event. Opened and updated ones quote the description and name the first
 * reviewer; created and merged ones name the branches.
 */
function pullRequestEvent(action: string): Body {
  const detailed = action === 'created' || action === 'updated';
  const branches = action === 'created' || action === 'merged';
  return (p, withTitle) => {
    const pr = p.pullrequest;
    return pullRequestMessage({
      user: actor(p),
      action,
      url: html(pr),
      number: pr.id,
      targetBranch: branches ? pr.source.branch.name : null,
      baseBranch: branches ? pr.destination.branch.name : null,
      ...(detailed ? { message: pr.description, assignee: truthy(pr.reviewers) ? person(pr.reviewers[0]) : null } : {}),
      title: withTitle ? pr.title : null,
    });
  };
}

/** "[commented](url) on" or "updated a [comment](url) on". */
function pullRequestComment(verb: string | null): Body {
  return (p, withTitle) => {
    const url = html(p.comment);
    const action = verb === null ? `[commented](${url}) on` : `${verb} a [comment](${url}) on`;
    return pullRequestMessage({
      user: actor(p),
      action,
      url: html(p.pullrequest),
      number: p.pullrequest.id,
      message: p.comment.content.raw,
      title: withTitle ? p.pullrequest.title : null,
    });
  };
}

const REPO_CHANGES = ['website', 'name', 'links', 'language', 'full_name', 'description'];

function repoUpdated(p: Payload): string {
  const repo: string = p.repository.name;
  let body = '';
  for (const key of REPO_CHANGES) {
    const { new: now, old } = p.changes[key];
    if (!truthy(now)) continue;
    const what = key === 'full_name' ? 'full name' : key;
    const line = truthy(old)
      ? `${actor(p)} changed the ${what} of the **${repo}** repo from **${pythonStr(old)}** to **${pythonStr(now)}**`
      : `${actor(p)} changed the ${what} of the **${repo}** repo to **${pythonStr(now)}**`;
    body += `${endsWithPunctuation(pythonStr(now)) ? line : `${line}.`}\n`;
  }
  return body;
}

const BODIES: Record<string, Body> = {
  fork: (p) => `${actor(p)} forked the repository into [${p.fork.full_name}](${html(p.fork)}).`,
  commit_comment: (p) => {
    const comment = p.comment;
    return commitCommentMessage(actor(p), `[commented](${html(comment)})`, html(comment.commit), comment.commit.hash, comment.content.raw);
  },
  change_commit_status: (p) => {
    const status = p.commit_status;
    const sha = String(status.links.commit.href).split('/').at(-1)!;
    const commit = `[${shortSha(sha)}](${html(p.repository)}/commits/${sha})`;
    return `[System ${status.key}](${status.url}) changed status of ${commit} to ${status.state}.`;
  },
  issue_updated: issueBody('updated'),
  issue_created: issueBody('created'),
  issue_commented: (p, withTitle) => issueBody(`[commented](${html(p.comment)}) on`)(p, withTitle),
  pull_request_created: pullRequestEvent('created'),
  pull_request_updated: pullRequestEvent('updated'),
  pull_request_approved: pullRequestEvent('approved'),
  pull_request_unapproved: pullRequestEvent('unapproved'),
  pull_request_fulfilled: pullRequestEvent('merged'),
  pull_request_rejected: pullRequestEvent('rejected'),
  pull_request_comment_created: pullRequestComment(null),
  pull_request_comment_updated: pullRequestComment('updated'),
  pull_request_comment_deleted: pullRequestComment('deleted'),
  'repo:updated': repoUpdated,
};

/** A commit's author: a Bitbucket user, or the first word of the raw "Name <email>". */
function commitAuthor(commit: Payload): string {
  return 'user' in commit.author ? person(commit.author.user) : String(commit.author.raw).split(/\s+/)[0];
}

function pushChange(p: Payload, change: Payload): WebhookMessage {
  const ref = change.new ?? change.old;
  const repo: string = p.repository.name;
  if (ref.type === 'tag') {
    const tag = truthy(change.new) ? change.new : change.old;
    const action = truthy(change.new) ? 'pushed' : 'removed';
    return { topic: repo, content: pushTagMessage(actor(p), tag.name, html(tag), action), event: 'push' };
  }
  const topic = branchTopic(repo, truthy(change.new) ? change.new.name : change.old.name);
  let content: string;
  if (change.new === null) content = removeBranchMessage(actor(p), change.old.name);
  else if (change.forced) content = forcePushMessage(actor(p), html(change), change.new.name, change.new.target.hash);
  else {
    const commits = (change.commits as Payload[]).map((commit) => ({
      name: commitAuthor(commit),
      sha: commit.hash,
      url: html(commit),
      message: commit.message,
    }));
    content = pushMessage({ user: actor(p), compareUrl: html(change), branch: change.new.name, commits, truncated: change.truncated });
  }
  return { topic, content, event: 'push' };
}

function topicOf(p: Payload, type: string): string {
  if (type.startsWith('pull_request')) return issueTopic(p.repository.name, 'PR', p.pullrequest.id, p.pullrequest.title);
  if (type.startsWith('issue')) return issueTopic(p.repository.name, 'issue', p.issue.id, p.issue.title);
  return p.repository.name;
}

export const bitbucket2: Integration = {
  name: 'bitbucket2',
  displayName: 'Bitbucket2',
  eventTypes: [
    'change_commit_status', 'pull_request_comment_created', 'pull_request_updated', 'pull_request_unapproved', 'push',
    'pull_request_approved', 'pull_request_fulfilled', 'issue_created', 'issue_commented', 'fork', 'pull_request_comment_updated',
    'pull_request_created', 'pull_request_rejected', 'repo:updated', 'issue_updated', 'commit_comment',
    'pull_request_comment_deleted',
  ],
  unquoteParameters: true,
  handle(request) {
    const p = request.json();
    const type = eventType(p, () => request.requireHeader('X-Event-Key'));
    if (type === 'push') {
      const changes: Payload[] = p.push.changes;
      if (changes.length === 0) return null;
      // Only the last change's branch decides, as on Zulip.
      const last = changes.at(-1);
      const ref = last.new ?? last.old;
      if (ref.type !== 'tag' && !request.wantsBranch(ref.name)) return null;
      return changes.map((change) => pushChange(p, change));
    }
    const content = BODIES[type](p, request.param('topic') !== undefined);
    return { topic: topicOf(p, type), content, event: type };
  },
};

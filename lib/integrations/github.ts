import { UnsupportedEvent } from './errors';
import {
  branchTopic,
  commitCommentMessage,
  issueLabelMessage,
  issueMessage,
  issueMilestoneMessage,
  issueTopic,
  pullRequestMessage,
  pushMessage,
  pushTagMessage,
  quoted,
  releaseMessage,
  shortSha,
} from './git';
import { truthy } from './payload';
import { setupMessage } from './setup';
import { BRANCHES_OPTION, type Integration } from './types';

/**
 * GitHub's repository, organization and sponsorship webhooks. The X-GitHub-Event header names
 * the event; the payload's action refines it into the event names only_events filters on.
 */

type Payload = any;
/** How one refined event reads: its message, given the payload and whether titles are wanted in it. */
type Body = (p: Payload, withTitle: boolean) => string;

const sender = (p: Payload): string => p.sender.login;
const repoName = (p: Payload): string => p.repository.name;
const repoFullName = (p: Payload): string => p.repository.full_name;
const branchOf = (ref: string) => ref.replace(/^refs\/heads\//, '');
const tagOf = (ref: string) => ref.replace(/^refs\/tags\//, '');
const isPullRequestComment = (p: Payload) => p.issue && 'pull_request' in p.issue;

function commentAction(p: Payload): string {
  const verb = p.action === 'created' ? '[commented]' : `${p.action} a [comment]`;
  return `${verb}(${p.comment.html_url}) on`;
}

function openedOrUpdatedPullRequest(p: Payload, withTitle: boolean): string {
  const pr = p.pull_request;
  const action = p.action === 'synchronize' ? 'updated' : p.action;
  const changes = p.changes ?? {};
  const showBranches = action === 'opened' || action === 'merged';
  return pullRequestMessage({
    user: sender(p),
    action,
    url: pr.html_url,
    targetBranch: showBranches ? pr.head.label : null,
    baseBranch: showBranches ? pr.base.label : null,
    message: 'body' in changes || action === 'opened' ? pr.body : null,
    assignee: truthy(pr.assignee) ? pr.assignee.login : null,
    number: pr.number,
    title: withTitle ? pr.title : null,
  });
}

function sponsorsTier(p: Payload): string {
  return p.sponsorship.tier.name;
}

function effectiveDate(p: Payload): string {
  const date = new Date(`${String(p.effective_date).slice(0, 10)}T00:00:00Z`);
  const month = date.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
  return `${month} ${String(date.getUTCDate()).padStart(2, '0')}, ${date.getUTCFullYear()}`;
}

const PAGE_BUILD_STATES: Record<string, string> = {
  null: 'has yet to be built',
  building: 'is being built',
  errored: 'has failed: {}',
  built: 'has finished building',
};

const BODIES: Record<string, Body> = {
  commit_comment: (p) => {
    const url: string = p.comment.html_url;
    return commitCommentMessage(sender(p), `[commented](${url})`, url.split('#')[0], p.comment.commit_id, p.comment.body);
  },
  closed_pull_request: (p, withTitle) =>
    pullRequestMessage({
      user: sender(p),
      action: p.pull_request.merged ? 'merged' : 'closed without merge',
      url: p.pull_request.html_url,
      number: p.pull_request.number,
      title: withTitle ? p.pull_request.title : null,
    }),
  create: (p) => `${sender(p)} created ${p.ref_type} ${p.ref}.`,
  delete: (p) => `${sender(p)} deleted ${p.ref_type} ${p.ref}.`,
  check_run: (p) => {
    const run = p.check_run;
    return `Check [${run.name}](${run.html_url}) ${run.status} (${run.conclusion}). ([${shortSha(run.head_sha)}](${p.repository.html_url}/commit/${run.head_sha}))`;
  },
  deployment: (p) => `${sender(p)} created new deployment.`,
  deployment_status: (p) => `Deployment changed status to ${p.deployment_status.state}.`,
  discussion: (p) => {
    const d = p.discussion;
    return `${sender(p)} created [discussion #${d.number}](${d.html_url}) in ${d.category.name}:\n\n~~~ quote\n### ${d.title}\n${d.body}\n~~~`;
  },
  discussion_comment: (p, withTitle) =>
    pullRequestMessage({
      user: sender(p),
      action: commentAction(p),
      url: p.discussion.html_url,
      number: p.discussion.number,
      message: p.comment.body,
      title: withTitle ? p.discussion.title : null,
      type: 'discussion',
    }),
  fork: (p) => `${sender(p)} forked [${p.forkee.name}](${p.forkee.html_url}).`,
  gollum: (p) => {
    const pages = (p.pages as Payload[]).map((page) => `* ${page.action} [${page.title}](${page.html_url})`);
    return `${sender(p)}:\n${pages.join('\n')}`;
  },
  issue_comment: (p, withTitle) =>
    pullRequestMessage({
      user: sender(p),
      action: commentAction(p),
      url: p.issue.html_url,
      number: p.issue.number,
      message: p.comment.body,
      title: withTitle ? p.issue.title : null,
      type: isPullRequestComment(p) ? 'PR' : 'issue',
    }),
  issue_labeled_or_unlabeled: (p, withTitle) =>
    issueLabelMessage({
      user: sender(p),
      userUrl: p.sender.html_url,
      action: p.action === 'labeled' ? 'added' : 'removed',
      url: p.issue.html_url,
      number: p.issue.number,
      label: p.label.name,
      title: withTitle ? p.issue.title : null,
    }),
  issue_milestoned_or_demilestoned: (p, withTitle) =>
    issueMilestoneMessage({
      user: sender(p),
      userUrl: p.sender.html_url,
      action: p.action === 'milestoned' ? 'added' : 'removed',
      url: p.issue.html_url,
      number: p.issue.number,
      milestone: p.milestone.title,
      milestoneUrl: p.milestone.html_url,
      title: withTitle ? p.issue.title : null,
    }),
  issues_opened_via_transfer: (p) => {
    const old = p.changes;
    return `[Issue #${p.issue.number} ${p.issue.title}](${p.issue.html_url}) was transferred from [${old.old_repository.full_name}#${old.old_issue.number}](${old.old_issue.html_url}).`;
  },
  issues_transferred: (p) => {
    const moved = p.changes;
    return `${sender(p)} transferred [issue #${p.issue.number} ${p.issue.title}](${p.issue.html_url}) to [${moved.new_repository.full_name}/#${moved.new_issue.number}](${moved.new_issue.html_url}).`;
  },
  issues: (p, withTitle) =>
    issueMessage({
      user: sender(p),
      action: p.action,
      url: p.issue.html_url,
      number: p.issue.number,
      message: p.action === 'assigned' || p.action === 'unassigned' ? null : p.issue.body,
      title: withTitle ? p.issue.title : null,
      assigneeUpdated: 'assignee' in p ? p.assignee.login : null,
    }),
  member: (p) => `${sender(p)} ${p.action} [${p.member.login}](${p.member.html_url}) to [${repoName(p)}](${p.repository.html_url}).`,
  membership: (p) =>
    `${sender(p)} ${p.action} [${p.member.login}](${p.member.html_url}) ${p.action === 'removed' ? 'from' : 'to'} the ${p.team.name} team.`,
  opened_pull_request: openedOrUpdatedPullRequest,
  updated_pull_request: openedOrUpdatedPullRequest,
  assigned_or_unassigned_pull_request: (p, withTitle) =>
    pullRequestMessage({
      user: sender(p),
      action: p.action,
      url: p.pull_request.html_url,
      number: p.pull_request.number,
      title: withTitle ? p.pull_request.title : null,
      assigneeUpdated: p.assignee.login,
    }),
  page_build: (p) => {
    const build = p.build;
    let state = PAGE_BUILD_STATES[build.status] ?? `is ${build.status}`;
    if (truthy(build.error.message)) state = state.replace('{}', quoted(build.error.message));
    return `GitHub Pages build, triggered by ${build.pusher.login}, ${state}.`;
  },
  ping: (p) => setupMessage('GitHub', sender(p)),
  public: (p) => `${sender(p)} made the repository [${repoFullName(p)}](${p.repository.html_url}) public.`,
  pull_request_ready_for_review: (p) =>
    `**${sender(p)}** has marked [PR #${p.pull_request.number}](${p.pull_request.html_url}) as ready for review.`,
  pull_request_review: (p, withTitle) =>
    pullRequestMessage({
      user: sender(p),
      action: 'submitted',
      url: p.review.html_url,
      type: 'PR review',
      title: withTitle ? `for #${p.pull_request.number} ${p.pull_request.title}` : null,
      message: p.review.body,
    }),
  pull_request_review_comment: (p, withTitle) =>
    pullRequestMessage({
      user: sender(p),
      action: p.action,
      url: p.comment.html_url,
      message: p.action === 'created' ? p.comment.body : null,
      type: 'PR review comment',
      title: withTitle ? `on #${p.pull_request.number} ${p.pull_request.title}` : null,
    }),
  pull_request_review_requested: (p, withTitle) => {
    const who = 'requested_reviewer' in p ? p.requested_reviewer : p.requested_team;
    const reviewers = `[${'requested_reviewer' in p ? who.login : who.name}](${who.html_url})`;
    const pr = p.pull_request;
    const label = withTitle ? `PR #${pr.number} ${pr.title}` : `PR #${pr.number}`;
    return `**${sender(p)}** requested ${reviewers} for a review on [${label}](${pr.html_url}).`;
  },
  pull_request_auto_merge: (p) =>
    `${sender(p)} has ${p.action === 'auto_merge_disabled' ? 'disabled' : 'enabled'} auto merge for [PR #${p.pull_request.number}](${p.pull_request.html_url}).`,
  locked_or_unlocked_pull_request: (p) => {
    const pr = p.pull_request;
    if (p.action === 'unlocked') return `${sender(p)} has unlocked [PR #${pr.number}](${pr.html_url}).`;
    const reason = truthy(pr.active_lock_reason) ? pr.active_lock_reason : 'None';
    return `${sender(p)} has locked [PR #${pr.number}](${pr.html_url}) as ${reason} and limited conversation to collaborators.`;
  },
  push_commits: (p) =>
    pushMessage({
      user: sender(p),
      compareUrl: p.compare,
      branch: branchOf(p.ref),
      commits: (p.commits as Payload[]).map((c) => ({
        name: truthy(c.author.username) ? c.author.username : c.author.name,
        sha: c.id,
        url: c.url,
        message: c.message,
      })),
      deleted: p.deleted,
      forced: p.forced,
    }),
  push_tags: (p) => pushTagMessage(sender(p), tagOf(p.ref), null, p.created ? 'pushed' : 'removed'),
  release: (p) =>
    releaseMessage(sender(p), p.action, p.release.tag_name, truthy(p.release.name) ? p.release.name : p.release.tag_name, p.release.html_url),
  repository: (p) => `${sender(p)} ${p.action} the repository [${repoFullName(p)}](${p.repository.html_url}).`,
  star: (p) =>
    `[${sender(p)}](${p.sender.html_url}) ${p.action === 'created' ? 'starred' : 'unstarred'} the repository [${repoFullName(p)}](${p.repository.html_url}).`,
  status: (p) => {
    const state = truthy(p.target_url) ? `[${p.state}](${p.target_url})` : p.state;
    return `[${shortSha(p.sha)}](${p.commit.html_url}) changed its status to ${state}.`;
  },
  team: (p) => {
    const changes = p.changes;
    if ('description' in changes) return `**${sender(p)}** changed the team description to:\n\n~~~ quote\n${p.team.description}\n~~~`;
    if ('name' in changes) return `Team \`${changes.name.from}\` was renamed to \`${p.team.name}\`.`;
    if ('privacy' in changes) return `Team visibility changed to \`${p.team.privacy}\``;
    return `Team has changes to \`${Object.keys(changes).sort().join('/')}\` data.`;
  },
  team_add: (p) => `The repository [${repoFullName(p)}](${p.repository.html_url}) was added to team ${p.team.name}.`,
  watch: (p) => `${sender(p)} starred the repository [${repoFullName(p)}](${p.repository.html_url}).`,
  cancelled: (p) => `${sender(p)} cancelled their ${sponsorsTier(p)} subscription.`,
  created: (p) => `${sender(p)} subscribed for ${sponsorsTier(p)}.`,
  edited: (p) =>
    `${sender(p)} changed who can see their sponsorship from ${p.changes.privacy_level.from} to ${p.sponsorship.privacy_level}.`,
  pending_cancellation: (p) => `${sender(p)}'s ${sponsorsTier(p)} subscription will be cancelled on ${effectiveDate(p)}.`,
  pending_tier_change: (p) =>
    `${sender(p)}'s subscription will change from ${p.changes.tier.from.name} to ${sponsorsTier(p)} on ${effectiveDate(p)}.`,
  tier_changed: (p) => `${sender(p)} changed their subscription from ${p.changes.tier.from.name} to ${sponsorsTier(p)}.`,
};

const SPONSORS_EVENTS = new Set(['cancelled', 'created', 'edited', 'pending_cancellation', 'pending_tier_change', 'tier_changed']);
/** Events GitHub sends that say nothing worth a message. */
const IGNORED_EVENTS = new Set([
  'check_suite',
  'label',
  'meta',
  'milestone',
  'organization',
  'project_card',
  'push__merge_queue',
  'repository_vulnerability_alert',
]);
const IGNORED_PULL_REQUEST_ACTIONS = new Set(['approved', 'converted_to_draft', 'labeled', 'review_request_removed', 'unlabeled']);
const IGNORED_TEAM_ACTIONS = new Set(['added_to_repository', 'created', 'deleted', 'removed_from_repository']);

const PULL_REQUEST_EVENTS: Record<string, string> = {
  opened: 'opened_pull_request',
  reopened: 'opened_pull_request',
  synchronize: 'updated_pull_request',
  edited: 'updated_pull_request',
  assigned: 'assigned_or_unassigned_pull_request',
  unassigned: 'assigned_or_unassigned_pull_request',
  closed: 'closed_pull_request',
  review_requested: 'pull_request_review_requested',
  ready_for_review: 'pull_request_ready_for_review',
  locked: 'locked_or_unlocked_pull_request',
  unlocked: 'locked_or_unlocked_pull_request',
  auto_merge_enabled: 'pull_request_auto_merge',
  auto_merge_disabled: 'pull_request_auto_merge',
};

/** The refined event name, null for one that is deliberately ignored; throws for one not supported. */
function refinedEvent(header: string, p: Payload, wantsBranch: (branch: string) => boolean): string | null {
  switch (header) {
    case 'pull_request':
      if (p.action in PULL_REQUEST_EVENTS) return PULL_REQUEST_EVENTS[p.action];
      if (IGNORED_PULL_REQUEST_ACTIONS.has(p.action)) return null;
      break;
    case 'pull_request_review':
      // GitHub follows a review with an empty "edited" event for its body.
      return p.action === 'edited' && !truthy(p.changes) ? null : 'pull_request_review';
    case 'push': {
      const ref = String(p.ref);
      if (ref.startsWith('refs/heads/gh-readonly-queue/')) return null;
      if (!ref.startsWith('refs/heads/')) return 'push_tags';
      return wantsBranch(branchOf(ref)) ? 'push_commits' : null;
    }
    case 'check_run':
      return p.check_run.status === 'completed' ? 'check_run' : null;
    case 'team':
      if (p.action === 'edited') return 'team';
      if (IGNORED_TEAM_ACTIONS.has(p.action)) return null;
      throw new UnsupportedEvent(`unsupported team action ${p.action}`);
    case 'issues':
      if (p.action === 'labeled' || p.action === 'unlabeled') return 'issue_labeled_or_unlabeled';
      if (p.action === 'milestoned' || p.action === 'demilestoned') return 'issue_milestoned_or_demilestoned';
      if (p.action === 'transferred') return 'issues_transferred';
      if (p.action === 'opened' && truthy(p.changes?.old_issue)) return 'issues_opened_via_transfer';
      return 'issues';
    default:
      if (header in BODIES) return header;
      if (IGNORED_EVENTS.has(header)) return null;
  }
  throw new UnsupportedEvent(`${header}:${p.action ?? '???'}`);
}

function topicOf(p: Payload, event: string): string {
  if (event.includes('pull_request')) return issueTopic(repoName(p), 'PR', p.pull_request.number, p.pull_request.title);
  if (event.startsWith('issue')) return issueTopic(repoName(p), isPullRequestComment(p) ? 'PR' : 'issue', p.issue.number, p.issue.title);
  if (event.startsWith('deployment')) return `${repoName(p)} / Deployment on ${p.deployment.environment}`;
  if (event === 'membership') return `${p.organization.login} organization`;
  if (event === 'team') return `team ${p.team.name}`;
  if (event === 'push_commits') return branchTopic(repoName(p), branchOf(p.ref));
  if (event === 'gollum') return branchTopic(repoName(p), 'wiki pages');
  if (event === 'ping' && !truthy(p.repository)) return p.organization.login;
  if (event === 'check_run') return `${repoName(p)} / checks`;
  if (event.startsWith('discussion')) return `${repoName(p)} discussion #${p.discussion.number}: ${p.discussion.title}`;
  if (SPONSORS_EVENTS.has(event)) return 'sponsors';
  return repoName(p);
}

export const github: Integration = {
  name: 'github',
  aliases: ['githubsponsors'],
  displayName: 'GitHub',
  eventTypes: Object.keys(BODIES),
  urlOptions: [BRANCHES_OPTION, { key: 'ignore_private_repositories', label: 'Leave out private repositories', inputType: 'boolean' }],
  handle(request) {
    const header = request.requireHeader('X-GitHub-Event');
    const p = request.json();
    if (truthy(p.repository) && p.repository.private === true && request.param('ignore_private_repositories') === 'true') return null;
    // An edited comment whose text did not change (GitHub sends these) says nothing new.
    if (header.includes('comment') && !header.includes('discussion') && p.action === 'edited' && p.changes?.body?.from === p.comment?.body) {
      return null;
    }
    const event = refinedEvent(header, p, (branch) => request.wantsBranch(branch));
    if (event === null) return null;
    const withTitle = request.param('topic') !== undefined;
    return { topic: topicOf(p, event), content: BODIES[event](p, withTitle), event };
  },
};

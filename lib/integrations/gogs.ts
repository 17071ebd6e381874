import { UnsupportedEvent } from './errors';
import { branchTopic, createBranchMessage, issueMessage, issueTopic, pullRequestMessage, pushMessage, releaseMessage, releaseTopic } from './git';
import { truthy } from './payload';
import { BRANCHES_OPTION, type Integration, type WebhookRequest, type WebhookResult } from './types';
import type { IssueLine } from './git';

/**
 * Gogs and its fork Gitea send the same events with the same payloads, but for pull requests;
 * one handler serves both, each naming its event header and reading its own pull requests.
 */

type Payload = any;
type PullRequestLine = (p: Payload) => Omit<IssueLine, 'url'>;

const issueUrl = (p: Payload, number: number) => `${p.repository.html_url}/issues/${number}`;

function handle(request: WebhookRequest, header: string, pullRequestLine: PullRequestLine): WebhookResult {
  const event = request.requireHeader(header);
  const p = request.json();
  const repo: string = p.repository.name;
  const withTitle = request.param('topic') !== undefined;
  const title = (text: string) => (withTitle ? text : null);
  switch (event) {
    case 'push': {
      const branch = String(p.ref).replace('refs/heads/', '');
      if (!request.wantsBranch(branch)) return null;
      const commits = (p.commits as Payload[]).map((c) => ({
        name: truthy(c.author.username) ? c.author.username : String(c.author.name).split(/\s+/)[0],
        sha: c.id,
        url: c.url,
        message: c.message,
      }));
      const content = pushMessage({ user: p.sender.username, compareUrl: p.compare_url, branch, commits });
      return { topic: branchTopic(repo, branch), content, event };
    }
    case 'create':
      return {
        topic: branchTopic(repo, p.ref),
        content: createBranchMessage(p.sender.username, `${p.repository.html_url}/src/${p.ref}`, p.ref),
        event,
      };
    case 'pull_request': {
      const pr = p.pull_request;
      const content = pullRequestMessage({ ...pullRequestLine(p), url: pr.html_url, number: pr.number, title: title(pr.title) });
      return { topic: issueTopic(repo, 'PR', pr.id, pr.title), content, event };
    }
    case 'issues': {
      const issue = p.issue;
      const assignee = truthy(issue.assignee) ? issue.assignee.login : null;
      const content = issueMessage({
        user: p.sender.login,
        action: p.action,
        url: issueUrl(p, issue.number),
        number: issue.number,
        message: issue.body,
        assignee,
        title: title(issue.title),
        assigneeUpdated: p.action === 'assigned' ? assignee : null,
      });
      return { topic: issueTopic(repo, 'issue', issue.number, issue.title), content, event };
    }
    case 'issue_comment': {
      const issue = p.issue;
      const verb = p.action === 'created' ? '[commented]' : `${p.action} a [comment]`;
      const content = issueMessage({
        user: p.sender.login,
        action: `${verb}(${p.comment.html_url}) on`,
        url: issueUrl(p, issue.number),
        number: issue.number,
        message: p.comment.body,
        title: title(issue.title),
      });
      return { topic: issueTopic(repo, 'issue', issue.number, issue.title), content, event };
    }
    case 'release': {
      const release = p.release;
      const content = releaseMessage(release.author.username, p.action, release.tag_name, release.name, p.repository.html_url);
      return { topic: releaseTopic(repo, release.tag_name, release.name), content, event };
    }
    default:
      throw new UnsupportedEvent(event);
  }
}

/** Who did what to a pull request: its merger when merged, else its author. */
function actor(p: Payload): { user: string; action: string } {
  const pr = p.pull_request;
  return pr.merged ? { user: pr.merged_by.username, action: 'merged' } : { user: pr.user.username, action: p.action };
}

export const gogs: Integration = {
  name: 'gogs',
  displayName: 'Gogs',
  urlOptions: [BRANCHES_OPTION],
  handle: (request) =>
    handle(request, 'X-Gogs-Event', (p) => {
      const pr = p.pull_request;
      const { user, action } = actor(p);
      const edited = action === 'edited';
      return {
        user,
        action,
        targetBranch: edited ? null : pr.head_branch,
        baseBranch: edited ? null : pr.base_branch,
        assigneeUpdated: truthy(p.action) && truthy(pr.assignee) ? pr.assignee.login : null,
      };
    }),
};

export const gitea: Integration = {
  name: 'gitea',
  displayName: 'Gitea',
  urlOptions: [BRANCHES_OPTION],
  handle: (request) =>
    handle(request, 'X-Gitea-Event', (p) => {
      const pr = p.pull_request;
      const { user, action } = actor(p);
      const edited = action === 'edited';
      const assignee = truthy(pr.assignee) ? pr.assignee.login : null;
      return {
        user,
        action,
        targetBranch: !edited && 'head' in pr ? pr.head.ref : null,
        baseBranch: !edited && 'base' in pr ? pr.base.ref : null,
        assignee,
        assigneeUpdated: action === 'assigned' ? assignee : null,
      };
    }),
};

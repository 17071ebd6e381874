import { UnsupportedEvent } from './errors';
import { branchTopic, issueTopic, pullRequestMessage, pushMessage } from './git';
import { truthy } from './payload';
import type { Integration } from './types';

/** Azure DevOps service hooks for Git repositories: pushes and pull requests. */

type Payload = any;

const branchOf = (ref: string) => ref.replace('refs/heads/', '');
const pushBranch = (r: Payload): string => branchOf(r.refUpdates[0].name);

function pullRequest(r: Payload, action: string, extra: { message?: string | null; branches?: boolean }): string {
  return pullRequestMessage({
    user: r.createdBy.displayName,
    action,
    url: r._links.web.href,
    number: r.pullRequestId,
    targetBranch: extra.branches ? branchOf(r.sourceRefName) : null,
    baseBranch: extra.branches ? branchOf(r.targetRefName) : null,
    message: extra.message,
    title: r.title,
  });
}

const BODIES: Record<string, (p: Payload) => string> = {
  'git.push': (p) => {
    const r = p.resource;
    const repoUrl: string = r.repository.remoteUrl;
    const update = r.refUpdates[0];
    const commits = ((r.commits ?? []) as Payload[]).map((commit) => ({
      name: commit.author.name,
      sha: commit.commitId,
      url: `${repoUrl}/commit/${commit.commitId}`,
      message: commit.comment,
    }));
    const compareUrl = `${repoUrl}/branchCompare?baseVersion=GC${update.oldObjectId}&targetVersion=GC${update.newObjectId}&_a=files`;
    return pushMessage({ user: r.pushedBy.displayName, compareUrl, branch: pushBranch(r), commits });
  },
  'git.pullrequest.created': (p) =>
    pullRequest(p.resource, 'created', { branches: true, message: truthy(p.resource.description) ? p.resource.description : null }),
  'git.pullrequest.merged': (p) => pullRequest(p.resource, 'merged', { branches: true }),
  'git.pullrequest.updated': (p) => pullRequest(p.resource, 'updated', { message: p.detailedMessage.markdown }),
};

export const azuredevops: Integration = {
  name: 'azuredevops',
  displayName: 'AzureDevOps',
  eventTypes: ['git.push', 'git.pullrequest.created', 'git.pullrequest.merged', 'git.pullrequest.updated'],
  handle(request) {
    const p = request.json();
    const event: string = p.eventType;
    const r = p.resource;
    if (event === 'git.push' && !request.wantsBranch(pushBranch(r))) return null;
    // Azure DevOps also reports merge attempts (conflicts); only a completed merge is news.
    if (event === 'git.pullrequest.merged' && (r.status !== 'completed' || r.mergeStatus !== 'succeeded')) return null;
    const body = BODIES[event];
    if (!body) throw new UnsupportedEvent(event);
    const repo: string = r.repository.name;
    const topic = event === 'git.push' ? branchTopic(repo, pushBranch(r)) : issueTopic(repo, 'PR', r.pullRequestId, r.title);
    return { topic, content: body(p) };
  },
};

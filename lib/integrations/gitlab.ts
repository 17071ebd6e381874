import { UnsupportedEvent } from './errors';
import {
  commitCommentMessage,
  EMPTY_SHA,
  issueMessage,
  issueTopic,
  pullRequestMessage,
  pushMessage,
  pushTagMessage,
  quoted,
  removeBranchMessage,
} from './git';
import { truthy } from './payload';
import { BRANCHES_OPTION, type Integration } from './types';

/**
 * GitLab's project and system hooks. The X-GitLab-Event header names the hook; issue, merge
 * request and wiki hooks are refined by their action, note hooks by what was commented on.
 */

type Payload = any;
type Body = (p: Payload, withTitle: boolean) => string;

const repoName = (p: Payload): string => ('project' in p ? p.project.name : p.repository.name);
const homepage = (p: Payload): string => ('project' in p ? p.project.web_url : p.repository.homepage);
const branchOf = (p: Payload): string => String(p.ref).replace('refs/heads/', '');
const userName = (p: Payload): string => p.user.name;

/** Assignees by their full names, from the list or the single assignee older GitLab sends. */
function assignees(p: Payload): Array<{ username: string }> {
  const list = truthy(p.assignees) ? p.assignees : truthy(p.assignee) ? [p.assignee] : [];
  return (list as Payload[]).map((a) => ({ username: a.name }));
}

function issueCreated(p: Payload, withTitle: boolean): string {
  const attributes = p.object_attributes;
  // Hidden comments (<!-- -->) of the issue template say nothing to readers.
  const description = truthy(attributes.description) ? String(attributes.description).replace(/<!--[\s\S]*?-->/g, '').trimEnd() : null;
  return issueMessage({
    user: userName(p),
    action: 'created',
    url: attributes.url,
    number: attributes.iid,
    message: description,
    assignees: assignees(p),
    title: withTitle ? attributes.title : null,
  });
}

const issueChanged =
  (action: string): Body =>
  (p, withTitle) =>
    issueMessage({
      user: userName(p),
      action,
      url: p.object_attributes.url,
      number: p.object_attributes.iid,
      title: withTitle ? p.object_attributes.title : null,
    });

/**
 * A merge request's line: its branches when it was opened or merged, its description and
 * assignees (`details`) when it was opened or updated.
 */
const mergeRequest =
  (action: string, details = false): Body =>
  (p, withTitle) => {
    const mr = p.object_attributes;
    const branches = action === 'merged' || action === 'created';
    return pullRequestMessage({
      user: userName(p),
      action,
      url: mr.url,
      number: mr.iid,
      targetBranch: branches ? mr.source_branch : null,
      baseBranch: branches ? mr.target_branch : null,
      ...(details ? { message: mr.description, assignees: assignees(p) } : {}),
      type: 'MR',
      title: withTitle ? mr.title : null,
    });
  };

const commentedOn =
  (type: string, target: (p: Payload) => { url: string; number: number; title: string }): Body =>
  (p, withTitle) => {
    const { url, number, title } = target(p);
    return pullRequestMessage({
      user: userName(p),
      action: `[commented](${p.object_attributes.url}) on`,
      url,
      number,
      message: p.object_attributes.note,
      type,
      title: withTitle ? title : null,
    });
  };

const wikiPage =
  (action: string): Body =>
  (p) =>
    `${userName(p)} ${action} [wiki page "${p.object_attributes.title}"](${p.object_attributes.url}).`;

function statusAction(status: string, createdWord: string): string {
  if (status === createdWord) return 'was created';
  if (status === 'running') return 'started';
  return `changed status to ${status}`;
}

const build: Body = (p) => `Build ${p.build_name} from ${p.build_stage} stage ${statusAction(p.build_status, 'created')}.`;

const BODIES: Record<string, Body> = {
  'Push Hook': (p) => {
    if (truthy(p.after) && p.after === EMPTY_SHA) return removeBranchMessage(p.user_name, branchOf(p));
    return pushMessage({
      user: p.user_name,
      compareUrl: `${homepage(p)}/-/compare/${p.before}...${p.after}`,
      branch: branchOf(p),
      commits: (p.commits as Payload[]).map((c) => ({ name: c.author.name, sha: c.id, message: c.message, url: c.url })),
    });
  },
  'Tag Push Hook': (p) =>
    pushTagMessage(p.user_name, String(p.ref).replace('refs/tags/', ''), null, truthy(p.checkout_sha) ? 'pushed' : 'removed'),
  'Test Hook': (p) => `Webhook for **${repoName(p)}** has been configured successfully! :tada:`,
  'Issue Hook open': issueCreated,
  'Issue Hook close': issueChanged('closed'),
  'Issue Hook reopen': issueChanged('reopened'),
  'Issue Hook update': issueChanged('updated'),
  'Confidential Issue Hook open': issueCreated,
  'Confidential Issue Hook close': issueChanged('closed'),
  'Confidential Issue Hook reopen': issueChanged('reopened'),
  'Confidential Issue Hook update': issueChanged('updated'),
  'Note Hook Commit': (p) =>
    commitCommentMessage(userName(p), `[commented](${p.object_attributes.url})`, p.commit.url, p.commit.id, p.object_attributes.note),
  'Note Hook MergeRequest': commentedOn('MR', (p) => ({ url: p.merge_request.url, number: p.merge_request.iid, title: p.merge_request.title })),
  'Note Hook Issue': commentedOn('issue', (p) => ({ url: p.issue.url, number: p.issue.iid, title: p.issue.title })),
  'Confidential Note Hook Issue': commentedOn('issue', (p) => ({ url: p.issue.url, number: p.issue.iid, title: p.issue.title })),
  'Note Hook Snippet': commentedOn('snippet', (p) => ({
    // Snippets carry their URL from GitLab 16.1 on.
    url: 'url' in p.snippet ? p.snippet.url : `${p.project.web_url}/-/snippets/${p.snippet.id}`,
    number: p.snippet.id,
    title: p.snippet.title,
  })),
  'Merge Request Hook approved': mergeRequest('approved'),
  'Merge Request Hook unapproved': mergeRequest('unapproved'),
  'Merge Request Hook open': mergeRequest('created', true),
  'Merge Request Hook update': (p, withTitle) =>
    truthy(p.object_attributes.oldrev) ? mergeRequest('added commit(s) to')(p, withTitle) : mergeRequest('updated', true)(p, withTitle),
  'Merge Request Hook merge': mergeRequest('merged'),
  'Merge Request Hook close': mergeRequest('closed'),
  'Merge Request Hook reopen': mergeRequest('reopened'),
  'Wiki Page Hook create': wikiPage('created'),
  'Wiki Page Hook update': wikiPage('updated'),
  'Job Hook': build,
  'Build Hook': build,
  'Pipeline Hook': (p) => {
    const pipeline = p.object_attributes;
    const home = homepage(p);
    const builds = (p.builds as Payload[]).map((b) => {
      const url = `${home}/-/jobs/${b.id}`;
      const artifact = b.artifacts_file?.filename;
      const artifactLine = truthy(artifact)
        ? `  * built artifact: *${artifact}* [[Browse](${url}/artifacts/browse)|[Download](${url}/artifacts/download)]\n`
        : '';
      return `* [${b.name}](${url}) - ${b.status}\n${artifactLine}`;
    });
    const list = builds.join('').slice(0, -1);
    return `[Pipeline (${pipeline.id})](${home}/-/pipelines/${pipeline.id}) ${statusAction(pipeline.status, 'pending')} with build(s):\n${list}.`;
  },
  'Release Hook': (p) => {
    const action = `${p.action}d`;
    if (p.action === 'delete') return `Release ${p.name} for tag ${p.tag} was ${action}.`;
    let text = `Release [${p.name}](${p.url}) for tag ${p.tag} was ${action}.`;
    if ('description' in p) text += quoted(p.description);
    return text;
  },
};

/** Python's str.title(), by which Zulip turns a system hook's event_name into a hook's title. */
function titleCase(text: string): string {
  return text.toLowerCase().replace(/(^|[^a-z])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase());
}

function topicOf(event: string, p: Payload, withMergeRequestTitle: boolean): string {
  const repo = repoName(p);
  if (event === 'Push Hook') return `${repo} / ${branchOf(p)}`;
  if (event === 'Job Hook' || event === 'Build Hook') return `${p.repository.name} / ${branchOf(p)}`;
  if (event === 'Pipeline Hook') return `${repo} / ${String(p.object_attributes.ref).replace('refs/heads/', '')}`;
  if (event.startsWith('Merge Request Hook')) {
    return issueTopic(repo, 'MR', p.object_attributes.iid, withMergeRequestTitle ? p.object_attributes.title : '');
  }
  if (event.startsWith('Issue Hook') || event.startsWith('Confidential Issue Hook')) {
    return issueTopic(repo, 'issue', p.object_attributes.iid, p.object_attributes.title);
  }
  if (event === 'Note Hook Issue' || event === 'Confidential Note Hook Issue') return issueTopic(repo, 'issue', p.issue.iid, p.issue.title);
  if (event === 'Note Hook MergeRequest') {
    return issueTopic(repo, 'MR', p.merge_request.iid, withMergeRequestTitle ? p.merge_request.title : '');
  }
  if (event === 'Note Hook Snippet') return issueTopic(repo, 'snippet', p.snippet.id, p.snippet.title);
  return repo;
}

export const gitlab: Integration = {
  name: 'gitlab',
  displayName: 'GitLab',
  eventTypes: Object.keys(BODIES),
  urlOptions: [BRANCHES_OPTION],
  handle(request) {
    let event = request.requireHeader('X-GitLab-Event');
    const p = request.json();
    if (event === 'System Hook') {
      const name = String('event_name' in p ? p.event_name : p.object_kind);
      event = `${titleCase(name.split('__')[0].replace(/_/g, ' '))} Hook`;
    }
    if (['Confidential Issue Hook', 'Issue Hook', 'Merge Request Hook', 'Wiki Page Hook'].includes(event)) {
      event = `${event} ${p.object_attributes.action ?? 'open'}`;
    } else if (event === 'Confidential Note Hook' || event === 'Note Hook') {
      event = `${event} ${p.object_attributes.noteable_type}`;
    } else if (event === 'Push Hook' && !request.wantsBranch(branchOf(p))) {
      return null;
    }
    const body = BODIES[event];
    if (!body) throw new UnsupportedEvent(event);
    const topicParam = request.param('topic');
    let content = body(p, topicParam !== undefined);
    // With one topic for every event, each message says which project it is about.
    if (topicParam) content = `[[${repoName(p)}](${homepage(p)})] ${content}`;
    const withMergeRequestTitle = request.param('use_merge_request_title') !== 'false';
    return { topic: topicOf(event, p, withMergeRequestTitle), content, event };
  },
};

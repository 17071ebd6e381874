/**
 * What the git integrations (GitHub, GitLab, Gitea, Gogs, Bitbucket ...) say alike: pushes
 * and their commit lists, branches and tags, issue and pull-request lines, worded as Zulip
 * words them so that a channel reads the same whichever service sent the event.
 */

/** At most this many commits are listed; the rest are counted. */
export const COMMITS_LIMIT = 20;
/** At most this many committers are named; the rest are "others". */
const COMMITTERS_LIMIT = 3;
/** The SHA every git service sends for "no commit" (a new or deleted branch). */
export const EMPTY_SHA = '0000000000000000000000000000000000000000';

/** Python's string.punctuation: a title ending in one of these gets no period added. */
const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

export function endsWithPunctuation(text: string): boolean {
  return text.length > 0 && PUNCTUATION.has(text[text.length - 1]);
}

export interface Commit {
  /** The committer's (or author's) name, as the service reports it. */
  name: string;
  sha: string;
  message: string;
  url: string | null | undefined;
}

export function shortSha(sha: string): string {
  return sha.slice(0, 11);
}

/** Topic of a branch's events: "repo / branch". */
export function branchTopic(repo: string, branch: string): string {
  return `${repo} / ${branch}`;
}

/** Topic of an issue's or a pull request's events: "repo / PR #12 Title". */
export function issueTopic(repo: string, type: string, id: number | string, title: string): string {
  return `${repo} / ${type} #${id} ${title}`;
}

/** Topic of a release's events: "repo / v1.0 Title". */
export function releaseTopic(repo: string, tag: string, title: string): string {
  return `${repo} / ${tag} ${title}`;
}

/** A bulleted list of commits, first lines only, with a count of those past the limit. */
export function commitList(commits: readonly Commit[], truncated = false): string {
  let text = '';
  for (const commit of commits.slice(0, COMMITS_LIMIT)) {
    text += `* ${commit.message.split('\n')[0]} ([${shortSha(commit.sha)}](${commit.url ?? 'None'}))\n`;
  }
  if (commits.length > COMMITS_LIMIT) text += `[and ${commits.length - COMMITS_LIMIT} more commit(s)]`;
  else if (truncated) text += '[and more commit(s)]';
  return text.trimEnd();
}

/** Committers by number of commits (ties by name), the fourth and later counted as "others". */
function committers(commits: readonly Commit[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const commit of commits) counts.set(commit.name, (counts.get(commit.name) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (sorted.length <= COMMITTERS_LIMIT) return sorted;
  const others = sorted.slice(COMMITTERS_LIMIT).reduce((sum, [, n]) => sum + n, 0);
  return [...sorted.slice(0, COMMITTERS_LIMIT), ['others', others]];
}

/** "A (2), B (1) and C (1)". */
function committerSummary(list: ReadonlyArray<[string, number]>): string {
  const parts = list.map(([name, n]) => `${name} (${n})`);
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** A push of commits to a branch, or of none (a new or force-pushed branch), or a deleted branch. */
export function pushMessage(push: {
  user: string;
  compareUrl: string | null | undefined;
  branch: string;
  commits: readonly Commit[];
  truncated?: boolean;
  deleted?: boolean;
  forced?: boolean | null;
}): string {
  const { user, compareUrl, branch, commits } = push;
  if (commits.length === 0 && push.deleted) return `${user} [deleted](${compareUrl ?? 'None'}) the branch ${branch}.`;
  const pushed = push.forced ? 'force pushed' : 'pushed';
  if (commits.length === 0) {
    return compareUrl ? `${user} [${pushed}](${compareUrl}) the branch ${branch}.` : `${user} ${pushed} the branch ${branch}.`;
  }
  const count = `${commits.length} commit${commits.length > 1 ? 's' : ''}`;
  const pushedText = compareUrl ? `[${pushed}](${compareUrl}) ${count}` : `${pushed} ${count}`;
  const who = committers(commits);
  const list = commitList(commits, push.truncated);
  const by = who.length === 1 && who[0][0] === user ? '' : ` Commits by ${committerSummary(who)}.`;
  return `${user} ${pushedText} to branch ${branch}.${by}\n\n${list}`.trimEnd();
}

export function forcePushMessage(user: string, url: string, branch: string, head: string): string {
  return `${user} [force pushed](${url}) to branch ${branch}. Head is now ${head}.`;
}

export function createBranchMessage(user: string, url: string | null, branch: string): string {
  return url === null ? `${user} created ${branch} branch.` : `${user} created [${branch}](${url}) branch.`;
}

export function removeBranchMessage(user: string, branch: string): string {
  return `${user} deleted branch ${branch}.`;
}

/** A quoted block of text under an event line. */
export function quoted(text: string): string {
  return `\n~~~ quote\n${text}\n~~~`;
}

export interface IssueLine {
  user: string;
  action: string;
  url: string;
  number?: number | string | null;
  /** Source and target branches of a pull request. */
  targetBranch?: string | null;
  baseBranch?: string | null;
  /** Text quoted below the line (a description, a comment). */
  message?: string | null;
  assignee?: string | null;
  assignees?: ReadonlyArray<{ username: string }> | null;
  /** Who was assigned or unassigned, for those actions. */
  assigneeUpdated?: string | null;
  reviewer?: string | null;
  /** "PR", "issue", "MR" ... */
  type?: string;
  title?: string | null;
}

/** "user opened [PR #12 Title](url) from `a` to `b` (assigned to c):" and the quoted text. */
export function pullRequestMessage(line: IssueLine): string {
  const type = line.type ?? 'PR';
  const id = line.number !== undefined && line.number !== null ? ` #${line.number}` : '';
  const title = line.title !== undefined && line.title !== null ? ` ${line.title}` : '';
  const assigneePart =
    line.action === 'assigned' ? ` ${line.assigneeUpdated} to` : line.action === 'unassigned' ? ` ${line.assigneeUpdated} from` : '';
  let text = `${line.user} ${line.action}${assigneePart} [${type}${id}${title}](${line.url})`;
  const branches = Boolean(line.targetBranch && line.baseBranch);
  if (branches) text += ` from \`${line.targetBranch}\` to \`${line.baseBranch}\``;
  const assignees = line.assignees && line.assignees.length > 0 ? line.assignees : null;
  if (assignees) text += ` (assigned to ${assigneeNames(assignees)})`;
  else if (line.assignee) text += ` (assigned to ${line.assignee})`;
  else if (line.reviewer) text += ` (assigned reviewers: ${line.reviewer})`;
  const punctuation = line.message ? ':' : '.';
  const hasTitle = line.title !== undefined && line.title !== null;
  if (assignees || line.assignee || branches || !hasTitle || !endsWithPunctuation(line.title!)) text += punctuation;
  if (line.message) text += `\n${quoted(line.message)}`;
  return text.trimEnd();
}

/** The same line for an issue. */
export function issueMessage(line: Omit<IssueLine, 'targetBranch' | 'baseBranch' | 'reviewer' | 'type'>): string {
  return pullRequestMessage({ ...line, type: 'issue' });
}

/** "a", "a and b", "a, b and c". */
export function assigneeNames(assignees: ReadonlyArray<{ username: string }>): string {
  const names = assignees.map((a) => a.username);
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

export function issueLabelMessage(e: {
  user: string;
  userUrl: string;
  action: 'added' | 'removed';
  url: string;
  number: number;
  label: string;
  title?: string | null;
}): string {
  const issue = e.title != null ? `Issue #${e.number} ${e.title}` : `Issue #${e.number}`;
  return `[${e.user}](${e.userUrl}) ${e.action} the ${e.label} label ${e.action === 'added' ? 'to' : 'from'} [${issue}](${e.url}).`;
}

export function issueMilestoneMessage(e: {
  user: string;
  userUrl: string;
  action: 'added' | 'removed';
  url: string;
  number: number;
  milestone: string;
  milestoneUrl: string;
  title?: string | null;
}): string {
  const issue = e.title != null ? `issue #${e.number} ${e.title}` : `issue #${e.number}`;
  return `[${e.user}](${e.userUrl}) ${e.action} milestone [${e.milestone}](${e.milestoneUrl}) ${e.action === 'added' ? 'to' : 'from'} [${issue}](${e.url}).`;
}

/** A tag pushed (or removed): "user pushed tag [v1](url)." */
export function pushTagMessage(user: string, tag: string, tagUrl?: string | null, action = 'pushed'): string {
  const text = `${user} ${action} tag ${tagUrl ? `[${tag}](${tagUrl})` : tag}`;
  return endsWithPunctuation(tag) ? text : `${text}.`;
}

/** A comment on a commit, with the comment quoted. */
export function commitCommentMessage(user: string, action: string, url: string, sha: string, message?: string | null): string {
  let text = `${user} ${action} on [${shortSha(sha)}](${url})${message ? ':' : '.'}`;
  if (message) text += quoted(message);
  return text;
}

export function releaseMessage(user: string, action: string, tag: string, name: string, url: string): string {
  return `${user} ${action} release [${name}](${url}) for tag ${tag}.`;
}

import { badRequest } from '../http/errors';
import { UnsupportedEvent } from './errors';
import { branchTopic, pushMessage } from './git';
import { list, str } from './payload';
import { BRANCHES_OPTION, type Integration } from './types';

/** RhodeCode's repository pushes, in the "repo / branch" topic. */

type Payload = any;

/** The pushed branch; a push that deletes a remote branch names none, its commit says "old=>branch". */
function pushBranch(push: Payload): string {
  const branches = list(push, 'branches');
  if (branches.length > 0) return str(branches[0], 'name');
  const commits = list(push, 'commits');
  if (commits.length === 0) throw badRequest('commits[0] is missing');
  const target = str(commits[0], 'raw_id').split('=>')[1];
  if (target === undefined) throw badRequest('raw_id names no branch');
  return target;
}

export const rhodecode: Integration = {
  name: 'rhodecode',
  displayName: 'RhodeCode',
  // Zulip lists the event but sends its messages without one, so filters never drop them.
  eventTypes: ['repo-push'],
  urlOptions: [BRANCHES_OPTION],
  handle(request) {
    const event = request.json()?.event;
    const name = str(event, 'name');
    if (name !== 'repo-push') throw new UnsupportedEvent(name);
    const push = event.push;
    const branch = pushBranch(push);
    if (!request.wantsBranch(branch)) return null;
    const commits = list(push, 'commits').map((commit: Payload) => ({
      name: str(commit, 'author'),
      sha: str(commit, 'raw_id'),
      url: str(commit, 'url'),
      message: str(commit, 'message'),
    }));
    const user = str(event.actor, 'username');
    return { topic: branchTopic(str(event.repo, 'repo_name'), branch), content: pushMessage({ user, compareUrl: null, branch, commits }) };
  },
};

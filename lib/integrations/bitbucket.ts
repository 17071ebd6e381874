import { branchTopic, pushMessage } from './git';
import type { Integration } from './types';

/** Bitbucket's old POST service (before webhooks): a push and its commits, authenticated by HTTP Basic. */
export const bitbucket: Integration = {
  name: 'bitbucket',
  displayName: 'Bitbucket',
  unquoteParameters: true,
  handle(request) {
    const p = request.json();
    const repo = p.repository;
    const user: string = p.user ?? 'Someone';
    const commits = (p.commits as any[]).map((commit) => ({
      name: 'author' in commit ? commit.author : user,
      sha: commit.raw_node,
      message: commit.message,
      url: `${p.canon_url}${repo.absolute_url}commits/${commit.raw_node}`,
    }));
    // A push without commits says too little for more than this.
    if (commits.length === 0) return { topic: repo.name, content: `${user} [force pushed](${p.canon_url}${repo.absolute_url}).` };
    const branch: string = p.commits.at(-1).branch;
    if (!request.wantsBranch(branch)) return null;
    return { topic: branchTopic(repo.name, branch), content: pushMessage({ user, compareUrl: null, branch, commits }) };
  },
};

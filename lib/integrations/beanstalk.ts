import { branchTopic, pushMessage } from './git';
import { jsonParam } from './payload';
import type { Integration } from './types';

/** Beanstalk's web hooks for Git pushes and Subversion commits (a form field `payload`), authenticated by HTTP Basic. */
export const beanstalk: Integration = {
  name: 'beanstalk',
  displayName: 'Beanstalk',
  basicAuthEmailEscaped: true,
  handle(request) {
    const p = jsonParam(request, 'payload');
    // Only Git repositories' payloads have a `uri`.
    if ('uri' in p) {
      if (!request.wantsBranch(p.branch)) return null;
      const branch = String(p.ref).replace(/^refs\/heads\//, '');
      const commits = (p.commits as any[]).map((commit) => ({ name: commit.author.name, sha: commit.id, url: commit.url, message: commit.message }));
      return { topic: branchTopic(p.repository.name, branch), content: pushMessage({ user: p.pusher_name, compareUrl: p.repository.url, branch, commits }) };
    }
    const summary = String(p.message).split('\n')[0];
    return { topic: `svn r${p.revision}`, content: `${p.author_full_name} pushed [revision ${p.revision}](${p.changeset_url}):\n\n> ${summary}` };
  },
};

import { shortSha } from './git';
import type { Integration } from './types';

/** Semaphore CI: Classic's build and deploy notifications, and Semaphore 2.0's pipeline notifications. */

type Payload = any;

const firstLine = (text: string) => text.split(/\r\n|\r|\n/)[0];

function classic(p: Payload): { content: string; project: string; branch: string; event: string } {
  const commit = p.commit;
  const commitLine = `* **Commit**: [${shortSha(commit.id)}: ${firstLine(commit.message)}](${commit.url})\n* **Author**: ${commit.author_email}`;
  const event: string = p.event;
  let content: string;
  if (event === 'build') content = `[Build ${p.build_number}](${p.build_url}) ${p.result}:\n${commitLine}`;
  else if (event === 'deploy') {
    content = `[Deploy ${p.number}](${p.html_url}) of [build ${p.build_number}](${p.build_html_url}) ${p.result}:\n${commitLine}\n* **Server**: ${p.server_name}`;
  } else content = `${event}: ${p.result}`;
  return { content, project: p.project_name, branch: p.branch_name, event };
}

/** Semaphore 2.0 builds GitHub repositories, whose links it leaves to us; other hosts get none. */
function pipeline(p: Payload): { content: string; project: string; branch: string; event: string } {
  const repoUrl: string = p.repository.url;
  const github = new URL(repoUrl).hostname === 'github.com';
  const revision = p.revision;
  const author: string = revision.sender.login;
  const authorText = github ? `[${author}](https://github.com/${author})` : author;
  const head = `[${p.pipeline.name}](https://${p.organization.name}.semaphoreci.com/workflows/${p.workflow.id}) pipeline **${p.pipeline.result}**`;
  const event: string = revision.reference_type;
  if (event === 'branch') {
    const sha: string = revision.commit_sha;
    const message = firstLine(revision.commit_message);
    const commit = github ? `[(${shortSha(sha)})](${repoUrl}/commit/${sha}) ${message}` : `(${shortSha(sha)}) ${message}`;
    const branch: string = revision.branch.name;
    return { content: `${head}:\n* **Commit**: ${commit}\n* **Branch**: ${branch}\n* **Author**: ${authorText}`, project: p.project.name, branch, event };
  }
  if (event === 'pull_request') {
    const pr = revision.pull_request;
    const branch: string = pr.branch_name;
    const prText = github ? `[${pr.name}](${repoUrl}/pull/${pr.number})` : `${pr.name} (#${pr.number})`;
    return { content: `${head}:\n* **Pull request**: ${prText}\n* **Branch**: ${branch}\n* **Author**: ${authorText}`, project: p.project.name, branch, event };
  }
  if (event === 'tag') {
    const tag: string = revision.tag.name;
    const tagText = github ? `[${tag}](${repoUrl}/tree/${tag})` : tag;
    return { content: `${head}:\n* **Tag**: ${tagText}\n* **Author**: ${authorText}`, project: p.project.name, branch: '', event };
  }
  return { content: `${head} for ${event} event`, project: p.project.name, branch: '', event };
}

export const semaphore: Integration = {
  name: 'semaphore',
  displayName: 'Semaphore',
  eventTypes: ['build', 'tag', 'unknown', 'branch', 'deploy', 'pull_request'],
  handle(request) {
    const p = request.json();
    const { content, project, branch, event } = 'event' in p ? classic(p) : pipeline(p);
    return { topic: branch ? `${project}/${branch}` : project, content, event };
  },
};

import { str } from './payload';
import type { Integration } from './types';
import { shortSha } from './git';

/** GoCD's stage notifications: a stage building, then its result with its jobs grouped by result. */

type Payload = any;

function commitLine(pipeline: Payload): string {
  const cause = pipeline['build-cause'][0];
  const git = cause.material['git-configuration'];
  const sha = shortSha(str(cause.modifications[0], 'revision'));
  return `[\`${sha}\`](${str(git, 'url')}/commit/${sha}) on branch \`${str(git, 'branch')}\``;
}

/** "- **Failed**: `a`, `b`" lines, one per result in the order results first appear. */
function jobLines(jobs: readonly Payload[]): string[] {
  const byResult = new Map<string, string[]>();
  for (const job of jobs) {
    const result = str(job, 'result');
    byResult.set(result, [...(byResult.get(result) ?? []), `\`${str(job, 'name')}\``]);
  }
  return [...byResult].map(([result, names]) => `- **${result}**: ${names.join(', ')}`);
}

export const gocd: Integration = {
  name: 'gocd',
  displayName: 'Gocd',
  menuName: 'GoCD',
  handle(request) {
    const payload = request.json();
    if (str(payload, 'type') !== 'stage') return null;
    const pipeline = payload.data.pipeline;
    const stage = pipeline.stage;
    const name = `${str(pipeline, 'name')} / ${str(stage, 'name')}`;
    const status = str(stage, 'state').toLowerCase();
    const commit = `- **Commit**: ${commitLine(pipeline)}\n- **Started**: ${str(stage, 'create-time')}`;
    if (status === 'building') return { topic: name, content: `**Pipeline ${status}**: ${name}\n${commit}` };
    const emoji = str(stage, 'result') === 'Passed' ? ':green_circle:' : ':red_circle:';
    const lines = [`${emoji} **Build ${status}**: ${name}`, commit, `- **Finished**: ${str(stage, 'last-transition-time')}`, ...jobLines(stage.jobs)];
    return { topic: name, content: lines.join('\n') };
  },
};

import { badRequest } from '../http/errors';
import { shortSha } from './git';
import type { Integration } from './types';

type Payload = any;

const OUTCOMES: Record<string, string> = {
  success: 'has succeeded',
  failed: 'has failed',
  canceled: 'was canceled',
  unauthorized: 'was unauthorized',
  error: 'had an error',
};

/** Which commit set the pipeline off, for GitHub, Bitbucket and GitLab projects. */
function trigger(pipeline: Payload): string {
  if ('vcs' in pipeline) {
    const vcs = pipeline.vcs;
    const sha = shortSha(vcs.revision);
    const link = `${vcs.target_repository_url}/${vcs.provider_name === 'github' ? 'commit' : 'commits'}/${vcs.revision}`;
    const subject = vcs.commit?.subject;
    if (!subject) {
      // Run by hand: on a branch's head, or on the latest tag.
      return vcs.branch ? `Triggered on \`${vcs.branch}\`'s HEAD on [${sha}](${link}).` : `Triggered on the latest tag on [${sha}](${link}).`;
    }
    return `Triggered on [\`${sha}: ${subject}\`](${link}) on branch \`${vcs.branch}\` by ${vcs.commit.author.name}.`;
  }
  const gitlab = pipeline.trigger_parameters.gitlab;
  const link = `${gitlab.web_url}/-/commit/${gitlab.checkout_sha}`;
  return `Triggered on [\`${shortSha(gitlab.checkout_sha)}: ${gitlab.commit_title}\`](${link}) on branch \`${gitlab.branch}\` by ${gitlab.commit_author_name}.`;
}

/** CircleCI's webhooks: completed jobs and workflows, in a topic per project. */
export const circleci: Integration = {
  name: 'circleci',
  displayName: 'CircleCI',
  eventTypes: ['ping', 'job-completed', 'workflow-completed'],
  handle(request) {
    const p = request.json();
    const type: string = p.type;
    if (type === 'ping') return { topic: 'Test event', content: `Webhook '${p.webhook.name}' test event successful.`, event: type };
    const pipeline = p.pipeline;
    if ('trigger_parameters' in pipeline && pipeline.trigger.type !== 'gitlab') {
      throw badRequest("Projects using this version control system provider aren't supported");
    }
    let head: string;
    if (type === 'job-completed') head = `Job \`${p.job.name}\` within Pipeline #${pipeline.number} ${OUTCOMES[p.job.status] ?? 'None'}.`;
    else if (type === 'workflow-completed') {
      head = `Workflow [\`${p.workflow.name}\`](${p.workflow.url}) within Pipeline #${pipeline.number} ${OUTCOMES[p.workflow.status] ?? 'None'}.`;
    } else throw badRequest(`type is not one of 'job-completed', 'workflow-completed'`);
    return { topic: p.project.name, content: `${head}\n\n${trigger(pipeline)}`, event: type };
  },
};

import { badRequest } from '../http/errors';
import { num, str } from './payload';
import type { Integration } from './types';

/** Rundeck's job notifications: an execution started, running long, succeeded or failed. */

type Payload = any;

/** What each execution status reads as, and its emoji. */
function outcome(payload: Payload, status: string): [string, string] {
  if (status === 'failed') return ['has failed', 'cross_mark'];
  if (status === 'succeeded') return ['has succeeded', 'check'];
  if (status === 'running' && str(payload, 'trigger') === 'avgduration') return ['is running long', 'time_ticking'];
  if (status === 'running' || status === 'scheduled') return ['has started', 'running'];
  throw badRequest(`Unknown execution status: ${status}`);
}

export const rundeck: Integration = {
  name: 'rundeck',
  displayName: 'Rundeck',
  handle(request) {
    const payload = request.json();
    const execution = payload?.execution;
    const name = str(execution?.job, 'name');
    const link = str(execution.job, 'permalink');
    const id = num(execution, 'id');
    const href = str(execution, 'href');
    const project = str(execution, 'project');
    const [status, emoji] = outcome(payload, str(execution, 'status'));
    return { topic: name, content: `[${name}](${link}) execution [#${id}](${href}) for ${project} ${status}. :${emoji}:` };
  },
};

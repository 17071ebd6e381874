import { badRequest } from '../http/errors';
import { jsonParam, pythonStr, truthy } from './payload';
import type { Integration } from './types';

/**
 * Librato's alerts (the JSON in a `payload` field) and chart snapshots (Slack-style attachments
 * in a JSON body). Its messages link the alert under the words "alert_name", as Zulip's do.
 */

type Payload = any;

/** "2016-03-31 09:11:42": seconds since the epoch, in UTC. */
function utcTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) throw badRequest(`Invalid time: ${seconds}`);
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

const alertUrl = (alert: Payload) => `https://metrics.librato.com/alerts#/${alert.id}`;

function cleared(p: Payload): string {
  return `Alert [alert_name](${alertUrl(p.alert)}) has cleared at ${utcTime(p.trigger_time)} UTC!`;
}

/** The alert, its runbook, and a line per violated condition (conditions and violations paired in order). */
function violated(p: Payload): string {
  let content = `Alert [alert_name](${alertUrl(p.alert)}) has triggered! `;
  if (truthy(p.alert.runbook_url)) content += `[Reaction steps](${p.alert.runbook_url}):`;
  const conditions: Payload[] = p.conditions;
  // Librato names the violations' source "test-source" in every alert Zulip has seen.
  const violations: Payload[] = p.violations['test-source'];
  for (let i = 0; i < Math.min(conditions.length, violations.length); i++) {
    const condition = conditions[i];
    const threshold = 'threshold' in condition ? pythonStr(condition.threshold) : '';
    content += `\n * Metric \`${violations[i].metric}\`, ${condition.summary_function} was ${condition.type} ${threshold}`;
    if (truthy(condition.duration)) content += ` by ${pythonStr(condition.duration)}s`;
    content += `, recorded at ${utcTime(violations[i].recorded_at)} UTC.`;
  }
  return content;
}

function snapshots(attachments: readonly Payload[]): string {
  return attachments.map((a) => `**${a.author_name}** sent a [snapshot](${a.image_url}) of [metric](${a.title}).`).join('');
}

export const librato: Integration = {
  name: 'librato',
  displayName: 'Librato',
  handle(request) {
    const payload: Payload = request.param('payload') === undefined ? {} : jsonParam(request, 'payload');
    let attachments: Payload[] = [];
    try {
      attachments = JSON.parse(request.raw).attachments ?? [];
    } catch {
      // An alert comes form-encoded: no attachments.
    }
    if (!truthy(attachments) && !truthy(payload)) throw badRequest('Malformed JSON input');
    const topic = truthy(attachments) ? 'Snapshots' : `Alert ${payload.alert.name}`;
    let content: string;
    if (truthy(payload.clear)) content = cleared(payload);
    else if (truthy(payload.violations)) content = violated(payload);
    else if (attachments.length > 0 && truthy(attachments[0].image_url)) content = snapshots(attachments);
    else throw badRequest('Unexpected message type');
    return { topic, content };
  },
};

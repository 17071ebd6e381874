import { UnsupportedEvent } from './errors';
import { num, pythonRepr, str } from './payload';
import type { Integration } from './types';

/** Harbor's registry events: images pushed and scanned, in the repository's topic. */

type Payload = any;

const REPORT_TYPE = 'application/vnd.security.vulnerability.report; version=1.1';

/** Events Harbor sends that post nothing. */
const IGNORED = new Set(['DOWNLOAD_CHART', 'DELETE_CHART', 'UPLOAD_CHART', 'PULL_ARTIFACT', 'DELETE_ARTIFACT', 'SCANNING_FAILED']);

/** "repo:tag", or "repo@digest" for an image pushed without a tag. */
function imageId(p: Payload): string {
  const resource = p.event_data.resources[0];
  const name = str(p.event_data.repository, 'repo_full_name');
  return 'tag' in resource ? `${name}:${str(resource, 'tag')}` : `${name}@${str(resource, 'digest')}`;
}

function scanCompleted(p: Payload): string {
  const overview = p.event_data.resources[0].scan_overview;
  if (!(REPORT_TYPE in overview)) throw new UnsupportedEvent(pythonRepr(Object.keys(overview)));
  const summary: Record<string, unknown> = overview[REPORT_TYPE].summary.summary;
  const counts = Object.keys(summary).map((severity) => `* ${severity}: **${num(summary, severity)}**`);
  return `Image scan completed for \`${imageId(p)}\`. Vulnerabilities by severity:\n\n${counts.length > 0 ? counts.join('\n') : 'None'}`;
}

const EVENTS: Record<string, (p: Payload, operator: string) => string> = {
  // Zulip looks for a person named like the operator, but with the name already in bold, so it
  // finds none: the operator is always shown as Harbor names them.
  PUSH_ARTIFACT: (p, operator) => `${operator} pushed image \`${imageId(p)}\``,
  SCANNING_COMPLETED: (p) => scanCompleted(p),
};

export const harbor: Integration = {
  name: 'harbor',
  displayName: 'Harbor',
  eventTypes: Object.keys(EVENTS),
  unquoteParameters: true,
  handle(request) {
    const p = request.json();
    const operator = `**${str(p, 'operator')}**`;
    const event = str(p, 'type');
    const topic = str(p.event_data.repository, 'repo_full_name');
    if (IGNORED.has(event)) return null;
    if (!Object.hasOwn(EVENTS, event)) throw new UnsupportedEvent(event);
    return { topic, content: EVENTS[event](p, operator), event };
  },
};

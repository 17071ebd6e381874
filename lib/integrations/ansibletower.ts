import type { Integration } from './types';

/** Ansible Tower's (AWX's) job notifications; a playbook job lists how each host fared. */

type Payload = any;

/** The kind of job: Tower's friendly name, or the kind its URL names ("Job" for /jobs/). */
function kindOf(p: Payload): string {
  if (p.friendly_name) return p.friendly_name;
  const segment: string = String(p.url).split('/').at(-3)!;
  return segment === 'jobs' ? 'Job' : segment;
}

export const ansibletower: Integration = {
  name: 'ansibletower',
  displayName: 'AnsibleTower',
  handle(request) {
    const p = request.json();
    const kind = kindOf(p);
    const status = p.status === 'successful' ? 'was successful' : 'failed';
    const head = `${kind}: [#${p.id} ${p.name}](${p.url}) ${status}`;
    if (kind !== 'Job') return { topic: p.name, content: `${head}.` };
    const hosts = Object.entries(p.hosts as Record<string, Payload>)
      .map(([host, data]) => [host, data.failed ? 'Failed' : 'Success'])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([host, result]) => `* ${host}: ${result}\n`)
      .join('');
    return { topic: p.name, content: `${head}:\n${hosts}`.trim() };
  },
};

import { list } from './payload';
import type { Integration, WebhookMessage } from './types';

/** Prometheus Alertmanager: one message per topic (the `name` label) and state, its alerts listed. */
export const alertmanager: Integration = {
  name: 'alertmanager',
  displayName: 'Alertmanager',
  menuName: 'Prometheus Alertmanager',
  handle(request) {
    const nameField = request.param('name') ?? 'instance';
    const descField = request.param('desc') ?? 'alertname';
    const byTopic = new Map<string, { firing: string[]; resolved: string[] }>();
    for (const alert of list(request.json(), 'alerts')) {
      const labels = alert.labels ?? {};
      const annotations = alert.annotations ?? {};
      const name: string = labels[nameField] ?? annotations[nameField] ?? '(unknown)';
      const desc: string = labels[descField] ?? annotations[descField] ?? `<missing field: ${descField}>`;
      // Links to Prometheus's graph tab rather than its console tab.
      const url = String(alert.generatorURL).replaceAll('tab=1', 'tab=0');
      if (!byTopic.has(name)) byTopic.set(name, { firing: [], resolved: [] });
      const status: 'firing' | 'resolved' = alert.status;
      byTopic.get(name)![status].push(`${desc} ([source](${url}))`);
    }
    const messages: WebhookMessage[] = [];
    for (const [topic, states] of byTopic) {
      for (const [state, lines] of Object.entries(states)) {
        if (lines.length === 0) continue;
        const heading = state === 'firing' ? ':alert: **FIRING**' : ':squared_ok: **Resolved**';
        const content = lines.length === 1 ? `${heading} ${lines[0]}` : `${heading}\n${lines.map((line) => `* ${line}`).join('\n')}`;
        messages.push({ topic, content });
      }
    }
    return messages;
  },
};

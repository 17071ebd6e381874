import { pythonStr, truthy } from './payload';
import type { Integration, WebhookMessage } from './types';

/** Grafana's alerts: unified alerting (8.0 and later, a list of alerts) and the legacy single alert. */
export const grafana: Integration = {
  name: 'grafana',
  displayName: 'Grafana',
  // Unified alerting's statuses, then the legacy alert's states.
  eventTypes: ['firing', 'resolved', 'alerting', 'ok', 'no_data', 'paused', 'pending'],
  handle(request) {
    const p = request.json();
    return 'alerts' in p ? (p.alerts as any[]).map(unifiedAlert) : legacyAlert(p);
  },
};

function keyValueLines(record: Record<string, unknown>): string {
  return Object.entries(record)
    .map(([key, value]) => `- ${key}: ${pythonStr(value)}\n`)
    .join('');
}

function unifiedAlert(alert: any): WebhookMessage {
  const status: string = alert.status;
  let body = `${status === 'firing' ? ':alert:' : ':checkbox:'} **${status.toUpperCase()}**\n\n`;
  let topic: string;
  if (truthy(alert.labels.alertname)) {
    topic = `[${alert.labels.alertname}]`;
    body += `**${alert.labels.alertname}**\n\n`;
  } else topic = `[${alert.fingerprint}]`;
  body += `This alert was fired at <time:${alert.startsAt}>.`;
  if (alert.endsAt !== '0001-01-01T00:00:00Z') body += `\n\nThis alert was resolved at <time:${alert.endsAt}>.`;
  if (truthy(alert.labels)) body += `\n\nLabels:\n${keyValueLines(alert.labels)}\n`;
  if (truthy(alert.values)) body += `Values:\n${keyValueLines(alert.values)}\n`;
  else if (truthy(alert.valueString)) body += `Values:\n${alert.valueString}\n\n`;
  if (truthy(alert.annotations)) body += `Annotations:\n${keyValueLines(alert.annotations)}`;
  if (truthy(alert.generatorURL)) body += `\n[Generator](${alert.generatorURL})`;
  if (truthy(alert.silenceURL)) body += `\n[Silence](${alert.silenceURL})`;
  if (truthy(alert.imageURL)) body += `\n[Image](${alert.imageURL})`;
  return { topic, content: `${body}\n`, event: status };
}

const LEGACY_ICONS: Record<string, string> = { alerting: ':alert:', ok: ':squared_ok:' };

function legacyAlert(p: any): WebhookMessage {
  const matches = Array.isArray(p.evalMatches) ? (p.evalMatches as any[]).map((m) => `**${m.metric}:** ${pythonStr(m.value)}\n`).join('') : '';
  const text = 'message' in p ? `${p.message}\n\n` : '';
  const state: string = p.state;
  const status = `${LEGACY_ICONS[state] ?? ':info:'} **${state.toUpperCase()}**\n\n`;
  let body = `${status}[${p.ruleName}](${p.ruleUrl})\n\n${text}${matches}`;
  if ('imageUrl' in p) body += `\n[Click to view visualization](${p.imageUrl})`;
  return { topic: p.title, content: body.trim(), event: state };
}

import { badRequest } from '../http/errors';
import { num, str } from './payload';
import type { Integration } from './types';

/**
 * Thinkst Canary's generic webhook: a canary or a canarytoken triggered, with whatever details
 * the alert carries, one bold line each. (canarytokens.org's tokens are the canarytoken integration.)
 */

type Payload = any;

const isToken = (alert: Payload) => str(alert, 'AlertType') === 'CanarytokenIncident';

function body(alert: Payload): string {
  const token = isToken(alert);
  const name = token ? str(alert, 'Reminder') : str(alert, 'CanaryName');
  let text = `**:alert: ${token ? 'Canarytoken' : 'Canary'} *${name}* has been triggered!**\n\n${str(alert, 'Intro')}\n\n`;
  const line = (key: string, label: string, code: boolean) => {
    if (key in alert) text += code ? `**${label}:** \`${str(alert, key)}\`\n` : `**${label}:** ${str(alert, key)}\n`;
  };
  line('IncidentHash', 'Incident ID', true);
  line('Token', 'Token', true);
  line('Description', 'Kind', false);
  line('Timestamp', 'Timestamp', false);
  line('CanaryIP', 'Canary IP', true);
  line('CanaryLocation', 'Canary location', false);
  if ('Triggered' in alert) {
    const count = num(alert, 'Triggered');
    if (!Number.isInteger(count)) throw badRequest('Triggered is not an integer');
    text += `**Triggered:** ${count} ${count > 1 ? 'times' : 'time'}\n`;
  }
  const sourceIp = 'SourceIP' in alert ? str(alert, 'SourceIP') : '';
  // ReverseDNS may be there and empty.
  const reverseDns = 'ReverseDNS' in alert ? str(alert, 'ReverseDNS') : '';
  if (sourceIp) text += `**Source IP:** \`${sourceIp}\`\n`;
  if (reverseDns) text += `**Reverse DNS:** \`${reverseDns}\`\n`;
  if ('AdditionalDetails' in alert) {
    for (const detail of alert.AdditionalDetails as Payload[]) {
      const key = detail?.[0];
      const value = detail?.[1];
      if (typeof key !== 'string') throw badRequest('AdditionalDetails[0] is not a string');
      if (typeof value !== 'string' && !Number.isInteger(value)) throw badRequest('AdditionalDetails[1] is not a string or an integer');
      // Passwords come as runs of stars, which would read as emphasis.
      text += typeof value === 'string' && value.includes('*') ? `**${key}:** \`${value}\`\n` : `**${key}:** ${value}\n`;
    }
  }
  return text;
}

export const thinkst: Integration = {
  name: 'thinkst',
  displayName: 'Thinkst',
  handle(request) {
    const alert = request.json();
    const content = body(alert);
    const name = isToken(alert) ? str(alert, 'Reminder') : str(alert, 'CanaryName');
    // A `topic` in the URL replaces this one (the view applies it).
    return { topic: `${isToken(alert) ? 'canarytoken' : 'canary'} alert - ${name}`, content };
  },
};

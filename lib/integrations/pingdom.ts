import { UnsupportedEvent } from './errors';
import type { Integration } from './types';

/** Pingdom's check state changes, in a topic per check. */

const CHECK_TYPES = new Set(['HTTP', 'HTTP_CUSTOM', 'HTTPS', 'SMTP', 'POP3', 'IMAP', 'PING', 'DNS', 'UDP', 'PORT_TCP']);

export const pingdom: Integration = {
  name: 'pingdom',
  displayName: 'Pingdom',
  eventTypes: ['HTTP', 'HTTP_CUSTOM', 'HTTPS', 'SMTP', 'POP3', 'IMAP', 'PING', 'DNS', 'UDP', 'PORT_TCP'],
  handle(request) {
    const p = request.json();
    const type: string = p.check_type;
    if (!CHECK_TYPES.has(type)) throw new UnsupportedEvent(type);
    const change = `Service ${p.check_params.hostname} changed its ${type} status from ${p.previous_state} to ${p.current_state}`;
    const wentDown = p.current_state === 'DOWN' && p.previous_state === 'UP';
    const content = wentDown ? `${change}:\n\n\`\`\` quote\n${p.long_description}\n\`\`\`` : `${change}.`;
    return { topic: `${p.check_name} status.`, content, event: type };
  },
};

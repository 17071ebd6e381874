import { UnsupportedEvent } from './errors';
import { num, str } from './payload';
import type { Integration } from './types';

/**
 * GoSquared: traffic spikes and live-chat messages. Its payloads name no event, so the event
 * is told by which fields are there; private chat messages are not posted.
 */
export const gosquared: Integration = {
  name: 'gosquared',
  displayName: 'GoSquared',
  eventTypes: ['chat_message', 'traffic_spike'],
  handle(request) {
    const payload = request.json();
    if (payload !== null && typeof payload === 'object' && 'concurrents' in payload && 'siteDetails' in payload) {
      const domain = str(payload.siteDetails, 'domain');
      const account = str(payload.siteDetails, 'acct');
      return {
        topic: `GoSquared - ${domain}`,
        content: `[${domain}](https://www.gosquared.com/now/${account}) has ${num(payload, 'concurrents')} visitors online.`,
        event: 'traffic_spike',
      };
    }
    if (payload?.message != null && payload?.person != null) {
      const { message, person } = payload;
      if (typeof message.private !== 'boolean') throw new UnsupportedEvent('unknown_event');
      if (message.private) return null;
      return {
        topic: `Live chat session - ${str(message.session, 'title')}`,
        content: `The ${str(person, 'status')} **${str(person._anon, 'name')}** messaged:\n\`\`\` quote\n${str(message, 'content')}\n\`\`\``,
        event: 'chat_message',
      };
    }
    throw new UnsupportedEvent('unknown_event');
  },
};

import { requiredParam } from './payload';
import type { Integration } from './types';

/**
 * Zendesk: a trigger's own message, in the ticket's topic. Zendesk's triggers send the ticket
 * and the message as parameters, not as a payload.
 */
export const zendesk: Integration = {
  name: 'zendesk',
  displayName: 'Zendesk',
  handle(request) {
    const title = requiredParam(request, 'ticket_title');
    const id = requiredParam(request, 'ticket_id');
    const content = requiredParam(request, 'message');
    const topic = `#${id}: ${title}`;
    return { topic: topic.length > 60 ? `${topic.slice(0, 57)}...` : topic, content };
  },
};

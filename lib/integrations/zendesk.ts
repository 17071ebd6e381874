import { missingArgument } from '../http/errors';
import type { Integration } from './types';

/**
 * Zendesk: a trigger's own message, in the ticket's topic. Zendesk's triggers send the ticket
 * and the message as parameters, not as a payload.
 */
export const zendesk: Integration = {
  name: 'zendesk',
  displayName: 'Zendesk',
  handle(request) {
    const required = (name: string) => {
      const value = request.param(name);
      if (value === undefined) throw missingArgument(name);
      return value;
    };
    const title = required('ticket_title');
    const id = required('ticket_id');
    const content = required('message');
    const topic = `#${id}: ${title}`;
    return { topic: topic.length > 60 ? `${topic.slice(0, 57)}...` : topic, content };
  },
};

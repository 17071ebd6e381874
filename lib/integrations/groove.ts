import { UnsupportedEvent } from './errors';
import { num, str } from './payload';
import type { Integration } from './types';

/** Groove's ticket events (named by the X-Groove-Event header), all in one topic. */

type Payload = any;

function ticketStarted(p: Payload): string {
  return `${str(p, 'customer_name')} submitted new ticket [#${num(p, 'number')}: ${str(p, 'title')}](${str(p, 'app_url')}):\n\n\`\`\` quote\n${str(p, 'summary')}\n\`\`\``;
}

/** A ticket assigned to an agent, a group or both; assigned to no one posts nothing. */
function ticketAssigned(p: Payload): string | null {
  const state = str(p, 'state');
  const assignee: string | null = p.assignee;
  const group: string | null = p.assigned_group;
  const to = assignee && group ? `${assignee} from ${group}` : assignee || group;
  if (!to) return null;
  return `[#${num(p, 'number')}: ${str(p, 'title')}](${str(p, 'app_url')}) (${state === 'opened' ? 'open' : state}) assigned to ${to}.`;
}

/** The text after `prefix` in a link of Groove's API (an author's email, a ticket's number). */
function afterPrefix(link: string, prefix: string): string {
  const parts = link.split(prefix);
  if (parts.length < 2) throw new TypeError(`a Groove link not under ${prefix}`);
  return parts[1];
}

/** A reply or note on a ticket, by an agent or a customer, quoted. */
function replied(author: 'agent' | 'customer', action: string): (p: Payload) => string {
  return (p) => {
    const actor = afterPrefix(str(p.links.author, 'href'), `http://api.groovehq.com/v1/${author}s/`);
    const ticket = afterPrefix(str(p.links.ticket, 'href'), 'http://api.groovehq.com/v1/tickets/');
    return `${actor} ${action} [ticket #${ticket}](${str(p, 'app_ticket_url')}):\n\n\`\`\` quote\n${str(p, 'plain_text_body')}\n\`\`\``;
  };
}

const EVENTS: Record<string, (p: Payload) => string | null> = {
  ticket_started: ticketStarted,
  ticket_assigned: ticketAssigned,
  agent_replied: replied('agent', 'replied to'),
  customer_replied: replied('customer', 'replied to'),
  note_added: replied('agent', 'left a note on'),
};

export const groove: Integration = {
  name: 'groove',
  displayName: 'Groove',
  eventTypes: Object.keys(EVENTS),
  handle(request) {
    const event = request.requireHeader('X-Groove-Event');
    if (!Object.hasOwn(EVENTS, event)) throw new UnsupportedEvent(event);
    const content = EVENTS[event](request.json());
    return content === null ? null : { topic: 'notifications', content, event };
  },
};

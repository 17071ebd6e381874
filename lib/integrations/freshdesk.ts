import { badRequest } from '../http/errors';
import { htmlToMarkdown } from './html-markdown';
import { capitalize, str } from './payload';
import type { Integration } from './types';

/**
 * Freshdesk's ticket automations (HTTP Basic, a JSON body): tickets created, notes added,
 * status and priority changed, in the ticket's topic. Other events post nothing.
 */

/**
 * Freshdesk names a status or priority only by its number; these are the names Zulip shows
 * (its statuses are those of the one company that used the integration, customizable in Freshdesk).
 */
const STATUSES = ['', '', 'Open', 'Pending', 'Resolved', 'Closed', 'Waiting on Customer', 'Job Application', 'Monthly'];
const PRIORITIES = ['', 'Low', 'Medium', 'High', 'Urgent'];

function valueName(property: string, value: string): string {
  const index = Number(value);
  if (!Number.isInteger(index)) throw badRequest(`Invalid ${property}: ${value}`);
  const names = property === 'status' ? STATUSES : property === 'priority' ? PRIORITIES : undefined;
  if (!names) return '';
  return index >= 0 && index < names.length ? names[index] : String(index);
}

/**
 * The event, written without quotes: "{ticket_action:created}" → [ticket_action, created],
 * "{status:{from:4,to:6}}" → [status, Resolved, Waiting on Customer].
 */
function parseEvent(text: string): string[] {
  const parts = text.replace(/[{}]/g, '').replace(/,/g, ':').split(':');
  if (parts.length === 2) return parts;
  if (parts.length !== 5) throw badRequest(`Unexpected Freshdesk event: ${text}`);
  const [property, , from, , to] = parts;
  return [property, valueName(property, from), valueName(property, to)];
}

export const freshdesk: Integration = {
  name: 'freshdesk',
  displayName: 'Freshdesk',
  handle(request) {
    const ticket = request.json().freshdesk_webhook;
    const topic = `#${str(ticket, 'ticket_id')}: ${str(ticket, 'ticket_subject')}`;
    const event = parseEvent(str(ticket, 'triggered_event'));
    const who = `${str(ticket, 'requester_name')} <${str(ticket, 'requester_email')}>`;
    const link = `[ticket #${str(ticket, 'ticket_id')}](${str(ticket, 'ticket_url')})`;
    let content: string;
    if (event[1] === 'created') {
      content =
        `${who} created ${link}:\n\n\`\`\` quote\n${htmlToMarkdown(str(ticket, 'ticket_description'))}\n\`\`\`\n\n` +
        `* **Type**: ${str(ticket, 'ticket_type')}\n* **Priority**: ${str(ticket, 'ticket_priority')}\n* **Status**: ${str(ticket, 'ticket_status')}`;
    } else if (event[0] === 'note_type') content = `${who} added a ${event[1]} note to ${link}.`;
    // Freshdesk reports only the first property that changed.
    else if (event[0] === 'status' || event[0] === 'priority') content = `${who} updated ${link}:\n\n* **${capitalize(event[0])}**: ${event[1]} -> ${event[2]}`;
    else return null;
    return { topic, content };
  },
};

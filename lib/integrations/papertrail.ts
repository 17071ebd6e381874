import { badRequest } from '../http/errors';
import { jsonParam } from './payload';
import type { Integration } from './types';

/** Papertrail's saved-search alerts (a form field `payload`): up to four matches, quoted, and a link to the rest. */

const SHOWN_EVENTS = 4;

export const papertrail: Integration = {
  name: 'papertrail',
  displayName: 'Papertrail',
  handle(request) {
    const p = jsonParam(request, 'payload');
    if (p === null || typeof p !== 'object' || !('events' in p)) throw badRequest('Events key is missing from payload');
    const search = p.saved_search;
    const events: any[] = p.events;
    const parts = [`[Search for "${search.name}"](${search.html_search_url}) found **${events.length}** matches:\n`];
    for (const event of events.slice(0, SHOWN_EVENTS)) {
      parts.push(`${event.display_received_at} - ${event.source_name} - ${search.query}:\n\`\`\` quote\n${event.message}\n\`\`\``);
    }
    if (events.length > SHOWN_EVENTS) parts.push(`[See more](${search.html_search_url})`);
    return { topic: 'logs', content: parts.join('\n') };
  },
};

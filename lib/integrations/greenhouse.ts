import { badRequest } from '../http/errors';
import { list, num, pythonTitle, str } from './payload';
import type { Integration } from './types';

/** A candidate's emails or attachments: "value (Type)", or the type linked to its URL. */
function describeItems(items: any[]): string {
  return items
    .flatMap((item) => {
      const type = pythonTitle(typeof item?.type === 'string' ? item.type : '');
      if (type && item.value) return [`${item.value} (${type})`];
      if (type && item.url) return [`[${type}](${item.url})`];
      return [];
    })
    .join(', ');
}

/** Greenhouse: a candidate's application changing (created, hired, rejected, moved...). */
export const greenhouse: Integration = {
  name: 'greenhouse',
  displayName: 'Greenhouse',
  handle(request) {
    const payload = request.json();
    const action = str(payload, 'action');
    if (action === 'ping') return null;
    const application = payload.payload?.application;
    const candidate = action === 'update_candidate' ? payload.payload?.candidate : application?.candidate;
    const title = pythonTitle(action.replaceAll('_', ' '));
    const id = num(candidate, 'id');
    const jobs = list(application, 'jobs');
    if (jobs.length === 0) throw badRequest('jobs[0] is missing');
    const content =
      `${title} ${str(candidate, 'first_name')} ${str(candidate, 'last_name')} (ID: ${id}), applying for:\n` +
      `* **Role**: ${str(jobs[0], 'name')}\n` +
      `* **Emails**: ${describeItems(list(application.candidate, 'email_addresses'))}\n` +
      `* **Attachments**: ${describeItems(list(application.candidate, 'attachments'))}`;
    return { topic: `${title} - ${id}`, content };
  },
};

import { anomalousPayload } from './errors';
import type { Integration } from './types';

/** Statuspage's subscriptions: incidents and component status changes, topic "Name: page status". */
export const statuspage: Integration = {
  name: 'statuspage',
  displayName: 'Statuspage',
  eventTypes: ['incident', 'component'],
  handle(request) {
    const p = request.json();
    const pageStatus: string = p.page.status_description;
    if ('incident' in p) {
      const incident = p.incident;
      return {
        topic: `${incident.name}: ${pageStatus}`,
        content: `**${incident.name}**:\n* State: **${incident.status}**\n* Description: ${incident.incident_updates[0].body}`,
        event: 'incident',
      };
    }
    if ('component' in p) {
      const name: string = p.component.name;
      const update = p.component_update;
      return {
        topic: `${name}: ${pageStatus}`,
        content: `**${name}** has changed status from **${update.old_status}** to **${update.new_status}**.`,
        event: 'component',
      };
    }
    throw anomalousPayload('Statuspage');
  },
};

import type { Integration } from './types';

/** Opsgenie's alert actions: one bulleted message per action, in a topic named by the integration. */

/** The fields listed under an alert, in this order, by the name they are shown with. */
const FIELDS: Array<[string, string]> = [
  ['note', 'Note'],
  ['recipient', 'Recipient'],
  ['addedTags', 'Tags added'],
  ['team', 'Team added'],
  ['owner', 'Assigned owner'],
  ['removedTags', 'Tags removed'],
  ['message', 'Message'],
  ['tags', 'Tags'],
  ['escalationName', 'Escalation'],
];

export const opsgenie: Integration = {
  name: 'opsgenie',
  displayName: 'Opsgenie',
  eventTypes: [
    'AddTeam', 'UnAcknowledge', 'AddNote', 'TestAction', 'Close', 'Escalate', 'AddRecipient', 'RemoveTags', 'Acknowledge',
    'Delete', 'AddTags', 'TakeOwnership', 'Create', 'AssignOwnership',
  ],
  handle(request) {
    const p = request.json();
    const alert = p.alert;
    const type: string = p.action;
    const tags = ((alert.tags ?? []) as string[]).map((tag) => `\`${tag}\``).join(', ');
    let details = '';
    for (const [field, label] of FIELDS) {
      let value: string;
      if (field === 'tags' && tags) value = tags;
      else if (field === 'escalationName' && field in p) value = p[field];
      else if (field !== 'tags' && alert && typeof alert === 'object' && field in alert) value = alert[field];
      else continue;
      details += `* **${label}**: ${value}\n`;
    }
    const integration: string = p.integrationName;
    const content = `[Opsgenie alert for ${integration}](https://app.opsgenie.com/alert/V2#/show/${alert.alertId}):\n* **Type**: ${type}\n${details}`.trim();
    return { topic: integration, content, event: type };
  },
};

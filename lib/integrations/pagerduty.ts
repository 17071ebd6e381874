import { UnsupportedEvent } from './errors';
import type { Integration, WebhookMessage } from './types';

/**
 * PagerDuty's incident webhooks in their three versions: V1 and V2 send a list of messages
 * (V1 names the event `type`, V2 `event`), V3 one `event`.
 */

type Payload = any;

/** What a message says of an incident, whichever version sent it. */
interface Incident {
  action: string;
  /** "3", or "Title (#3)" in V3. */
  label: string;
  url: string;
  service: string;
  serviceUrl: string;
  assignee: string;
  /** Who resolved it, when the payload says. */
  agent?: string;
  /** The quoted trigger text, or '' (V3 has none). */
  trigger: string;
}

const V1_ACTIONS: Record<string, string> = {
  'incident.trigger': 'triggered',
  'incident.acknowledge': 'acknowledged',
  'incident.unacknowledge': 'unacknowledged',
  'incident.resolve': 'resolved',
  'incident.assign': 'assigned',
  'incident.escalate': 'escalated',
  'incident.delegate': 'delineated',
};

const V2_ACTIONS: Record<string, string> = {
  'incident.trigger': 'triggered',
  'incident.acknowledge': 'acknowledged',
  'incident.resolve': 'resolved',
  'incident.assign': 'assigned',
};

const V3_ACTIONS: Record<string, string> = {
  'incident.triggered': 'triggered',
  'incident.acknowledged': 'acknowledged',
  'incident.unacknowledged': 'unacknowledged',
  'incident.resolved': 'resolved',
  'incident.reassigned': 'reassigned',
};

const agentLink = (name: string, url: string) => `[${name}](${url})`;
const quote = (text: string) => `\`\`\` quote\n${text}\n\`\`\``;
/** The part of an email before the @. */
const localPart = (email: string) => email.slice(0, email.lastIndexOf('@'));

/** What webhooks V1 and V2 say alike of an incident: its number, link and service. */
function numberedIncident(incident: Payload): Pick<Incident, 'label' | 'url' | 'service' | 'serviceUrl'> {
  return { label: String(incident.incident_number), url: incident.html_url, service: incident.service.name, serviceUrl: incident.service.html_url };
}

function fromV1(message: Payload): Incident {
  const incident = message.data.incident;
  const trigger: string[] = [];
  const summary = incident.trigger_summary_data;
  if (summary && Object.keys(summary).length > 0) {
    if (summary.subject) trigger.push(summary.subject);
    if (summary.description) trigger.push(summary.description);
  }
  const assigned = incident.assigned_to_user;
  const resolver = incident.resolved_by_user;
  return {
    action: V1_ACTIONS[message.type],
    ...numberedIncident(incident),
    assignee: assigned ? agentLink(localPart(assigned.email), assigned.html_url) : 'nobody',
    agent: resolver ? agentLink(localPart(resolver.email), resolver.html_url) : undefined,
    trigger: quote(trigger.join('\n')),
  };
}

function fromV2(message: Payload): Incident {
  const incident = message.incident;
  const first = incident.assignments?.[0]?.assignee;
  const changedBy = incident.last_status_change_by;
  return {
    action: V2_ACTIONS[message.event],
    ...numberedIncident(incident),
    assignee: first ? agentLink(first.summary, first.html_url) : 'nobody',
    agent: changedBy ? agentLink(changedBy.summary, changedBy.html_url) : undefined,
    trigger: incident.description != null ? quote(incident.description) : '',
  };
}

function fromV3(event: Payload): Incident {
  const data = event.data;
  const first = data.assignees?.[0];
  return {
    action: V3_ACTIONS[event.event_type],
    label: `${data.title} (#${data.number})`,
    url: data.html_url,
    service: data.service.summary,
    serviceUrl: data.service.html_url,
    assignee: first ? agentLink(first.summary, first.html_url) : 'nobody',
    agent: event.agent ? agentLink(event.agent.summary, event.agent.html_url) : undefined,
    trigger: '',
  };
}

function incidentMessage(type: string, i: Incident): WebhookMessage {
  const link = `Incident [${i.label}](${i.url})`;
  let line: string;
  if (['incident.trigger', 'incident.triggered', 'incident.unacknowledge', 'incident.unacknowledged'].includes(type)) {
    line = `${link} ${i.action} by [${i.service}](${i.serviceUrl}) (assigned to ${i.assignee}).`;
  } else if (type === 'incident.resolve' || type === 'incident.resolved') {
    line = i.agent !== undefined ? `${link} resolved by ${i.agent}.` : `${link} resolved.`;
  } else if (type === 'incident.assign' || type === 'incident.reassigned') {
    line = `${link} ${i.action} to ${i.assignee}.`;
  } else {
    line = `${link} ${i.action} by ${i.assignee}.`;
  }
  return { topic: `Incident ${i.label}`, content: `${line}\n\n${i.trigger}`.trim(), event: i.action };
}

export const pagerduty: Integration = {
  name: 'pagerduty',
  displayName: 'PagerDuty',
  eventTypes: ['resolved', 'assigned', 'unacknowledged', 'acknowledged', 'triggered', 'reassigned'],
  handle(request) {
    const p = request.json();
    const out: WebhookMessage[] = [];
    const messages: Payload[] | undefined = p.messages;
    if (Array.isArray(messages) && messages.length > 0) {
      // A list of V1 messages (with `type`), then of V2 ones (with `event`); each run stops at
      // the first message of the other version.
      for (const message of messages) {
        if (message.type == null) break;
        if (!(message.type in V1_ACTIONS)) throw new UnsupportedEvent(message.type);
        out.push(incidentMessage(message.type, fromV1(message)));
      }
      for (const message of messages) {
        if (message.event == null) break;
        if (!(message.event in V2_ACTIONS)) throw new UnsupportedEvent(message.event);
        out.push(incidentMessage(message.event, fromV2(message)));
      }
    } else if (p.event !== undefined) {
      const type = p.event.event_type ?? null;
      if (!(type in V3_ACTIONS)) throw new UnsupportedEvent(String(type));
      out.push(incidentMessage(type, fromV3(p.event)));
    }
    return out;
  },
};

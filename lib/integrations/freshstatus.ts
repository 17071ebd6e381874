import { misconfigured } from './misconfigured';
import { setupMessage } from './setup';
import type { Integration } from './types';

/** Freshstatus's incident and maintenance notifications, with the payload Zulip's documentation asks for. */

type Payload = any;

const SERVICES_SHOWN = 5;

/** A field the payload must have as text; without it the payload was misconfigured. */
class Missing extends Error {}

function text(value: unknown): string {
  if (typeof value !== 'string') throw new Missing();
  return value;
}

/** "2021-04-12 16:29:00+00:00" as "2021-04-12 16:29 UTC" (no zone name for other offsets). */
function minute(value: unknown): string {
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/.exec(text(value));
  if (!match) throw new Missing();
  const utc = match[3] !== undefined && /^(Z|UTC|[+-]00:?00)$/.test(match[3]);
  return `${match[1]} ${match[2]} ${utc ? 'UTC' : ''}`;
}

function services(list: string): string {
  const names = list.split(',');
  let content = names
    .slice(0, SERVICES_SHOWN)
    .map((name) => `* ${name}\n`)
    .join('');
  if (names.length > SERVICES_SHOWN) content += `[and ${names.length - SERVICES_SHOWN} more service(s)]`;
  return content.trimEnd();
}

/** The status page's own test event is an incident with ID 1. */
const isTest = (p: Payload, type: string) => type === 'INCIDENT_OPEN' && text(p.id) === '1';

function body(p: Payload, type: string): string {
  if (isTest(p, type)) return setupMessage('Freshstatus');
  if (type === 'INCIDENT_OPEN') {
    return `The following incident has been opened: **${text(p.title)}**\n**Description:** ${text(p.description)}\n**Start Time:** ${minute(p.start_time)}\n**Affected Services:**\n${services(text(p.affected_services))}`;
  }
  if (type === 'INCIDENT_NOTE_CREATE') {
    const status = text(p.incident_status);
    const [title, message] = [text(p.title), text(p.message)];
    if (status === 'Closed') return `The following incident has been closed: **${title}**\n**Note:** ${message}`;
    if (status === 'Open') return `The following note has been added to the incident: **${title}**\n**Note:** ${message}`;
  } else if (type === 'MAINTENANCE_PLANNED') {
    return (
      `The following scheduled maintenance has been opened: **${text(p.title)}**\n**Description:** ${text(p.description)}\n` +
      `**Scheduled Start Time:** ${minute(p.scheduled_start_time)}\n**Scheduled End Time:** ${minute(p.scheduled_end_time)}\n` +
      `**Affected Services:**\n${services(text(p.affected_services))}`
    );
  } else if (type === 'MAINTENANCE_NOTE_CREATE') {
    const [title, message] = [text(p.title), text(p.message)];
    return text(p.incident_status) === 'Closed'
      ? `The following scheduled maintenance has been closed: **${title}**\n**Note:** ${message}`
      : `The following note has been added to the scheduled maintenance: **${title}**\n**Note:** ${message}`;
  }
  return `The event (${type}) is not supported yet.`;
}

export const freshstatus: Integration = {
  name: 'freshstatus',
  displayName: 'Freshstatus',
  handle(request) {
    const p = request.json();
    try {
      const type = text(p?.event_data?.event_type);
      const content = body(p, type);
      const topic = isTest(p, type) ? 'Freshstatus' : text(p.title);
      return { topic, content, event: type };
    } catch (err) {
      if (!(err instanceof Missing) && !(err instanceof TypeError)) throw err;
      throw misconfigured(
        request,
        `Hi there! Your bot ${request.bot.full_name} just received a Freshstatus payload that is missing\n` +
          'some data that Zulip requires. This usually indicates a configuration issue\n' +
          'in your Freshstatus webhook settings. Please make sure that you provide all the required parameters\n' +
          'when configuring the Freshstatus webhook. Contact {support} if you\nneed further help!',
      );
    }
  },
};

import { UnsupportedEvent } from './errors';
import type { Integration } from './types';

/** Sentry's internal integration (events and issues), its plain webhook, and its oldest payloads. */

type Payload = any;

/** Languages Sentry names by platform, as the code block's highlighting names them. */
const HIGHLIGHTING: Record<string, string> = {
  go: 'go',
  java: 'java',
  javascript: 'javascript',
  node: 'javascript',
  python: 'python3',
  ruby: 'ruby',
};

/** "2020-01-01T10:20:30.123Z" as "2020-01-01 10:20:30". */
const shortTime = (iso: string) => String(iso).split('.')[0].replace('T', ' ');

function tracebackLines(lines: string[] | null | undefined): string {
  return (lines ?? []).map((line) => (line === '' ? '\n' : `     ${line}\n`)).join('');
}

function eventMessage(event: Payload): { topic: string; content: string } {
  const title: string = event.title;
  const platform: string = event.platform;
  // Raven, the old Python SDK, is deprecated; Sentry's sample event still looks like it.
  if (platform === 'python' && Number.parseInt(event.version, 10) < 7 && event.title !== 'This is an example Python exception') {
    throw new UnsupportedEvent('Raven SDK');
  }
  const head = `**level:** ${event.level}\n**timestamp:** ${shortTime(event.datetime)}`;
  if ('exception' in event) {
    const filename = event.metadata?.filename ?? null;
    const values: Payload[] = [...event.exception.values].reverse();
    const stacktrace = values.find((value) => 'stacktrace' in value)?.stacktrace;
    const heading = `**New exception:** [${title}](${event.web_url})\n\`\`\`quote\n${head}\n**filename:** ${filename ?? 'None'}\n\`\`\``;
    if (stacktrace && filename) {
      const frame = [...stacktrace.frames].reverse().find((f: Payload) => f.filename === filename);
      if (frame && frame.context_line !== undefined && frame.context_line !== null) {
        const code = `${tracebackLines(frame.pre_context)}---> ${frame.context_line}\n${tracebackLines(frame.post_context)}`;
        return { topic: title, content: `${heading}\n\nTraceback:\n\`\`\`${HIGHLIGHTING[platform] ?? ''}\n${code}\`\`\`` };
      }
    }
    return { topic: title, content: heading };
  }
  if ('logentry' in event) return { topic: title, content: `**New message event:** [${title}](${event.web_url})\n\`\`\`quote\n${head}\n\`\`\`` };
  throw new UnsupportedEvent('unknown-event type');
}

function issueMessage(action: string, issue: Payload, actor: Payload): { topic: string; content: string } {
  const title: string = issue.title;
  const assigned = issue.assignedTo;
  const assignee = assigned ? (assigned.type === 'team' ? `team ${assigned.name}` : assigned.name) : 'No one';
  switch (action) {
    case 'created':
      return {
        topic: title,
        content: `**New issue created:** ${title}\n\`\`\`quote\n**level:** ${issue.level}\n**timestamp:** ${shortTime(issue.lastSeen)}\n**assignee:** ${assignee}\n\`\`\``,
      };
    case 'resolved':
      return { topic: title, content: `Issue **${title}** was marked as resolved by **${actor.name}**.` };
    case 'assigned':
      return { topic: title, content: `Issue **${title}** has now been assigned to **${assignee}** by **${actor.name}**.` };
    case 'ignored':
      return { topic: title, content: `Issue **${title}** was ignored by **${actor.name}**.` };
    default:
      throw new UnsupportedEvent(`${action} action`);
  }
}

/**
 * A payload of Sentry's plain webhook, given the shape of the internal integration's: the
 * event's link and time are made from what it has. Null for the oldest payloads (no event ID).
 */
function fromPlainWebhook(payload: Payload): Payload | null {
  const event = payload.event ?? {};
  if (!event.event_id) return null;
  event.web_url = new URL(`events/${event.event_id}/`, payload.url).toString();
  const seconds: number = event.timestamp ?? event.received;
  event.datetime = new Date(seconds * 1000).toISOString().replace('Z', '');
  return payload;
}

export const sentry: Integration = {
  name: 'sentry',
  displayName: 'Sentry',
  handle(request) {
    const payload = request.json();
    const data = payload.data ?? fromPlainWebhook(payload);
    let message: { topic: string; content: string };
    if (data && Object.keys(data).length > 0) {
      if ('event' in data) message = eventMessage(data.event);
      else if ('issue' in data) message = issueMessage(payload.action, data.issue, payload.actor);
      else throw new UnsupportedEvent(`[${Object.keys(data).map((key) => `'${key}'`).join(', ')}]`);
    } else {
      message = {
        topic: String(payload.project_name ?? 'None'),
        content: `New [issue](${payload.url ?? 'None'}) (level: ${String(payload.level).toUpperCase()}):\n\n\`\`\` quote\n${payload.message ?? 'None'}\n\`\`\``,
      };
    }
    return message;
  },
};

import { UnsupportedEvent } from './errors';
import type { Integration, WebhookMessage } from './types';

/** updown.io's check events (a list of them), in a topic per checked URL. */

type Payload = any;

/** "2 days 1 hour 5 seconds". */
function duration(seconds: number): string {
  const parts: Array<[number, string]> = [
    [Math.floor(seconds / 86400), 'day'],
    [Math.floor((seconds % 86400) / 3600), 'hour'],
    [Math.floor((seconds % 3600) / 60), 'minute'],
    [seconds % 60, 'second'],
  ];
  return parts
    .filter(([n]) => n >= 1)
    .map(([n, unit]) => (n === 1 ? `1 ${unit}` : `${n} ${unit}s`))
    .join(' ');
}

function upBody(event: Payload): string {
  let body = 'Service is `up`';
  const downtime = event.downtime;
  if (downtime.started_at) {
    body += ' again';
    const after = downtime.duration ? duration(downtime.duration) : '';
    if (after) body += ` after ${after}`;
  }
  return `${body}.`;
}

function downBody(event: Payload): string {
  const at = String(event.downtime.started_at).replace('T', ' ').replace('Z', ' UTC');
  return `Service is \`down\`. It returned a ${event.downtime.error ?? 'None'} error at ${at}.`;
}

const BODIES: Record<string, (event: Payload) => string> = { up: upBody, down: downBody };

export const updown: Integration = {
  name: 'updown',
  displayName: 'Updown',
  eventTypes: ['up', 'down'],
  handle(request) {
    return (request.json() as Payload[]).map((event): WebhookMessage => {
      const type = /^check.(.*)$/s.exec(event.event)?.[1];
      if (type === undefined || !(type in BODIES)) throw new UnsupportedEvent(event.event);
      return { topic: event.check.url, content: BODIES[type](event), event: type };
    });
  },
};

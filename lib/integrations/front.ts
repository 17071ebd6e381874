import { badRequest } from '../http/errors';
import type { Integration } from './types';

/** Front's rule webhooks: messages, comments and what happened to a conversation, in a topic per conversation. */

type Payload = any;

function source(p: Payload): string {
  const type: string = p.source._meta.type;
  const data = p.source.data;
  if (type === 'teammate') return `${data.first_name} ${data.last_name}`;
  if (type === 'rule') return `'${data.name}' rule`;
  return `(${type})`;
}

const target = (p: Payload) => `${p.target.data.first_name} ${p.target.data.last_name}`;

function message(p: Payload): { link: string; outbox: string; inbox: string; subject: string } {
  return {
    link: `https://app.frontapp.com/open/${p.target.data.id}`,
    outbox: p.conversation.recipient.handle,
    inbox: p.source.data[0].address,
    subject: p.conversation.subject,
  };
}

const comment = (p: Payload) => `**${source(p)}** left a comment:\n\`\`\`quote\n${p.target.data.body}\n\`\`\``;

const BODIES: Record<string, (p: Payload) => string> = {
  inbound: (p) => {
    const m = message(p);
    return `[Inbound message](${m.link}) from **${m.outbox}** to **${m.inbox}**:\n\`\`\`quote\n*Subject*: ${m.subject}\n\`\`\``;
  },
  outbound: (p) => {
    const m = message(p);
    return `[Outbound message](${m.link}) from **${m.inbox}** to **${m.outbox}**:\n\`\`\`quote\n*Subject*: ${m.subject}\n\`\`\``;
  },
  out_reply: (p) => {
    const m = message(p);
    return `[Outbound reply](${m.link}) from **${m.inbox}** to **${m.outbox}**.`;
  },
  comment,
  mention: comment,
  assign: (p) => (source(p) === target(p) ? `**${source(p)}** assigned themselves.` : `**${source(p)}** assigned **${target(p)}**.`),
  unassign: (p) => `Unassigned by **${source(p)}**.`,
  archive: (p) => `Archived by **${source(p)}**.`,
  reopen: (p) => `Reopened by **${source(p)}**.`,
  trash: (p) => `Deleted by **${source(p)}**.`,
  restore: (p) => `Restored by **${source(p)}**.`,
  tag: (p) => `**${source(p)}** added tag **${p.target.data.name}**.`,
  untag: (p) => `**${source(p)}** removed tag **${p.target.data.name}**.`,
};

export const front: Integration = {
  name: 'front',
  displayName: 'Front',
  handle(request) {
    const p = request.json();
    const event: string = p.type;
    const body = BODIES[event];
    if (!body) throw badRequest('Unknown webhook request');
    return { topic: p.conversation.id, content: body(p), event };
  },
};

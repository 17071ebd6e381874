import { UnsupportedEvent } from './errors';
import { capitalize } from './payload';
import type { Integration } from './types';

/** Intercom's webhook topics: companies, contacts, users, conversations and events. Intercom checks the URL with a HEAD request. */

type Payload = any;
type Handler = (p: Payload) => { topic: string; content: string };

/** The text of an HTML fragment, tags dropped and entities decoded. */
function textOf(html: string): string {
  let text = '';
  // Loaded on first use: a start that receives no such webhook needs no HTML parser.
  const { Parser } = require('htmlparser2') as typeof import('htmlparser2');
  const parser = new Parser({ ontext: (data) => (text += data) }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return text;
}

/** "User: Jane", "Lead: Jane": a person's topic, by name, pseudonym or email. */
const personTopic = (user: Payload) => `${capitalize(user.type)}: ${user.name || user.pseudonym || user.email}`;
const location = (contact: Payload) => {
  const l = contact.location_data;
  return `${l.city_name}, ${l.region_name}, ${l.country_name}`;
};
const quotedBlock = (head: string, content: string) => `${head}:\n\n\`\`\` quote\n${content}\n\`\`\``;
const item = (p: Payload) => p.data.item;
const firstPart = (p: Payload) => textOf(item(p).conversation_parts.conversation_parts[0].body);

const signedUp: Handler = (p) => ({
  topic: personTopic(item(p)),
  content: `Contact signed up:\n* **Email**: ${item(p).email}\n* **Location**: ${location(item(p))}`,
});

const adminAction =
  (action: string): Handler =>
  (p) => ({ topic: personTopic(item(p).user), content: `${item(p).assignee.name ?? 'None'} ${action} the conversation.` });

const adminReply =
  (action: string): Handler =>
  (p) => ({ topic: personTopic(item(p).user), content: quotedBlock(`${item(p).assignee.name ?? 'None'} ${action} the conversation`, firstPart(p)) });

const userTag =
  (action: string): Handler =>
  (p) => ({ topic: personTopic(item(p).user), content: `The tag \`${item(p).tag.name}\` was ${action} the user.` });

const HANDLERS: Record<string, Handler> = {
  'company.created': (p) => ({
    topic: 'Companies',
    content: `New company **${item(p).name}** created:\n* **User count**: ${item(p).user_count}\n* **Monthly spending**: ${item(p).monthly_spend}`,
  }),
  'contact.added_email': (p) => ({ topic: personTopic(item(p)), content: `New email ${item(p).email} added to contact.` }),
  'contact.created': (p) => {
    const c = item(p);
    return {
      topic: personTopic(c),
      content: `New contact created:\n* **Name (or pseudonym)**: ${c.name || c.pseudonym || 'None'}\n* **Email**: ${c.email}\n* **Location**: ${location(c)}`,
    };
  },
  'contact.signed_up': signedUp,
  'contact.tag.created': (p) => ({ topic: personTopic(item(p).contact), content: `Contact tagged with the \`${item(p).tag.name}\` tag.` }),
  'contact.tag.deleted': (p) => ({ topic: personTopic(item(p).contact), content: `The tag \`${item(p).tag.name}\` was removed from the contact.` }),
  'conversation.admin.assigned': (p) => ({ topic: personTopic(item(p).user), content: `${item(p).assignee.name} assigned to conversation.` }),
  'conversation.admin.closed': adminAction('closed'),
  'conversation.admin.opened': adminAction('opened'),
  'conversation.admin.snoozed': adminAction('snoozed'),
  'conversation.admin.unsnoozed': adminAction('unsnoozed'),
  'conversation.admin.replied': adminReply('replied to'),
  'conversation.admin.noted': adminReply('added a note to'),
  'conversation.admin.single.created': (p) => ({
    topic: personTopic(item(p).user),
    content: quotedBlock(`${item(p).assignee.name ?? 'None'} initiated a conversation`, textOf(item(p).conversation_message.body)),
  }),
  'conversation.user.created': (p) => ({
    topic: personTopic(item(p).user),
    content: quotedBlock(`${item(p).user.name ?? 'None'} initiated a conversation`, textOf(item(p).conversation_message.body)),
  }),
  'conversation.user.replied': (p) => ({
    topic: personTopic(item(p).user),
    content: quotedBlock(`${item(p).user.name ?? 'None'} replied to the conversation`, firstPart(p)),
  }),
  'event.created': (p) => ({ topic: 'Events', content: `New event **${item(p).event_name}** created.` }),
  'user.created': (p) => ({ topic: personTopic(item(p)), content: `New user created:\n* **Name**: ${item(p).name}\n* **Email**: ${item(p).email}` }),
  'user.deleted': (p) => ({ topic: personTopic(item(p)), content: 'User deleted.' }),
  'user.email.updated': (p) => ({ topic: personTopic(item(p)), content: `User's email was updated to ${item(p).email}.` }),
  'user.tag.created': userTag('added to'),
  'user.tag.deleted': userTag('removed from'),
  'user.unsubscribed': (p) => ({ topic: personTopic(item(p)), content: 'User unsubscribed from emails.' }),
  // Intercom has no sample of this one; it is said to be a contact's signup.
  'visitor.signed_up': signedUp,
};

export const intercom: Integration = {
  name: 'intercom',
  displayName: 'Intercom',
  otherMethods: ['HEAD'],
  handle(request) {
    if (request.method === 'HEAD') return null;
    const p = request.json();
    const event: string = p.topic;
    if (event === 'ping') return null;
    const handler = HANDLERS[event];
    if (!handler) throw new UnsupportedEvent(event);
    return { ...handler(p), event };
  },
};

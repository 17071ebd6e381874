import { badRequest } from '../http/errors';
import type { Integration } from './types';

/**
 * Messages that Zapier's and IFTTT's actions compose: a topic (or, as they once called it, a
 * subject) and the content.
 */
export function composedMessage(p: any): { topic: string; content: string } {
  const topic = p.topic ?? p.subject ?? null;
  if (topic === null) throw badRequest("Topic can't be empty");
  if (p.content == null) throw badRequest("Content can't be empty");
  if (typeof topic !== 'string' || typeof p.content !== 'string') throw badRequest('Malformed payload');
  return { topic, content: p.content };
}

/** Zapier's Zulip app: its connection check (who the bot is) and the messages its zaps send. */
export const zapier: Integration = {
  name: 'zapier',
  displayName: 'Zapier',
  tellOwnerOfBadJson: false,
  handle(request) {
    const p = request.json();
    if (p.type === 'auth') {
      // Zapier labels the connection with the bot's name and address.
      return { messages: [], response: { full_name: request.bot.full_name, email: request.bot.email, id: request.bot.id } };
    }
    return composedMessage(p);
  },
};

/** IFTTT's Webhooks applets, with the body Zulip's documentation gives them. */
export const ifttt: Integration = {
  name: 'ifttt',
  displayName: 'IFTTT',
  handle: (request) => composedMessage(request.json()),
};

import { badRequest } from '../http/errors';
import { UnsupportedEvent } from './errors';
import { requiredParam } from './payload';
import type { Integration } from './types';

/** Transifex: a resource fully translated or reviewed in a language (all in the query string). */
export const transifex: Integration = {
  name: 'transifex',
  displayName: 'Transifex',
  eventTypes: ['translated', 'review'],
  tellOwnerOfBadJson: false,
  handle(request) {
    const [project, resource, language, event] = ['project', 'resource', 'language', 'event'].map((name) => requiredParam(request, name));
    // The counts say nothing the message uses, but must be integers (JSON) when given.
    for (const name of ['translated', 'reviewed']) {
      const text = request.param(name);
      if (text === undefined) continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw badRequest(`${name} is not valid JSON`);
      }
      if (value !== null && !Number.isInteger(value)) throw badRequest(`${name} is not an integer`);
    }
    const topic = `${project} in ${language}`;
    if (event === 'translation_completed') return { topic, content: `Resource ${resource} fully translated.`, event: 'translated' };
    if (event === 'review_completed') return { topic, content: `Resource ${resource} fully reviewed.`, event: 'review' };
    throw new UnsupportedEvent(event);
  },
};

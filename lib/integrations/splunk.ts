import { badRequest } from '../http/errors';
import type { Integration } from './types';

/** Splunk's saved-search alert action: the search, its host, source and raw event (each with a stand-in when missing). */

type Payload = any;

/** Zulip's topic limit: a longer search name is cut short with an ellipsis. */
const MAX_TOPIC_LENGTH = 60;

function text(value: Payload, key: string, fallback: string): string {
  if (value === null || typeof value !== 'object' || !(key in value)) return fallback;
  if (typeof value[key] !== 'string') throw badRequest(`${key} is not a string`);
  return value[key];
}

export const splunk: Integration = {
  name: 'splunk',
  displayName: 'Splunk',
  handle(request) {
    const payload = request.json();
    const search = text(payload, 'search_name', 'Missing search_name');
    const link = text(payload, 'results_link', 'Missing results_link');
    const result = payload !== null && typeof payload === 'object' && 'result' in payload ? payload.result : {};
    const host = text(result, 'host', 'Missing host');
    const source = text(result, 'source', 'Missing source');
    const raw = text(result, '_raw', 'Missing _raw');
    const topic = [...search].length >= MAX_TOPIC_LENGTH ? `${[...search].slice(0, MAX_TOPIC_LENGTH - 3).join('')}...` : search;
    const content = `Splunk alert from saved search:\n* **Search**: [${search}](${link})\n* **Host**: ${host}\n* **Source**: \`${source}\`\n* **Raw**: \`${raw}\``;
    return { topic, content };
  },
};

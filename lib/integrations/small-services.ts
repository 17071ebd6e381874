import { badRequest, missingArgument } from '../http/errors';
import { UnsupportedEvent } from './errors';
import { cTime, jsonParam, num, str } from './payload';
import { setupMessage } from './setup';
import type { Integration } from './types';

/**
 * Services whose notification is a single sentence or two, each from one payload shape
 * (Canarytokens, Codeship, Crashlytics, Dialogflow, Flock, Dropbox, Home Assistant, Insping,
 * Open Collective, Mention, AppFollow, Transifex, Splunk, Freshping, HelloSign, Jotform).
 */

/** A token from canarytokens.org was triggered (Thinkst's paid Canary has its own integration). */
export const canarytoken: Integration = {
  name: 'canarytoken',
  displayName: 'Canarytokens',
  handle(request) {
    const p = request.json();
    const content = `**:alert: Canarytoken has been triggered on ${p.time}!**\n\n${p.memo} \n\n[Manage this canarytoken](${p.manage_url})`;
    return { topic: 'canarytoken alert', content };
  },
};

const CODESHIP_STATUSES: Record<string, string> = { testing: 'started', error: 'failed', success: 'succeeded' };

export const codeship: Integration = {
  name: 'codeship',
  displayName: 'Codeship',
  handle(request) {
    const build = request.json().build;
    const status = CODESHIP_STATUSES[build.status] ?? `has ${build.status} status`;
    return { topic: build.project_name, content: `[Build](${build.build_url}) triggered by ${build.committer} on ${build.branch} branch ${status}.` };
  },
};

export const crashlytics: Integration = {
  name: 'crashlytics',
  displayName: 'Crashlytics',
  handle(request) {
    const p = request.json();
    if (p.event === 'verification') return { topic: 'Setup', content: 'Webhook has been successfully configured.' };
    const issue = p.payload;
    return { topic: `${issue.display_id}: ${issue.title}`, content: `[Issue](${issue.url}) impacts at least ${issue.impacted_devices_count} device(s).` };
  },
};

/** Dialogflow's fulfillment: its answer goes to the person named by `email`, as a direct message. */
export const dialogflow: Integration = {
  name: 'dialogflow',
  displayName: 'Dialogflow',
  handle(request) {
    const p = request.json();
    const email = request.param('email');
    if (email === undefined) throw missingArgument('email');
    const status: number = p.status.code;
    let content: string;
    if (status === 200) content = p.result.fulfillment.speech || p.alternateResult.fulfillment.speech || "Dialogflow couldn't process your query.";
    else content = `${status} - ${p.status.errorDetails}`;
    return { topic: '', content, directTo: email };
  },
};

export const flock: Integration = {
  name: 'flock',
  displayName: 'Flock',
  handle(request) {
    const p = request.json();
    return { topic: 'Flock notifications', content: p.text.length !== 0 ? p.text : p.notification };
  },
};

/** Dropbox checks the URL with a GET echoing `challenge`, then POSTs when files change. */
export const dropbox: Integration = {
  name: 'dropbox',
  displayName: 'Dropbox',
  otherMethods: ['GET'],
  tellOwnerOfBadJson: false,
  handle(request) {
    if (request.method === 'POST') return { topic: 'Dropbox', content: 'File has been updated on Dropbox!' };
    const challenge = request.param('challenge');
    if (challenge === undefined) throw missingArgument('challenge');
    return { messages: [], response: {}, text: challenge };
  },
};

export const homeassistant: Integration = {
  name: 'homeassistant',
  displayName: 'HomeAssistant',
  handle(request) {
    const p = request.json();
    return { topic: 'topic' in p ? p.topic : 'homeassistant', content: p.message };
  },
};

export const insping: Integration = {
  name: 'insping',
  displayName: 'Insping',
  handle(request) {
    const data = request.json().webhook_event_data;
    const content = `State changed to **${data.check_state_name}**:\n* **URL**: ${data.request_url}\n* **Response time**: ${data.response_time} ms\n* **Timestamp**: ${cTime(data.request_start_time)}`;
    return { topic: 'insping', content };
  },
};

export const opencollective: Integration = {
  name: 'opencollective',
  displayName: 'OpenCollective',
  handle(request) {
    const data = request.json().data;
    const name: string = data.member.memberCollective.name;
    const amount: string = data.order.formattedAmount;
    const content = name === 'Incognito' ? `An **Incognito** member donated **${amount}**! :tada:` : `@_**${name}** donated **${amount}**! :tada:`;
    return { topic: 'New Member', content };
  },
};

export const mention: Integration = {
  name: 'mention',
  displayName: 'Mention',
  handle(request) {
    const p = request.json();
    return { topic: 'news', content: `**[${p.title}](${p.url})**:\n\n\`\`\` quote\n${p.description}\n\`\`\`` };
  },
};

/** AppFollow's reviews, in Slack's marks: the first line (the app) is the topic. */
export const appfollow: Integration = {
  name: 'appfollow',
  displayName: 'AppFollow',
  handle(request) {
    const text: string = request.json().text;
    const topic = /^.+/.exec(text);
    if (!topic) throw new TypeError('AppFollow message without text');
    const content = text
      .replace(/(?<=\s|^)\*(.+?\S)\*(?=\s|$)/g, '**$1**')
      .replace(/\b_(\s*)(.+?)(\s*)_\b/g, '$1*$2*$3')
      .replace(/(?<=\s|^)~(.+?\S)~(?=\s|$)/g, '~~$1~~');
    return { topic: topic[0], content };
  },
};

const TRANSIFEX_EVENTS: Record<string, [event: string, done: string]> = {
  translation_completed: ['translated', 'translated'],
  review_completed: ['review', 'reviewed'],
};

/** Transifex's notifications of a resource fully translated or reviewed (query or form parameters). */
export const transifex: Integration = {
  name: 'transifex',
  displayName: 'Transifex',
  tellOwnerOfBadJson: false,
  handle(request) {
    const [project, resource, language, given] = ['project', 'resource', 'language', 'event'].map((name) => {
      const value = request.param(name);
      if (value === undefined) throw missingArgument(name);
      return value;
    });
    const known = TRANSIFEX_EVENTS[given];
    if (!known) throw new UnsupportedEvent(given);
    return { topic: `${project} in ${language}`, content: `Resource ${resource} fully ${known[1]}.`, event: known[0] };
  },
};

/** Splunk's saved-search alerts; what the payload lacks is said to be missing. */
export const splunk: Integration = {
  name: 'splunk',
  displayName: 'Splunk',
  handle(request) {
    const p = request.json();
    const result = p.result ?? {};
    const search: string = p.search_name ?? 'Missing search_name';
    const content =
      `Splunk alert from saved search:\n* **Search**: [${search}](${p.results_link ?? 'Missing results_link'})\n` +
      `* **Host**: ${result.host ?? 'Missing host'}\n* **Source**: \`${result.source ?? 'Missing source'}\`\n* **Raw**: \`${result._raw ?? 'Missing _raw'}\``;
    return { topic: search, content };
  },
};

/** Freshping's check states, by the event name `only_events` and `exclude_events` use. */
const FRESHPING_STATES: Record<string, string> = { 'Reporting Error': 'reporting_error', Available: 'available' };

export const freshping: Integration = {
  name: 'freshping',
  displayName: 'Freshping',
  eventTypes: Object.values(FRESHPING_STATES),
  handle(request) {
    const data = request.json().webhook_event_data;
    const state = str(data, 'check_state_name');
    if (!(state in FRESHPING_STATES)) throw new UnsupportedEvent(state);
    // Freshping's "Test" button sends an Available check of the application "Webhook test".
    const isTest = str(data, 'application_name') === 'Webhook test';
    const topic = isTest ? 'Freshping' : str(data, 'check_name');
    let content: string;
    if (state === 'Reporting Error') content = `${str(data, 'request_url')} has just become unreachable.\nError code: ${num(data, 'http_status_code')}.`;
    else content = isTest ? setupMessage('Freshping') : `${str(data, 'request_url')} is back up and no longer unreachable.`;
    return { topic, content, event: FRESHPING_STATES[state] };
  },
};

/** Signers' names: "A", "A, and B", "A, B, and C" (a comma before "and" even for two). */
function hellosignNames(names: readonly string[]): string {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).map((name) => `${name}, `).join('')}and ${names.at(-1)}`;
}

/** HelloSign's signature requests (the JSON in a `json` field): who still has to sign, who just did. */
export const hellosign: Integration = {
  name: 'hellosign',
  displayName: 'HelloSign',
  handle(request) {
    const payload = jsonParam(request, 'json');
    const reply = { msg: 'Hello API Event Received' };
    if (payload === null || typeof payload !== 'object' || !('signature_request' in payload)) return { messages: [], response: reply };
    const signatureRequest = payload.signature_request;
    const title = str(signatureRequest, 'title');
    const byStatus = new Map<string, string[]>();
    for (const signature of signatureRequest.signatures) {
      const status = str(signature, 'status_code');
      byStatus.set(status, [...(byStatus.get(status) ?? []), str(signature, 'signer_name')]);
    }
    const parts: string[] = [];
    const awaiting = byStatus.get('awaiting_signature');
    if (awaiting) parts.push(`is awaiting the signature of ${hellosignNames(awaiting)}`);
    const signed = byStatus.get('signed');
    if (signed) parts.push(`was just signed by ${hellosignNames(signed)}`);
    return { messages: [{ topic: title, content: `The \`${title}\` document ${parts.join(', and ')}.` }], response: reply };
  },
};

/** A Jotform submission: its `pretty` field ("Label:value, Label:value") as a list, in the form's topic. */
export const jotform: Integration = {
  name: 'jotform',
  displayName: 'Jotform',
  handle(request) {
    const form = request.form();
    const title = form.get('formTitle');
    if (!title) throw badRequest('Unable to handle Jotform payload');
    const lines = (form.get('pretty') ?? '').split(', ').map((field) => {
      const colon = field.indexOf(':');
      if (colon < 0) throw badRequest('Unable to handle Jotform payload');
      const label = field.slice(0, colon);
      // A question's label ends with its question mark; the answer follows it after a space.
      return `* **${label}**${label.endsWith('?') ? ' ' : ': '}${field.slice(colon + 1)}`;
    });
    return { topic: title, content: lines.join('\n') };
  },
};

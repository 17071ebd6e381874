import { missingArgument } from '../http/errors';
import { UnsupportedEvent } from './errors';
import type { Integration } from './types';

/**
 * Services whose notification is a single sentence or two, each from one payload shape
 * (Canarytokens, Codeship, Crashlytics, Dialogflow, Flock, Dropbox, Home Assistant, Insping,
 * Open Collective, Mention, AppFollow, Transifex, Splunk).
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

/** "Fri Dec 29 17:13:46 2017", as C's %c writes a time. */
function cTime(iso: string): string {
  const date = new Date(`${iso.replace(/\+00:00$/, '')}Z`);
  const day = date.toLocaleString('en-US', { weekday: 'short', timeZone: 'UTC' });
  const month = date.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  return `${day} ${month} ${String(date.getUTCDate()).padStart(2, ' ')} ${date.toISOString().slice(11, 19)} ${date.getUTCFullYear()}`;
}

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

import { ApiError, badRequest, missingArgument } from '../http/errors';
import { UnsupportedEvent } from './errors';
import { pythonRepr, truthy } from './payload';
import { setupMessage } from './setup';
import type { Integration, WebhookMessage, WebhookRequest, WebhookResult, WebhookServices } from './types';

/**
 * Slack's messages in Zulip: the legacy Outgoing Webhook service (form fields), and the Events
 * API (JSON): its URL check (which checks the app token given as `slack_app_token`), retries,
 * loop protection and messages, whose sender and channel Slack names by IDs that its Web API
 * (asked with the app token) turns into names.
 */

// Slack's text marks as Zulip's import of Slack reads them: *bold*, ~strike~ and _italic_
// between the characters that may surround a mark.
const BOLD = /(^|[ -(]|[+-/]|[:-?]|\{|\[|_|\||\^|~)(\*)([ -)+-~—]*)([ -)+-~]+)(\*)($|[ -']|[+-/]|[:-?]|\}|\)|\]|_|\||\^|~)/g;
const STRIKE = /(^|[ -(]|[+-/]|\*|_|[:-?]|\{|\[|\||\^)(~)([ -)+-}—]*)([ -}]+)(~)($|[ -']|[+-/]|[:-?]|\*|_|\}|\)|\]|\||\^)/g;
const ITALIC = /(^|[ -*]|[+-/]|[:-?]|\{|\[|\||\^|~)(_)([ -^`~—]*)([ -^`-~]+)(_)($|[ -']|[+-/]|[:-?]|\}|\)|\]|\*|\||\^|~)/g;
const LINK = /(<)(http:\/\/www\.|https:\/\/www\.|http:\/\/|https:\/\/|ftp:\/\/)?([a-z0-9]+([-.][a-z0-9]+)*)(\.)([a-z]{2,63}(:[0-9]{1,5})?)(\/[^>]*)?(\|)?(?:\|([^>]+))?(>)/g;
const MAILTO = /<((mailto:)?([\w.-]+@[\w.-]+(\.\w+)+))(\|)?([\w.-]+@[\w.-]+(\.\w+)+)?>/g;

/** Each match of the original text, replaced everywhere it occurs in the text as it then is. */
function replaceEach(text: string, regex: RegExp, replacement: (match: RegExpMatchArray) => string): string {
  let result = text;
  for (const match of text.matchAll(regex)) result = result.replaceAll(match[0], replacement(match));
  return result;
}

function mark(text: string, regex: RegExp, zulipMark: string): string {
  return replaceEach(text, regex, (m) => `${m[1]}${zulipMark}${m[3]}${m[4]}${zulipMark}${m[6]}`);
}

/** Slack's *bold*, ~strike~ and _italic_ as Zulip's Markdown. */
export function slackFormatting(text: string): string {
  return mark(mark(mark(text, BOLD, '**'), STRIKE, '~~'), ITALIC, '*');
}

/** Slack's <url|label> and <mailto:a@b|a@b> links as Zulip's Markdown. */
export function slackLinks(text: string): string {
  const linked = replaceEach(text, LINK, (m) => {
    const [url, label] = m[0].slice(1, -1).split(/\|(.*)/s);
    return label !== undefined ? `[${label}](${url})` : url;
  });
  return replaceEach(linked, MAILTO, (m) => m[1]);
}

const TOPIC = 'Message from Slack';

/** Where a Slack channel's messages go: one topic, a topic per Slack channel (1), or a channel per Slack channel (0). */
function routed(request: WebhookRequest, content: string, slackChannel: string): WebhookMessage {
  const mapping = request.param('channels_map_to_topics');
  if (mapping === undefined) return { topic: TOPIC, content };
  if (mapping === '1') return { topic: `channel: ${slackChannel}`, content };
  if (mapping === '0') return { topic: TOPIC, content, channel: slackChannel };
  throw badRequest('Error: channels_map_to_topics parameter other than 0 or 1');
}

function tokenNotice(error: string): string {
  return (
    "Hi there! It looks like you're trying to set up a Slack webhook\n" +
    'integration. There seems to be an issue with the Slack app token\n' +
    "you've included in the URL (if any). Please check the error message\n" +
    `below to see if you're missing anything:\n\nError: ${error}\n\n` +
    'Feel free to reach out to the [Zulip development community]\n' +
    '(https://chat.zulip.org/#narrow/channel/127-integrations) if you need\nfurther help!'
  );
}

/** What Slack's Web API answers slowly enough to give up on (the service retries after 3 seconds anyway). */
const SLACK_API_TIMEOUT_MS = 10_000;

/** The scopes a bot token needs for the Events API's messages. */
const REQUIRED_SCOPES = ['channels:history', 'channels:read', 'emoji:read', 'team:read', 'users:read', 'users:read.email'];

/** A failure of Slack's Web API: the request is refused with its words. */
function slackApiError(message: string): ApiError {
  return new ApiError('BAD_REQUEST', message, 400);
}

async function slackGet(services: WebhookServices, method: string, token: string, query: Record<string, string> = {}): Promise<Response> {
  const url = new URL(`${services.slackApi.replace(/\/+$/, '')}/${method}`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  try {
    return await fetch(url, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(SLACK_API_TIMEOUT_MS) });
  } catch {
    throw slackApiError('HTTP error accessing the Slack API.');
  }
}

/** `users.info` or `conversations.info`: the name of the person or channel with this ID. */
async function slackName(services: WebhookServices, method: 'users.info' | 'conversations.info', token: string, id: string): Promise<string> {
  if (token === '') throw missingArgument('slack_app_token');
  const [param, field] = method === 'users.info' ? ['user', 'user'] : ['channel', 'channel'];
  const response = await slackGet(services, method, token, { [param]: id });
  if (response.status === 429) throw slackApiError('Exceeded Slack rate limits.');
  if (response.status !== 200) throw slackApiError('HTTP error accessing the Slack API.');
  const answer: any = await response.json().catch(() => undefined);
  if (!answer?.ok) throw slackApiError(`Error accessing Slack API: ${answer?.error}`);
  const name = answer[field]?.name;
  if (typeof name !== 'string') throw slackApiError('HTTP error accessing the Slack API.');
  return name;
}

/**
 * Why the app token cannot read what the Events API's messages need, or null: a user token
 * (xoxp-) may do all its user may; a bot token (xoxb-) must have the scopes.
 */
async function tokenProblem(services: WebhookServices, token: string): Promise<string | null> {
  if (token === '') return 'slack_app_token is missing.';
  if (token.startsWith('xoxp-')) return null;
  if (!token.startsWith('xoxb-')) return 'Unknown token type -- must start with xoxb- or xoxp-';
  let response: Response;
  try {
    response = await slackGet(services, 'api.test', token);
  } catch {
    return `Failed to fetch data (HTTP status 0) for Slack token: ${token}`;
  }
  if (response.status !== 200) return `Failed to fetch data (HTTP status ${response.status}) for Slack token: ${token}`;
  const answer: any = await response.json().catch(() => ({}));
  if (!answer.ok && answer.error !== 'missing_scope') return `Invalid Slack token: ${token}, ${answer.error}`;
  const granted = new Set((response.headers.get('x-oauth-scopes') ?? '').split(','));
  const missing = REQUIRED_SCOPES.filter((scope) => !granted.has(scope));
  return missing.length > 0 ? `Slack token is missing the following required scopes: ${pythonRepr(missing)}` : null;
}

/** Slack's @-everyone marks as Zulip's wildcard mention. */
function workspaceMentions(text: string): string {
  return text.replaceAll('<!everyone>', '@**all**').replaceAll('<!channel>', '@**all**').replaceAll('<!here>', '@**all**');
}

const USER_MENTION = /<@([a-zA-Z0-9]+)\|?([a-zA-Z0-9]+)?>/;
const CHANNEL_MENTION = /(?<=<#)(.*)(?=>)/;

/**
 * Each space-separated word holding a mention becomes that mention: a person by the name Slack
 * gives them (there is no way to match Slack's people to ours), a channel in bold (so that no
 * channel of ours with the same name is linked).
 */
async function mentions(text: string, services: WebhookServices, token: string): Promise<string> {
  const words = text.split(' ');
  for (let i = 0; i < words.length; i++) {
    const user = USER_MENTION.exec(words[i]);
    const channel = CHANNEL_MENTION.exec(words[i]);
    if (user) words[i] = `@**${await slackName(services, 'users.info', token, user[1])}**`;
    else if (channel) {
      const name = channel[0].split('|')[1];
      if (name === undefined) throw slackApiError(`Unexpected Slack channel mention: ${words[i]}`);
      words[i] = name ? `**#${name}**` : '**#[private Slack channel]**';
    }
  }
  return words.join(' ');
}

/** A message of Slack's Events API, with the names of its sender (and channel) asked of Slack's Web API. */
async function eventMessage(request: WebhookRequest, services: WebhookServices, p: any): Promise<WebhookResult> {
  const token = request.param('slack_app_token') ?? '';
  const event = p.event ?? {};
  if (typeof event.type !== 'string') throw badRequest('event.type is not a string');
  if (event.type !== 'message') throw new UnsupportedEvent(event.type);
  const files: Array<{ permalink: string; title: string }> = truthy(event.files) ? event.files : [];
  const raw = event.text ?? '';
  if (typeof raw !== 'string') throw badRequest('event.text is not a string');
  const text = await mentions(workspaceMentions(slackFormatting(raw)), services, token);
  if (event.user == null) {
    // A message of one of Slack's integrations: it has no sender to name (the slack_incoming integration takes those).
    throw new UnsupportedEvent(event.subtype === 'bot_message' ? 'integration bot message' : 'unknown Slack event');
  }
  const sender = await slackName(services, 'users.info', token, String(event.user));
  const content = `**${sender}**: ${text}${files.map((file) => `\n*[${file.title}](${file.permalink})*`).join('')}`;
  const channel = request.param('channels_map_to_topics') ? await slackName(services, 'conversations.info', token, String(event.channel)) : '';
  return routed(request, content, channel);
}

export const slack: Integration = {
  name: 'slack',
  displayName: 'Slack',
  tellOwnerOfBadJson: false,
  handle(request, services) {
    const contentType = (request.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (contentType !== 'application/json') {
      const fields: Record<string, string> = {};
      for (const name of ['user_name', 'text', 'channel_name']) {
        const value = request.form().get(name) ?? request.param(name);
        if (value === undefined) throw missingArgument(name);
        fields[name] = value;
      }
      const text = slackLinks(slackFormatting(fields.text));
      return routed(request, `**${fields.user_name}**: ${text}`, fields.channel_name);
    }
    const p = request.json();
    if (p?.type === 'url_verification') {
      const challenge = p.challenge;
      if (typeof challenge !== 'string') throw badRequest('challenge is not a string');
      return tokenProblem(services, request.param('slack_app_token') ?? '').then((problem): WebhookResult => {
        // The owner hears why; Slack gets a success, so that it does not retry.
        if (problem !== null) {
          request.tellOwner(tokenNotice(problem));
          return null;
        }
        return { messages: [{ topic: 'Integration events', content: setupMessage('Slack') }], response: { challenge } };
      });
    }
    // Slack retries what was not answered in 3 seconds; the first try was handled.
    if (request.header('X-Slack-Retry-Num') !== undefined) return null;
    // Messages the Slack bridge posted from Zulip must not come back.
    const appId = p?.event?.bot_profile?.app_id;
    if (appId != null && p.api_app_id === appId) return null;
    return eventMessage(request, services, p);
  },
};

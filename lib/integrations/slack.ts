import { badRequest, missingArgument } from '../http/errors';
import { UnsupportedEvent } from './errors';
import { setupMessage } from './setup';
import type { Integration, WebhookMessage, WebhookRequest } from './types';

/**
 * Slack's messages in Zulip: the legacy Outgoing Webhook service (form fields), and the Events
 * API's URL check, retries and loop protection. Messages of the Events API name their sender
 * and channel by Slack IDs that only Slack's Web API resolves, which this server does not call.
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

export const slack: Integration = {
  name: 'slack',
  displayName: 'Slack',
  tellOwnerOfBadJson: false,
  handle(request) {
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
    if (p.type === 'url_verification') {
      if (!request.param('slack_app_token')) {
        request.tellOwner(tokenNotice('slack_app_token is missing.'));
        return null;
      }
      return { messages: [{ topic: 'Integration events', content: setupMessage('Slack') }], response: { challenge: p.challenge } };
    }
    // Slack retries what was not answered in 3 seconds; the first try was handled.
    if (request.header('X-Slack-Retry-Num') !== undefined) return null;
    const event = p.event ?? {};
    // Messages the Slack bridge posted from Zulip must not come back.
    const appId = event.bot_profile?.app_id;
    if (appId != null && p.api_app_id === appId) return null;
    if (event.type !== 'message') throw new UnsupportedEvent(String(event.type));
    if (event.user == null) throw new UnsupportedEvent(event.subtype === 'bot_message' ? 'integration bot message' : 'unknown Slack event');
    throw badRequest("Slack's Events API messages need Slack's Web API, which this server does not call");
  },
};

import { ApiError } from '../http/errors';
import { defaultReadBySender } from '../http/client-name';
import { withoutCredentials } from '../http/url-credentials';
import { sendMessage, type Addressee } from '../messages/actions';
import { normalizeContent } from '../messages/addressing';
import { updateFlags } from '../messages/flag-actions';
import { directParticipants } from '../messages/conversations';
import { fenced, messageLink, silentMention } from '../messages/notices';
import { MessagePresenter } from '../messages/present';
import type { MessageRow } from '../messages/queries';
import { parseWidgetContent, type WidgetContent } from '../messages/widgets';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { ZULIP_VERSION } from '../version';
import { ServiceInterface, type BotServiceRow } from './queries';
import type { JobOutcome, OutgoingWebhookJob } from './webhook-queue';

/**
 * Calling outgoing-webhook bots, as Zulip's outgoing webhook worker does: the message that set
 * a bot off is POSTed to the bot's URL, and what the bot's server answers is posted back by
 * the bot, in the same topic or direct conversation. When the call fails, the bot says so in
 * the conversation and tells its owner why, by direct message.
 *
 * The server makes no other request for a bot: only its configured URL is called, redirects
 * are not followed (a redirect is a failed call), and an answer is read up to a bound.
 */

/** Zulip's MAX_REQUEST_RETRIES: a call that timed out or found no server is made four times in all. */
export const MAX_REQUEST_RETRIES = 3;
/** More than any answer worth posting (a message is cut at 10,000 characters). */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** How much of an answer the owner's notice quotes. */
const ANSWER_EXCERPT_CHARS = 500;
/** The client the bot's answers are sent from, as Zulip names it. */
const ANSWER_CLIENT = 'OutgoingWebhookResponse';
const USER_AGENT = `StoaOutgoingWebhook/${ZULIP_VERSION}`;

/** Makes the server call bots' URLs for the messages that set them off. */
export function startOutgoingWebhooks(stoa: Stoa): void {
  stoa.outgoingWebhooks.start((job, shutdown) => callBot(stoa, job, shutdown));
}

/** One call to one bot about one message, with what it needs. */
interface Call {
  stoa: Stoa;
  job: OutgoingWebhookJob;
  bot: UserRow;
  service: BotServiceRow;
  message: MessageRow;
}

type Answer = { status: number; text: string | undefined };

/** One attempt. Resolves to 'retry' when it timed out or found no server and tries are left. */
async function callBot(stoa: Stoa, job: OutgoingWebhookJob, shutdown: AbortSignal): Promise<JobOutcome> {
  if (!stoa.db.open || shutdown.aborted) return 'done';
  const bot = stoa.users.byId(job.botId);
  const service = stoa.botServices.ofBot(job.botId);
  // Deleted since it was sent, or the bot deactivated: nobody is left to ask or to answer.
  const message = stoa.messages.byId(job.messageId);
  if (!bot?.is_active || !service || !message) return 'done';
  const call: Call = { stoa, job, bot, service, message };

  if (service.interface === ServiceInterface.SLACK && message.stream_id === null) {
    failInConversation(call, 'bots in the Slack format cannot answer direct messages.');
    return 'done';
  }
  const url = callableUrl(service.base_url);
  if (!url) {
    failInConversation(call, 'this bot has no usable URL to call.');
    notifyOwner(call, `Its URL (\`${service.base_url || 'none'}\`) cannot be called: set an http or https URL in its settings.`);
    return 'done';
  }

  const body = service.interface === ServiceInterface.SLACK ? slackPayload(call) : JSON.stringify(zulipPayload(call));
  let answer: Answer;
  const timeoutSeconds = stoa.config.outgoingWebhookTimeoutSeconds;
  // One controller per call, aborted by the timeout or the shutdown; the shutdown's listener
  // is removed after, so the long-lived shutdown signal keeps nothing of finished calls.
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, timeoutSeconds * 1000);
  const onShutdown = () => abort.abort();
  shutdown.addEventListener('abort', onShutdown);
  try {
    answer = await post(url, body, abort.signal);
  } catch (err) {
    if (shutdown.aborted || !stoa.db.open) return 'done';
    const problem = timedOut
      ? `No answer came within ${timeoutSeconds} seconds.`
      : `Its server could not be reached (${failureCode(err)}). Is it running?`;
    stoa.log(`Outgoing webhook: bot ${bot.id}, message ${message.id}, attempt ${job.failedTries + 1}: ${problem}`);
    if (job.failedTries < MAX_REQUEST_RETRIES) return 'retry';
    failInConversation(call, 'this bot is unavailable.');
    notifyOwner(call, `${problem} It was tried ${MAX_REQUEST_RETRIES + 1} times.`);
    markProcessed(call);
    return 'done';
  } finally {
    clearTimeout(timer);
    shutdown.removeEventListener('abort', onShutdown);
  }
  if (!stoa.db.open) return 'done';
  if (answer.status >= 200 && answer.status < 300) {
    postAnswer(call, answer.text);
  } else {
    stoa.log(`Outgoing webhook: bot ${bot.id}, message ${message.id}: its server answered with status ${answer.status}`);
    failInConversation(call, `this bot's server answered with status ${answer.status}.`);
    notifyOwner(call, `Its server answered with HTTP status *${answer.status}*.`, answer.text);
  }
  markProcessed(call);
  return 'done';
}

/** The bot's URL if the server may call it: http or https only. */
function callableUrl(baseUrl: string): URL | undefined {
  try {
    const url = new URL(baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** What made a request fail before any answer: the network's error code where there is one. */
function failureCode(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

/** POSTs JSON text, or a form (which sets its own content type). */
async function post(configured: URL, body: string | URLSearchParams, signal: AbortSignal): Promise<Answer> {
  const { url, authorization } = withoutCredentials(configured);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'User-Agent': USER_AGENT,
      ...(typeof body === 'string' ? { 'Content-Type': 'application/json' } : {}),
      ...(authorization ? { Authorization: authorization } : {}),
    },
    body,
    // Only the configured URL is ever called: a redirect is an answer, not a new request.
    redirect: 'manual',
    signal,
  });
  return { status: response.status, text: await readBounded(response) };
}

/** The answer's text, or undefined when it is larger than any answer worth reading. */
async function readBounded(response: Response): Promise<string | undefined> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Zulip's outgoing webhook payload (POST /zulip-outgoing-webhook in Zulip's API description):
 * the message as the bot would fetch it, in Markdown with its HTML beside it.
 */
export function zulipPayload({ stoa, job, bot, service, message }: Call): Record<string, unknown> {
  const presented = new MessagePresenter(stoa).presentOne(bot, message, {
    applyMarkdown: false,
    clientGravatar: false,
    allowEmptyTopicName: true,
    reactionTypeNames: 'zulip',
  });
  return {
    data: message.content,
    message: { ...presented, rendered_content: message.rendered_content },
    bot_email: bot.email,
    bot_full_name: bot.full_name,
    token: service.token,
    trigger: job.trigger,
  };
}

/** The form Slack's outgoing webhooks post, with Zulip's IDs prefixed as Slack's are. */
function slackPayload({ stoa, job, bot, service, message }: Call): URLSearchParams {
  const sender = stoa.users.byId(message.sender_id)!;
  const channel = stoa.channels.byId(message.stream_id!)!;
  return new URLSearchParams({
    token: service.token,
    team_id: `T${stoa.realm.get()!.id}`,
    team_domain: new URL(stoa.site).host,
    channel_id: `C${channel.id}`,
    channel_name: channel.name,
    thread_ts: String(message.date_sent),
    timestamp: String(message.date_sent),
    user_id: `U${sender.id}`,
    user_name: sender.full_name,
    text: message.content,
    trigger_word: job.trigger,
    service_id: String(bot.id),
  });
}

/** Python's truth: Zulip reads response_not_required as Python does. */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** A value the bot gave as its answer, as text (Zulip takes str() of it). */
function asText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

type Reply = { content: string; widget?: unknown } | null;

/** What a 2xx answer asks the bot to post: a reply, nothing, or (thrown) why it cannot be read. */
function readReply(serviceInterface: number, text: string | undefined): Reply {
  if (text === undefined) throw new ApiError('BAD_REQUEST', `the answer is larger than ${MAX_ANSWER_BYTES} bytes.`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError('BAD_REQUEST', 'the answer is not valid JSON.');
  }
  // Zulip's own bot server once answered "" for "nothing to say".
  if (json === '') return null;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ApiError('BAD_REQUEST', 'the answer is not a JSON object.');
  }
  const fields = json as Record<string, unknown>;
  let content: string | undefined;
  let widget: unknown;
  if (serviceInterface === ServiceInterface.SLACK) {
    content = asText(fields.text);
  } else {
    if (truthy(fields.response_not_required)) return null;
    // response_string is the older name of content, which Zulip still reads first.
    content = 'response_string' in fields ? asText(fields.response_string) : asText(fields.content);
    if (!('response_string' in fields)) widget = fields.widget_content;
  }
  if (content === undefined || content.trim() === '') return null;
  return { content, widget };
}

function postAnswer(call: Call, text: string | undefined): void {
  try {
    const reply = readReply(call.service.interface, text);
    if (!reply) return;
    const widget = reply.widget === undefined || reply.widget === null ? undefined : widgetOf(reply.widget);
    postInConversation(call, reply.content, widget);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    failInConversation(call, err.message);
    notifyOwner(call, `Its server answered, but the answer could not be posted:\n> ${err.message}`, text);
  }
}

function widgetOf(value: unknown): WidgetContent {
  return parseWidgetContent(typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * Posts as the bot where the message is: its topic, or its direct conversation. As in Zulip,
 * the bot needs no subscription to answer where it was mentioned. An archived or deleted
 * channel takes no answer.
 */
function postInConversation({ stoa, bot, message }: Call, content: string, widget?: WidgetContent): void {
  let addressee: Addressee;
  if (message.stream_id !== null) {
    const channel = stoa.channels.byId(message.stream_id);
    if (!channel || channel.is_archived) return;
    addressee = { type: 'channel', channel, topic: message.topic };
  } else {
    addressee = { type: 'direct', users: directParticipants(stoa, message.recipient_id) };
  }
  sendMessage(stoa, bot, addressee, normalizeContent(content), {
    client: ANSWER_CLIENT,
    readBySender: defaultReadBySender(ANSWER_CLIENT),
    widget,
  });
}

/** The bot's short notice, in the conversation, that it could not answer. */
function failInConversation(call: Call, reason: string): void {
  postInConversation(call, `**Failed:** ${reason}`);
}

function linkTo({ stoa, message }: Call): string {
  const channel = message.stream_id === null ? undefined : stoa.channels.byId(message.stream_id);
  if (channel) return messageLink(stoa, channel, message.topic, message.id);
  const ids = directParticipants(stoa, message.recipient_id).map((user) => user.id);
  return `${stoa.site}/#narrow/dm/${ids.join(',')}/near/${message.id}`;
}

/** Tells the bot's owner, by a direct message from the bot, why a call failed. */
function notifyOwner(call: Call, problem: string, answer?: string): void {
  const { stoa, bot } = call;
  const owner = bot.bot_owner_id === null ? undefined : stoa.users.byId(bot.bot_owner_id);
  if (!owner?.is_active) return;
  const lines = [`Your bot ${silentMention(bot)} could not answer [a message](${linkTo(call)}) through its outgoing webhook.`, problem];
  if (answer) {
    const excerpt = answer.length > ANSWER_EXCERPT_CHARS ? `${answer.slice(0, ANSWER_EXCERPT_CHARS)}…` : answer;
    lines.push(`Its server's answer was:\n${fenced(excerpt)}`);
  }
  sendMessage(stoa, bot, { type: 'direct', users: [owner] }, normalizeContent(lines.join('\n')), {
    client: ANSWER_CLIENT,
    readBySender: defaultReadBySender(ANSWER_CLIENT),
  });
}

/** As Zulip does once a bot has been called: the message is read for the bot, if it has a copy. */
function markProcessed({ stoa, bot, message }: Call): void {
  if (stoa.messages.flagsOfMany(bot.id, [message.id]).has(message.id)) updateFlags(stoa, bot, [message.id], 'add', 'read');
}

import { parse as parseQueryString } from 'node:querystring';
import express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { checkApiKey } from '../http/auth';
import { afterCommit, handleRequest, write } from '../events/send';
import { ApiError, badRequest, invalidApiKey, missingArgument, unauthorized, userDeactivated } from '../http/errors';
import { MAX_BODY_BYTES } from '../http/params';
import { sendError, sendSuccess } from '../http/respond';
import { hasApiKeyFormat } from '../auth/credentials';
import { sendMessage } from '../messages/actions';
import { checkCanCreateTopic, checkCanPost, checkTopicPolicy, normalizeContent, normalizeTopic } from '../messages/addressing';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { anomalousPayload, malformedJson, missingEventHeader, UnsupportedEvent, unsupportedEvent } from './errors';
import { eventMatches } from './event-filter';
import { INTEGRATIONS } from './table';
import type { Integration, WebhookMessage, WebhookReply, WebhookRequest, WebhookResult } from './types';
import { supportAddress, tellOwner } from './owner-notices';

/** The path every integration is served at, under /api/v1. */
export const WEBHOOK_PATH = '/external/:integration';

const rawBody = express.raw({ type: () => true, limit: MAX_BODY_BYTES });

/**
 * POST /api/v1/external/{integration}: authenticates the bot by its API key (in the query or
 * by HTTP Basic), reads the body whatever its content type, lets the integration turn it into
 * messages and sends them as the bot, applying the URL's common parameters.
 */
export function webhookHandler(stoa: Stoa): RequestHandler {
  return (req, res, next) => {
    const integration = INTEGRATIONS.get(String(req.params.integration));
    if (!integration) return next(new ApiError('BAD_REQUEST', 'Not Found', 404));
    const methods = ['POST', ...(integration.otherMethods ?? [])];
    if (!methods.includes(req.method)) {
      return next(new ApiError('BAD_REQUEST', 'Method Not Allowed', 405, { allowed_methods: methods }, { Allow: methods.join(', ') }));
    }
    rawBody(req, res, (err?: unknown) => {
      if (err) return next(err);
      try {
        serve(stoa, integration, req, res, next);
      } catch (failure) {
        next(failure);
      }
    });
  };
}

function serve(stoa: Stoa, integration: Integration, req: Request, res: Response, next: NextFunction): void {
  const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
  const query = fields(parseQueryString(req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : ''));
  const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const body = contentType === 'application/x-www-form-urlencoded' ? fields(parseQueryString(raw)) : contentType === 'multipart/form-data' ? multipartFields(raw, req.headers['content-type'] ?? '') : new Map<string, string>();
  const param = (name: string) => body.get(name) ?? query.get(name);
  const bot = authenticateWebhook(stoa, req, param('api_key'), integration.basicAuthEmailEscaped === true);
  const notices: string[] = [];
  const request = webhookRequest(stoa, integration, req, raw, body, param, bot, notices);
  const produced = runIntegration(stoa, integration, request);
  const deliver = (reply: WebhookReply | ApiError) => {
    try {
      send(stoa, integration, bot, reply, param, notices, req, res);
    } catch (failure) {
      next(failure);
    }
  };
  // Most integrations answer at once; one that asks the service's own API for names (Slack's
  // Events API) answers later, and its messages are sent then.
  if (produced instanceof Promise) produced.then(deliver, next);
  else deliver(produced);
}

/** Sends what the integration made of the request (or its refusal, telling the owner) and answers. */
function send(
  stoa: Stoa,
  integration: Integration,
  bot: UserRow,
  reply: WebhookReply | ApiError,
  param: (name: string) => string | undefined,
  notices: string[],
  req: Request,
  res: Response,
): void {
  const outcome = handleRequest(stoa, () => {
    try {
      if (reply instanceof ApiError) throw reply;
      const { messages, response, text } = reply;
      const filters = eventFilters(param);
      for (const message of messages) {
        if (message.event !== undefined && !eventMatches(message.event, filters)) continue;
        sendOne(stoa, integration, bot, message, param, notices);
      }
      flush(stoa, bot, notices);
      return text !== undefined ? new PlainText(text) : response;
    } catch (err) {
      // The owner hears of what went wrong even though the request fails: the notice is
      // written and the error answered once it is committed.
      if (!(err instanceof ApiError)) throw err;
      if (err.code === 'INVALID_JSON' && integration.tellOwnerOfBadJson !== false) notices.push(badJsonNotice(integration));
      if (err.code === 'UNSUPPORTED_WEBHOOK_EVENT_TYPE') notices.push(unsupportedNotice(bot, integration, String(err.extra.event_type)));
      flush(stoa, bot, notices);
      return err;
    }
  });
  afterCommit(stoa, (failure) => {
    if (res.headersSent) return;
    const error = failure ?? (outcome instanceof ApiError ? outcome : undefined);
    if (error instanceof ApiError && integration.errorBody) {
      res.status(error.status).json(integration.errorBody({ message: error.message, status: error.status }));
    } else if (error) sendError(req, res, error, stoa.log);
    else if (outcome instanceof PlainText) res.type('text/plain; charset=utf-8').send(outcome.text);
    else sendSuccess(res, outcome as Record<string, unknown>, []);
  });
}

/** A reply that is not Zulip's JSON: the text a service asked to have echoed. */
class PlainText {
  constructor(readonly text: string) {}
}

function flush(stoa: Stoa, bot: UserRow, notices: readonly string[]): void {
  if (notices.length > 0) write(stoa, () => tellOwner(stoa, bot, notices[0]));
}

/** The account behind the request: `api_key` in the query or body, or HTTP Basic email:key. */
function authenticateWebhook(stoa: Stoa, req: Request, apiKey: string | undefined, emailEscaped: boolean): UserRow {
  if (apiKey === undefined) {
    const basic = basicCredentials(req.headers.authorization);
    if (!basic) throw missingArgument('api_key');
    const email = emailEscaped ? basic.email.replaceAll('%40', '@') : basic.email;
    const outcome = checkApiKey(stoa, email, basic.key, true);
    if (outcome instanceof ApiError) throw unauthorized(outcome.message);
    return outcome;
  }
  const key = apiKey.trim();
  if (!hasApiKeyFormat(key)) throw invalidApiKey('Malformed API key');
  const user = stoa.users.byApiKey(key);
  if (!user || user.is_system_bot) throw invalidApiKey();
  if (!user.is_active) throw userDeactivated();
  return user;
}

function basicCredentials(header: string | undefined): { email: string; key: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { email: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
}

function webhookRequest(
  stoa: Stoa,
  integration: Integration,
  req: Request,
  raw: string,
  body: Map<string, string>,
  param: (name: string) => string | undefined,
  bot: UserRow,
  notices: string[],
): WebhookRequest {
  let parsed: { value: unknown } | undefined;
  let branches: Set<string> | undefined | null = null;
  const header = (name: string) => {
    const value = req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  return {
    method: req.method,
    headers: req.headers,
    raw,
    bot,
    param,
    header,
    requireHeader(name, service = integration.displayName) {
      const value = header(name);
      if (value !== undefined) return value;
      notices.push(missingHeaderNotice(bot, req.originalUrl.split('?')[0], name, service, supportAddress(stoa)));
      throw missingEventHeader(name);
    },
    json() {
      if (!parsed) {
        try {
          parsed = { value: JSON.parse(raw) };
        } catch {
          throw malformedJson();
        }
      }
      return parsed.value;
    },
    form: () => body,
    people: {
      byEmail(email) {
        const user = stoa.users.byAnyEmail(email);
        return user && user.is_active && !user.is_system_bot ? user : undefined;
      },
      guess(name) {
        const folded = name.toLowerCase();
        return stoa.users
          .inRealm()
          .find((u) => u.is_active && (u.full_name.toLowerCase() === folded || u.delivery_email.toLowerCase().startsWith(folded)));
      },
    },
    tellOwner(content) {
      notices.push(content);
    },
    supportAddress: () => supportAddress(stoa),
    wantsBranch(branch) {
      if (branches === null) {
        const given = param('branches');
        branches = given === undefined ? undefined : new Set(given.split(',').map((b) => b.trim()));
      }
      return branches === undefined || branches.has(branch);
    },
  };
}

/**
 * The integration's messages (later, for one that asks its service first), or its refusal;
 * a payload it cannot read is the sender's fault. Anything else is our bug and thrown.
 */
function runIntegration(stoa: Stoa, integration: Integration, request: WebhookRequest): WebhookReply | ApiError | Promise<WebhookReply | ApiError> {
  const settle = (result: WebhookResult): WebhookReply => {
    if (result === null) return { messages: [], response: {} };
    if (Array.isArray(result)) return { messages: result, response: {} };
    if ('messages' in result) return result;
    return { messages: [result as WebhookMessage], response: {} };
  };
  const refusal = (err: unknown): ApiError => {
    if (err instanceof ApiError) return err;
    if (err instanceof UnsupportedEvent) return unsupportedEvent(err.eventType, integration.displayName);
    // A payload without what the service always sends (a TypeError reading it) was not sent by it.
    if (err instanceof TypeError) return anomalousPayload(integration.displayName);
    throw err;
  };
  try {
    const result = integration.handle(request, { slackApi: stoa.config.slackApi });
    return result instanceof Promise ? result.then(settle, refusal) : settle(result);
  } catch (err) {
    return refusal(err);
  }
}

interface EventFilters {
  only?: string[];
  exclude?: string[];
}

function eventFilters(param: (name: string) => string | undefined): EventFilters {
  return { only: eventList(param, 'only_events'), exclude: eventList(param, 'exclude_events') };
}

function eventList(param: (name: string) => string | undefined, name: string): string[] | undefined {
  const text = param(name);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(`${name} is not valid JSON`);
  }
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw badRequest(`${name} is not a list`);
  return value;
}

/** Sends one message as the bot: to the URL's channel, to the bot's owner without one, or to whom the integration names. */
function sendOne(
  stoa: Stoa,
  integration: Integration,
  bot: UserRow,
  message: WebhookMessage,
  param: (name: string) => string | undefined,
  notices: string[],
): void {
  const client = `Zulip${integration.displayName.replace(/\s/g, '')}Webhook`;
  const options = { client, readBySender: false };
  const content = normalizeContent(message.content);
  const unquote = (text: string | undefined) => (text !== undefined && integration.unquoteParameters ? safeDecode(text) : text);
  const stream = message.channel ?? unquote(param('stream'));
  if (message.directTo !== undefined || stream === undefined) {
    const to = message.directTo !== undefined ? stoa.users.byAnyEmail(message.directTo) : ownerOf(stoa, bot);
    if (!to) throw badRequest(`Invalid email '${message.directTo}'`);
    sendMessage(stoa, bot, { type: 'direct', users: [to] }, content, options);
    return;
  }
  const name = stream.trim();
  const byId = /^\d+$/.test(name);
  const channel = byId ? stoa.channels.byId(Number(name)) : stoa.channels.byName(name);
  if (!channel) {
    notices.push(
      byId
        ? `Your bot \`${bot.email}\` tried to send a message to channel ID ${name}, but there is no channel with that ID.`
        : `Your bot \`${bot.email}\` tried to send a message to channel #**${name}**, but that channel does not exist. Click [here](#channels/new) to create it.`,
    );
    // Zulip swallows a missing channel named by name (the owner is told); one named by ID is an error.
    if (byId) throw new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${name}' does not exist`, 400, { stream_id: Number(name) });
    return;
  }
  if (stoa.channels.subscriberIds(channel.recipient_id).length === 0) {
    notices.push(`Your bot \`${bot.email}\` tried to send a message to channel #**${channel.name}**. The channel exists but does not have any subscribers.`);
  }
  const topic = normalizeTopic(unquote(param('topic')) ?? message.topic);
  checkCanPost(stoa, bot, channel);
  checkTopicPolicy(stoa, channel, topic);
  checkCanCreateTopic(stoa, bot, channel, topic);
  sendMessage(stoa, bot, { type: 'channel', channel, topic }, content, options);
}

/** Python's unquote: percent escapes decoded, a broken one left as it is. */
function safeDecode(text: string): string {
  return text.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

function ownerOf(stoa: Stoa, bot: UserRow): UserRow {
  return (bot.bot_owner_id !== null ? stoa.users.byId(bot.bot_owner_id) : undefined) ?? bot;
}

function badJsonNotice(integration: Integration): string {
  return (
    `Hi there! It looks like you tried to set up the Zulip ${integration.displayName} integration, ` +
    "but the webhook did not send data in the JSON format that this integration expects."
  );
}

function unsupportedNotice(bot: UserRow, integration: Integration, eventType: string): string {
  return (
    `Your bot \`${bot.email}\` received a ${integration.displayName} event of type '${eventType}', ` +
    'which the integration does not support, so nothing was posted. You may want to turn that event off ' +
    `in ${integration.displayName}'s webhook settings.`
  );
}

function missingHeaderNotice(bot: UserRow, path: string, header: string, service: string, support: string): string {
  return (
    `Hi there! Your bot ${bot.full_name} just sent an HTTP request to ${path} that\n` +
    `is missing the HTTP ${header} header. Because this header is how\n` +
    `${service} indicates the event type, this usually indicates a configuration\n` +
    "issue, where you either entered the URL for a different integration, or are running\n" +
    "an older version of the third-party service that doesn't provide that header.\n" +
    `Contact ${support} if you need help debugging!`
  );
}

/** Query-string or form fields, the last value of a repeated key winning as in Django. */
function fields(record: Record<string, string | string[] | undefined>): Map<string, string> {
  const map = new Map<string, string>();
  for (const [key, value] of Object.entries(record)) {
    const last = Array.isArray(value) ? value.at(-1) : value;
    if (last !== undefined) map.set(key, last);
  }
  return map;
}

/** The text fields of a multipart body already read whole (webhook bodies are small). */
function multipartFields(raw: string, contentType: string): Map<string, string> {
  const map = new Map<string, string>();
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return map;
  for (const part of raw.split(`--${boundary}`)) {
    const split = part.search(/\r?\n\r?\n/);
    if (split < 0) continue;
    const name = /name="([^"]*)"/.exec(part.slice(0, split))?.[1];
    if (name === undefined) continue;
    const value = part.slice(split).replace(/^\r?\n\r?\n/, '').replace(/\r?\n$/, '');
    map.set(name, value);
  }
  return map;
}

import type { IncomingHttpHeaders } from 'node:http';
import type { UserRow } from '../users/queries';

/** One message an integration posts: to the channel of the URL's `stream`, in `topic`. */
export interface WebhookMessage {
  topic: string;
  content: string;
  /**
   * The event as `only_events` and `exclude_events` name it (Zulip's complete_event_type);
   * a message without one is always sent.
   */
  event?: string;
  /** The channel (by name) to send to instead of the URL's `stream` (Slack's channels, mapped to Zulip's). */
  channel?: string;
  /** A direct message to this person (an email) instead of the URL's channel. */
  directTo?: string;
}

/** Messages to send, with fields of its own for the success body (Slack's `ok`). */
export interface WebhookReply {
  messages: readonly WebhookMessage[];
  response: Record<string, unknown>;
  /** A plain-text body to answer instead of JSON (Dropbox's challenge). */
  text?: string;
}

/** What an integration makes of a request: messages to send (none: the event is ignored). */
export type WebhookResult = WebhookMessage | readonly WebhookMessage[] | WebhookReply | null;

/** A webhook request as an integration reads it. */
export interface WebhookRequest {
  method: string;
  headers: IncomingHttpHeaders;
  /** The body as text, whatever its content type. */
  raw: string;
  /** The incoming-webhook bot (or user) the API key belongs to. */
  bot: UserRow;
  /** A parameter of the query string or a form-encoded body, as Zulip's typed_endpoint reads them. */
  param(name: string): string | undefined;
  /** A header's value (names are case-insensitive), or undefined. */
  header(name: string): string | undefined;
  /**
   * A header that must be there; without it the owner is told (naming the service as
   * `service`, by default the integration's displayName) and the request refused.
   */
  requireHeader(name: string, service?: string): string;
  /** The body parsed as JSON (whatever the content type); 400 "Malformed JSON" when it is not. */
  json(): any;
  /** The body's form fields (urlencoded or multipart). */
  form(): Map<string, string>;
  /** The organization's active people, for integrations that name them (Jira's mentions). */
  people: {
    /** The person with this email, or undefined. */
    byEmail(email: string): { full_name: string } | undefined;
    /** The first person whose full name is `name` or whose email starts with it, ignoring case. */
    guess(name: string): { full_name: string; email: string } | undefined;
  };
  /**
   * Has the notification bot tell the bot's owner of a problem with the request (rate-limited),
   * even when the request then fails.
   */
  tellOwner(content: string): void;
  /** The address people are told to write to for help (in such notices). */
  supportAddress(): string;
  /** Whether a git integration should report on a branch (the `branches` parameter). */
  wantsBranch(branch: string): boolean;
}

/** Where integrations reach the services they ask for more than the payload says. */
export interface WebhookServices {
  /** Base URL of Slack's Web API (https://slack.com/api). */
  slackApi: string;
}

/** A URL parameter of an integration, as the integration URL builder offers it. */
export interface WebhookUrlOption {
  key: string;
  label: string;
  /** The field that asks for it: a text box, or a checkbox whose value is `true`. */
  inputType: 'text' | 'boolean';
}

/** The git integrations' `branches` parameter (see WebhookRequest.wantsBranch). */
export const BRANCHES_OPTION: WebhookUrlOption = { key: 'branches', label: 'Only these branches (comma-separated)', inputType: 'text' };

/** One incoming-webhook integration. */
export interface Integration {
  /** Its name in the URL: /api/v1/external/<name>. */
  name: string;
  /** Other URL names Zulip serves it under (githubsponsors for github). */
  aliases?: readonly string[];
  /** How Zulip names it in errors and in the sending client (Zulip<name>Webhook). */
  displayName: string;
  /** Its name in menus (the integration URL builder), when not displayName. */
  menuName?: string;
  /** The events `only_events` and `exclude_events` can name; absent when its messages name none. */
  eventTypes?: readonly string[];
  /** The parameters of its own that the integration URL builder offers (`branches` ...). */
  urlOptions?: readonly WebhookUrlOption[];
  /** HTTP methods it accepts besides POST. */
  otherMethods?: readonly string[];
  /** Whether HTTP Basic's email may have its @ written %40 (Beanstalk's form refuses an @ there). */
  basicAuthEmailEscaped?: boolean;
  /** Whether `stream` and `topic` are percent-decoded once more (Jira escapes its URLs twice). */
  unquoteParameters?: boolean;
  /** Whether a body that is not JSON makes the owner hear of it (most JSON integrations). */
  tellOwnerOfBadJson?: boolean;
  /**
   * What the request says. An integration that must ask its service first (Slack's Events API
   * names people and channels by ID) answers with a promise; `services` says where to ask.
   */
  handle(request: WebhookRequest, services: WebhookServices): WebhookResult | Promise<WebhookResult>;
  /** An error body in the service's own shape, for services that read it (Slack's {ok: false}). */
  errorBody?: (error: { message: string; status: number }) => Record<string, unknown>;
}

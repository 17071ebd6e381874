import type { ReactionTypeNames } from '../emoji/choice';
import { checkSpectatorAccess } from '../channels/access';
import { badRequest } from '../http/errors';
import { NARROW_PARAM, normalizeNarrow } from '../messages/narrow';
import type { ParamSchema } from '../http/validate';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { SPECTATOR_PLACEHOLDER } from '../users/state';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../version';
import type { ClientCapabilities, QueueSettings } from './queues';
import type { RegisterParams, StateContext } from './state-context';
import { organizationLanguage, SPECTATOR_STATE_PROVIDERS, type SpectatorContext } from './spectator-state';
import { STATE_PROVIDERS } from './state';

/** A queue nobody polls lives this long unless the client asks for longer (Zulip's default). */
export const DEFAULT_QUEUE_LIFESPAN_SECS = 10 * 60;
/** The longest lifespan a client may ask for: a week, as on Zulip. */
const MAX_QUEUE_LIFESPAN_SECS = 7 * 24 * 60 * 60;
/**
 * What idle_queue_timeout "mobile" gives (Zulip 12, feature level 481): twelve hours, so a
 * phone that sleeps through a night finds its queue still there instead of reloading.
 */
export const MOBILE_QUEUE_LIFESPAN_SECS = 12 * 60 * 60;

/** The parameters of POST /register, which GET /events also takes to register without a queue_id. */
export const REGISTER_PARAMS: Record<string, ParamSchema> = {
  apply_markdown: { type: 'boolean', default: false },
  client_gravatar: { type: 'boolean', default: false },
  include_subscribers: { type: ['boolean', 'string'], enum: [true, false, 'partial'], default: false },
  slim_presence: { type: 'boolean', default: false },
  presence_history_limit_days: { type: ['integer', 'null'], default: null },
  event_types: { type: ['array', 'null'], items: { type: 'string' }, default: null },
  fetch_event_types: { type: ['array', 'null'], items: { type: 'string' } },
  all_public_streams: { type: 'boolean', default: false },
  client_capabilities: { type: 'object', default: {} },
  narrow: NARROW_PARAM,
  queue_lifespan_secs: { type: 'integer', minimum: 0, default: 0 },
  // Seconds, or "mobile"; checked in queueLifespanSecs.
  idle_queue_timeout: { type: ['integer', 'string'] },
};

const CAPABILITY_NAMES: ReadonlyArray<keyof ClientCapabilities> = [
  'notification_settings_null',
  'bulk_message_deletion',
  'user_avatar_url_field_optional',
  'stream_typing_notifications',
  'user_settings_object',
  'linkifier_url_template',
  'user_list_incomplete',
  'include_deactivated_groups',
  'empty_topic_name',
  'archived_channels',
  'simplified_presence_events',
];

function capabilities(declared: Record<string, unknown>): ClientCapabilities {
  const result = {} as ClientCapabilities;
  for (const name of CAPABILITY_NAMES) {
    const value = declared[name] ?? false;
    if (typeof value !== 'boolean') throw badRequest(`client_capabilities["${name}"] is not a boolean`);
    result[name] = value;
  }
  return result;
}

/**
 * How long the queue lives without a poll: idle_queue_timeout (seconds up to a week, or
 * "mobile") where given, as Zulip 12 reads it; else the older queue_lifespan_secs, which never
 * shortens the default; else ten minutes.
 */
function queueLifespanSecs(params: RegisterParams): number {
  const asked = params.idle_queue_timeout;
  if (asked === 'mobile') return MOBILE_QUEUE_LIFESPAN_SECS;
  if (typeof asked === 'string') throw badRequest('Invalid idle_queue_timeout');
  if (asked !== undefined) {
    if (asked < 1) throw badRequest('idle_queue_timeout is too small');
    return Math.min(asked, MAX_QUEUE_LIFESPAN_SECS);
  }
  if (params.queue_lifespan_secs === 0) return DEFAULT_QUEUE_LIFESPAN_SECS;
  return Math.min(Math.max(params.queue_lifespan_secs, DEFAULT_QUEUE_LIFESPAN_SECS), MAX_QUEUE_LIFESPAN_SECS);
}

/** The queue a set of register parameters asks for. */
export function queueSettings(
  user: UserRow,
  params: RegisterParams,
  reactionTypeNames: ReactionTypeNames = 'specification',
): QueueSettings {
  const lifespanSecs = queueLifespanSecs(params);
  return {
    userId: user.id,
    eventTypes: params.event_types === null ? null : new Set(params.event_types),
    narrow: normalizeNarrow(params.narrow),
    allPublicStreams: params.all_public_streams,
    includeSubscribers: params.include_subscribers,
    applyMarkdown: params.apply_markdown,
    clientGravatar: params.client_gravatar,
    slimPresence: params.slim_presence,
    capabilities: capabilities(params.client_capabilities),
    reactionTypeNames,
    lifespanMs: lifespanSecs * 1000,
  };
}

/** Which fetch types the client wants: fetch_event_types if given, else event_types; null means all. */
function wantedTypes(params: RegisterParams): (type: string) => boolean {
  const fetchTypes = params.fetch_event_types !== undefined ? params.fetch_event_types : params.event_types;
  return (type: string) => fetchTypes === null || fetchTypes.includes(type);
}

/**
 * POST /register. The queue is created before the state is read, and both happen in one
 * synchronous step: every write commits (and delivers its events) either wholly before this
 * step, so the state has it and the queue does not, or wholly after, so the queue has it.
 * Nothing can fall in between, so the state plus the queue's events never miss or double a change.
 */
export function register(
  stoa: Stoa,
  user: UserRow,
  params: RegisterParams,
  reactionTypeNames: ReactionTypeNames = 'specification',
): Record<string, unknown> {
  const settings = queueSettings(user, params, reactionTypeNames);
  const wanted = wantedTypes(params);
  const queue = stoa.queues.create(settings);
  const context: StateContext = { stoa, user, queue: settings, params };
  const state: Record<string, unknown> = {
    queue_id: queue.id,
    idle_queue_timeout_secs: settings.lifespanMs / 1000,
    last_event_id: -1,
    zulip_version: ZULIP_VERSION,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    zulip_merge_base: ZULIP_MERGE_BASE,
  };
  for (const [type, provide] of Object.entries(STATE_PROVIDERS)) {
    if (wanted(type)) Object.assign(state, provide(context));
  }
  return state;
}

/**
 * POST /register by a spectator (no account, under /json, while spectator access is on): the
 * state Zulip gives a visitor, with no event queue (queue_id null, no last_event_id). Gravatar
 * hashes and subscriber lists are not for the public: asking for them is an error, as on Zulip.
 */
export function registerSpectator(
  stoa: Stoa,
  params: RegisterParams,
  language: string | undefined,
  reactionTypeNames: ReactionTypeNames = 'specification',
): Record<string, unknown> {
  checkSpectatorAccess(stoa);
  for (const key of ['client_gravatar', 'include_subscribers'] as const) {
    if (params[key] !== false) throw badRequest(`Invalid '${key}' parameter for anonymous request`);
  }
  const queue = queueSettings(SPECTATOR_PLACEHOLDER, { ...params, all_public_streams: false }, reactionTypeNames);
  const base = { stoa, user: SPECTATOR_PLACEHOLDER, queue, params };
  const context: SpectatorContext = { ...base, language: language ?? organizationLanguage(base), wants: wantedTypes(params) };
  const state: Record<string, unknown> = {
    queue_id: null,
    zulip_version: ZULIP_VERSION,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    zulip_merge_base: ZULIP_MERGE_BASE,
  };
  for (const [type, provide] of Object.entries(SPECTATOR_STATE_PROVIDERS)) {
    if (context.wants(type)) Object.assign(state, provide(context));
  }
  return state;
}

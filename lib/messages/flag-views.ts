import { accessChannelById } from '../channels/access';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import { fetchRange, RANGE_PARAMS, resolveAnchor } from './fetch';
import { Flag, USER_CHANGEABLE_FLAGS, type FlagName } from './flags';
import { invalidFlag, markAllAsRead, markChannelAsRead, updateFlags } from './flag-actions';
import { compileNarrow, NARROW_PARAM, normalizeNarrow, type RawNarrowTerm } from './narrow';
import { EMPTY_TOPIC_DISPLAY_NAME } from './topics';

/** The flags clients may name: Zulip's API flags, without its internal bookkeeping bits. */
const API_FLAGS = new Set(Object.keys(Flag).filter((name) => name !== 'is_private' && name !== 'active_mobile_push_notification'));

/** A flag the user may change, or Zulip's error for one they may not. */
function changeableFlag(flag: string): FlagName {
  if (!API_FLAGS.has(flag)) throw invalidFlag(flag);
  if (!USER_CHANGEABLE_FLAGS.has(flag)) throw badRequest(`Flag not editable: '${flag}'`);
  return flag as FlagName;
}

function checkOp(op: string): 'add' | 'remove' {
  if (op !== 'add' && op !== 'remove') throw badRequest(`Invalid message flag operation: '${op}'`);
  return op;
}

const FLAG_PARAMS = {
  op: { type: 'string' },
  flag: { type: 'string' },
} as const;

export const updateFlagsView = endpoint<{ messages: number[]; op: string; flag: string }>({
  params: {
    properties: { messages: { type: 'array', items: { type: 'integer' } }, ...FLAG_PARAMS },
    required: ['messages', 'op', 'flag'],
  },
  view: ({ stoa, user, params }) => {
    const flag = changeableFlag(params.flag);
    const op = checkOp(params.op);
    const { applied, ignoredChannelIds } = updateFlags(stoa, user, params.messages, op, flag);
    // Messages skipped because their channel is not subscribed were not modified, so they are not listed.
    const appliedIds = new Set(applied);
    const body: Record<string, unknown> = { messages: params.messages.filter((id) => appliedIds.has(id)) };
    if (flag === 'read' && op === 'remove') body.ignored_because_not_subscribed_channels = ignoredChannelIds;
    return body;
  },
});

/** Most messages one narrow-based flag update processes, as on Zulip. */
const MAX_MESSAGES_PER_UPDATE = 5000;

export const updateFlagsForNarrowView = endpoint<{
  anchor: string | number;
  include_anchor: boolean;
  num_before: number;
  num_after: number;
  narrow: RawNarrowTerm[] | null;
  op: string;
  flag: string;
}>({
  params: {
    properties: {
      ...RANGE_PARAMS,
      narrow: { ...NARROW_PARAM, type: ['array', 'null'] },
      ...FLAG_PARAMS,
    },
    required: ['anchor', 'num_before', 'num_after', 'narrow', 'op', 'flag'],
  },
  view: ({ stoa, user, params }) => {
    if (params.num_before > 0 && params.num_after > 0 && !params.include_anchor) {
      throw badRequest('The anchor can only be excluded at an end of the range');
    }
    const flag = changeableFlag(params.flag);
    const op = checkOp(params.op);
    const numBefore = Math.min(params.num_before, Math.max(MAX_MESSAGES_PER_UPDATE - params.num_after, MAX_MESSAGES_PER_UPDATE / 2));
    const numAfter = Math.min(params.num_after, MAX_MESSAGES_PER_UPDATE - numBefore);
    const narrow = compileNarrow(stoa, user, normalizeNarrow(params.narrow ?? []));
    const anchor = resolveAnchor(stoa, narrow, params.anchor);
    const range = fetchRange(stoa, narrow, anchor, params.include_anchor, numBefore, numAfter);
    const ids = range.rows.map((row) => row.id);
    const { changed, ignoredChannelIds } = updateFlags(stoa, user, ids, op, flag);
    const body: Record<string, unknown> = {
      processed_count: ids.length,
      updated_count: changed.length,
      first_processed_id: ids.length > 0 ? ids[0] : null,
      last_processed_id: ids.length > 0 ? ids[ids.length - 1] : null,
      found_oldest: range.foundOldest,
      found_newest: range.foundNewest,
    };
    if (flag === 'read' && op === 'remove') body.ignored_because_not_subscribed_channels = ignoredChannelIds;
    return body;
  },
});

export const markAllAsReadView = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => {
    markAllAsRead(stoa, user);
    return { complete: true };
  },
});

function channelRecipient(stoa: Stoa, user: Parameters<typeof accessChannelById>[1], channelId: number): number {
  return accessChannelById(stoa, user, channelId, { need: 'content', allowArchived: true }).recipient_id;
}

export const markChannelAsReadView = endpoint<{ stream_id: number }>({
  params: { properties: { stream_id: { type: 'integer' } }, required: ['stream_id'] },
  view: ({ stoa, user, params }) => {
    markChannelAsRead(stoa, user, channelRecipient(stoa, user, params.stream_id));
    return {};
  },
});

export const markTopicAsReadView = endpoint<{ stream_id: number; topic_name: string }>({
  params: { properties: { stream_id: { type: 'integer' }, topic_name: { type: 'string' } }, required: ['stream_id', 'topic_name'] },
  view: ({ stoa, user, params }) => {
    const recipientId = channelRecipient(stoa, user, params.stream_id);
    const topic = params.topic_name === EMPTY_TOPIC_DISPLAY_NAME ? '' : params.topic_name;
    if (!stoa.messages.hasTopicRow(user.id, recipientId, topic)) throw badRequest(`No such topic '${params.topic_name}'`);
    markChannelAsRead(stoa, user, recipientId, topic);
    return {};
  },
});

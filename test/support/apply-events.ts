/**
 * What a Zulip client does with each event to keep the state it got from POST /register
 * current, written from the API documentation's description of each event. Tests apply a
 * queue's events to an old state and compare the result with a fresh registration.
 */

type State = Record<string, any>;
type Person = Record<string, any>;

const ROLE_FLAGS = (role: number) => ({
  is_owner: role === 100,
  is_admin: role <= 200,
  is_guest: role === 600,
});

function findPerson(state: State, userId: number): Person | undefined {
  for (const list of [state.realm_users, state.realm_non_active_users]) {
    const person = list?.find((p: Person) => p.user_id === userId);
    if (person) return person;
  }
  return undefined;
}

/** A deactivated user leaves every group as clients see them, ad-hoc setting groups included. */
function dropFromGroups(state: State, userId: number): void {
  for (const group of state.realm_user_groups ?? []) {
    group.members = group.members.filter((id: number) => id !== userId);
  }
  for (const [key, value] of Object.entries(state)) {
    if (key.startsWith('realm_') && value && typeof value === 'object' && 'direct_members' in value) {
      value.direct_members = value.direct_members.filter((id: number) => id !== userId);
    }
  }
  for (const key of ['realm_user_groups', 'subscriptions', 'unsubscribed', 'never_subscribed', 'streams']) {
    for (const holder of state[key] ?? []) {
      for (const value of Object.values(holder)) {
        if (value && typeof value === 'object' && 'direct_members' in value) {
          const setting = value as { direct_members: number[] };
          setting.direct_members = setting.direct_members.filter((id) => id !== userId);
        }
      }
    }
  }
}

/** Deactivated users have no presence or status to show. */
function forgetPresenceAndStatus(state: State, userId: number, email: string | undefined): void {
  if (state.presences) {
    delete state.presences[String(userId)];
    if (email) delete state.presences[email];
  }
  if (state.user_status) delete state.user_status[String(userId)];
}

/**
 * A presence event in whichever format the queue asked for: the modern map (the
 * simplified_presence_events capability) or one user's legacy entry, keyed by API email.
 * The legacy entry without an email (slim_presence alone) cannot rebuild a modern state
 * exactly, since it carries one timestamp where the state has two; no observer uses it.
 */
function applyPresenceEvent(state: State, event: Record<string, any>): void {
  if (!state.presences) return;
  if (event.presences) {
    Object.assign(state.presences, event.presences);
    return;
  }
  if (!event.email) throw new Error('a slim legacy presence event cannot update a modern presence state');
  const { client, status, timestamp } = event.presence.website;
  state.presences[event.email] = { aggregated: { client, status, timestamp }, website: event.presence.website };
}

/** A status event names only what changed; an empty value clears it, and an empty status is not listed. */
function applyUserStatusEvent(state: State, event: Record<string, any>): void {
  if (!state.user_status) return;
  const key = String(event.user_id);
  const status = { ...state.user_status[key] };
  if ('away' in event) {
    if (event.away) status.away = true;
    else delete status.away;
  }
  if ('status_text' in event) {
    if (event.status_text) status.status_text = event.status_text;
    else delete status.status_text;
  }
  if ('emoji_name' in event) {
    for (const field of ['emoji_name', 'emoji_code', 'reaction_type']) {
      if (event.emoji_name) status[field] = event[field];
      else delete status[field];
    }
  }
  if (Object.keys(status).length > 0) state.user_status[key] = status;
  else delete state.user_status[key];
}

function applyPersonUpdate(state: State, update: Person): void {
  const { user_id: userId, ...change } = update;
  const person = findPerson(state, userId);
  const own = userId === state.user_id;
  if ('is_active' in change && state.realm_users) {
    const [from, to] = change.is_active
      ? [state.realm_non_active_users, state.realm_users]
      : [state.realm_users, state.realm_non_active_users];
    const index = from.findIndex((p: Person) => p.user_id === userId);
    if (index >= 0) to.push(...from.splice(index, 1));
    if (!change.is_active) dropFromGroups(state, userId);
  }
  if (change.is_active === false) forgetPresenceAndStatus(state, userId, person?.email);
  for (const [key, value] of Object.entries(change)) {
    if (key === 'email') continue; // sent alongside timezone for old clients; not a change
    if (key === 'new_email') {
      if (person && state.presences?.[person.email]) {
        state.presences[value] = state.presences[person.email];
        delete state.presences[person.email];
      }
      if (person) person.email = value;
      if (own) state.email = value;
      continue;
    }
    if (key === 'custom_profile_field') {
      if (person?.profile_data) {
        const { id, ...entry } = value;
        if (entry.value === null) delete person.profile_data[id];
        else person.profile_data[id] = entry;
      }
      continue;
    }
    // avatar_source and avatar_url_medium describe the caller's own avatar only; User objects lack them.
    if (person && key !== 'avatar_source' && key !== 'avatar_url_medium') person[key] = value;
    if (key === 'role') {
      if (person) Object.assign(person, ROLE_FLAGS(value as number));
      if (own) Object.assign(state, ROLE_FLAGS(value as number), { is_moderator: value === 300 });
    }
    if (own && ['full_name', 'delivery_email', 'avatar_url', 'avatar_source', 'avatar_url_medium'].includes(key)) {
      state[key] = value;
    }
  }
}

/**
 * A new list of profile fields: values of deleted fields, and choices a list of options no
 * longer offers, are gone from every profile.
 */
function applyProfileFields(state: State, fields: Array<Record<string, any>>): void {
  if (state.custom_profile_fields) state.custom_profile_fields = fields;
  const byId = new Map(fields.map((field) => [String(field.id), field]));
  for (const person of [...(state.realm_users ?? []), ...(state.realm_non_active_users ?? [])]) {
    if (!person.profile_data) continue;
    for (const [id, entry] of Object.entries(person.profile_data as Record<string, { value: string }>)) {
      const field = byId.get(id);
      const offered = field?.type !== 3 || Object.hasOwn(JSON.parse(field.field_data), entry.value);
      if (!field || !offered) delete person.profile_data[id];
    }
  }
}

/** The bots a client administers: added whole, updated field by field, deleted when it no longer may. */
function applyBotEvent(state: State, event: Record<string, any>): void {
  if (!state.realm_bots) return;
  const others = state.realm_bots.filter((bot: Record<string, any>) => bot.user_id !== event.bot.user_id);
  if (event.op === 'add') {
    state.realm_bots = [...others, event.bot].sort((a, b) => a.user_id - b.user_id);
  } else if (event.op === 'delete') {
    state.realm_bots = others;
  } else if (event.op === 'update') {
    const bot = state.realm_bots.find((b: Record<string, any>) => b.user_id === event.bot.user_id);
    if (bot) Object.assign(bot, event.bot);
  } else {
    throw new Error(`unexpected realm_bot op ${event.op}`);
  }
}

function changeIds(ids: number[], change: number[], add: boolean): number[] {
  const set = new Set<number>(ids);
  for (const id of change) (add ? set.add(id) : set.delete(id));
  return [...set].sort((a, b) => a - b);
}

function applyGroupEvent(state: State, event: Record<string, any>): void {
  if (!state.realm_user_groups) return;
  if (event.op === 'add') {
    state.realm_user_groups = state.realm_user_groups.filter((g: Record<string, any>) => g.id !== event.group.id);
    state.realm_user_groups.push(structuredClone(event.group));
    state.realm_user_groups.sort((a: Record<string, any>, b: Record<string, any>) => a.id - b.id);
    return;
  }
  if (event.op === 'remove') {
    state.realm_user_groups = state.realm_user_groups.filter((g: Record<string, any>) => g.id !== event.group_id);
    return;
  }
  // Clients ignore events about groups they do not know.
  const group = state.realm_user_groups.find((g: Record<string, any>) => g.id === event.group_id);
  if (!group) return;
  switch (event.op) {
    case 'update':
      Object.assign(group, structuredClone(event.data));
      return;
    case 'add_members':
    case 'remove_members':
      group.members = changeIds(group.members, event.user_ids, event.op === 'add_members');
      return;
    case 'add_subgroups':
    case 'remove_subgroups':
      group.direct_subgroup_ids = changeIds(group.direct_subgroup_ids, event.direct_subgroup_ids, event.op === 'add_subgroups');
      return;
    default:
      throw new Error(`unexpected user_group op ${event.op}`);
  }
}

const CHANNEL_LISTS = ['subscriptions', 'unsubscribed', 'never_subscribed', 'streams'] as const;

function dropChannels(state: State, streamIds: number[]): void {
  for (const key of CHANNEL_LISTS) {
    if (state[key]) state[key] = state[key].filter((c: Record<string, any>) => !streamIds.includes(c.stream_id));
  }
}

function hasChannel(state: State, key: (typeof CHANNEL_LISTS)[number], streamId: number): boolean {
  return state[key]?.some((c: Record<string, any>) => c.stream_id === streamId) ?? false;
}

/** Every copy a client keeps of a channel's subscriber count, changed by `delta`. */
function countSubscribers(state: State, streamId: number, delta: number): void {
  for (const key of CHANNEL_LISTS) {
    for (const channel of state[key] ?? []) {
      if (channel.stream_id === streamId && typeof channel.subscriber_count === 'number') channel.subscriber_count += delta;
    }
  }
}

/** The subscriber lists and counts a client keeps, where it keeps them. */
function changeSubscribers(state: State, streamIds: number[], userIds: number[], add: boolean): void {
  // Zulip's rule: subscriber_count follows peer_add and peer_remove, one per user named.
  for (const streamId of streamIds) countSubscribers(state, streamId, add ? userIds.length : -userIds.length);
  for (const key of ['subscriptions', 'unsubscribed', 'never_subscribed'] as const) {
    for (const channel of state[key] ?? []) {
      if (!streamIds.includes(channel.stream_id) || !channel.subscribers) continue;
      const members = new Set<number>(channel.subscribers);
      for (const id of userIds) (add ? members.add(id) : members.delete(id));
      channel.subscribers = [...members].sort((a, b) => a - b);
    }
  }
}

function applyStreamEvent(state: State, event: Record<string, any>, subscribersWanted: boolean): void {
  if (event.op === 'delete') return dropChannels(state, event.stream_ids);
  if (event.op === 'update') {
    // Some updates carry related fields along (rendered_description, the other privacy fields).
    const { type: _t, op: _o, id: _i, stream_id: streamId, name: _n, property, value, ...related } = event;
    for (const key of CHANNEL_LISTS) {
      for (const channel of state[key] ?? []) {
        if (channel.stream_id === streamId) Object.assign(channel, { [property]: value }, related);
      }
    }
    return;
  }
  if (event.op !== 'create') throw new Error(`unexpected stream op ${event.op}`);
  for (const channel of event.streams) {
    if (state.streams && !hasChannel(state, 'streams', channel.stream_id)) state.streams.push(channel);
    const known = hasChannel(state, 'subscriptions', channel.stream_id) || hasChannel(state, 'unsubscribed', channel.stream_id);
    if (state.never_subscribed && !known) {
      state.never_subscribed.push(subscribersWanted ? { ...channel, subscribers: [] } : { ...channel });
    }
  }
}

function applySubscriptionEvent(state: State, event: Record<string, any>): void {
  switch (event.op) {
    case 'add':
      for (const subscription of event.subscriptions) {
        for (const key of ['unsubscribed', 'never_subscribed'] as const) {
          if (state[key]) state[key] = state[key].filter((c: Record<string, any>) => c.stream_id !== subscription.stream_id);
        }
        state.subscriptions?.push(subscription);
        // The client's one record of the channel takes the subscription's fresh count.
        for (const channel of state.streams ?? []) {
          if (channel.stream_id === subscription.stream_id) channel.subscriber_count = subscription.subscriber_count;
        }
        if (state.leftChannels?.has(subscription.stream_id)) {
          (state.rejoinedChannels ??= new Set<number>()).add(subscription.stream_id);
        }
      }
      return;
    case 'remove':
      for (const { stream_id: streamId } of event.subscriptions) {
        const index = state.subscriptions?.findIndex((c: Record<string, any>) => c.stream_id === streamId) ?? -1;
        if (index < 0) continue;
        // Nobody sends the leaver a peer_remove for themselves: clients count themselves out.
        countSubscribers(state, streamId, -1);
        const [left] = state.subscriptions.splice(index, 1);
        // Clients forget a left channel's unreads; rejoining brings back ones no event names.
        if (state.unread_msgs) {
          state.unread_msgs.streams = state.unread_msgs.streams.filter((b: Record<string, any>) => b.stream_id !== streamId);
        }
        (state.leftChannels ??= new Set<number>()).add(streamId);
        if (left.subscribers) left.subscribers = left.subscribers.filter((id: number) => id !== state.user_id);
        state.unsubscribed?.push(left);
      }
      return;
    case 'update':
      for (const channel of state.subscriptions ?? []) {
        if (channel.stream_id === event.stream_id) channel[event.property] = event.value;
      }
      return;
    case 'peer_add':
    case 'peer_remove':
      return changeSubscribers(state, event.stream_ids, event.user_ids, event.op === 'peer_add');
    default:
      throw new Error(`unexpected subscription op ${event.op}`);
  }
}

const byNumber = (a: number, b: number) => a - b;

/** Adds an unread message to the unread_msgs buckets clients keep. */
function addUnread(state: State, id: number, where: Record<string, any>): void {
  const unread = state.unread_msgs;
  if (!unread) return;
  const insert = (ids: number[]) => {
    if (!ids.includes(id)) ids.push(id);
    ids.sort(byNumber);
  };
  if (where.type === 'stream') {
    let bucket = unread.streams.find(
      (b: Record<string, any>) => b.stream_id === where.stream_id && b.topic.toLowerCase() === where.topic.toLowerCase(),
    );
    if (!bucket) unread.streams.push((bucket = { stream_id: where.stream_id, topic: where.topic, unread_message_ids: [] }));
    insert(bucket.unread_message_ids);
  } else if (where.user_ids.length <= 1) {
    const other = where.user_ids[0] ?? state.user_id;
    let entry = unread.pms.find((p: Record<string, any>) => p.other_user_id === other);
    if (!entry) unread.pms.push((entry = { other_user_id: other, sender_id: other, unread_message_ids: [] }));
    insert(entry.unread_message_ids);
  } else {
    const key = [...where.user_ids, state.user_id].sort(byNumber).join(',');
    let entry = unread.huddles.find((h: Record<string, any>) => h.user_ids_string === key);
    if (!entry) unread.huddles.push((entry = { user_ids_string: key, unread_message_ids: [] }));
    insert(entry.unread_message_ids);
  }
  if (where.mentioned) insert(unread.mentions);
}

function removeUnread(state: State, ids: readonly number[] | 'all'): void {
  const unread = state.unread_msgs;
  if (!unread) return;
  const gone = (id: number) => ids === 'all' || ids.includes(id);
  for (const key of ['streams', 'pms', 'huddles']) {
    for (const bucket of unread[key]) bucket.unread_message_ids = bucket.unread_message_ids.filter((id: number) => !gone(id));
    unread[key] = unread[key].filter((bucket: Record<string, any>) => bucket.unread_message_ids.length > 0);
  }
  unread.mentions = unread.mentions.filter((id: number) => !gone(id));
}

function applyMessageEvent(state: State, event: Record<string, any>): void {
  const message = event.message;
  if ('max_message_id' in state) state.max_message_id = Math.max(state.max_message_id, message.id);
  const others =
    message.type === 'private'
      ? message.display_recipient.map((r: { id: number }) => r.id).filter((id: number) => id !== state.user_id).sort(byNumber)
      : [];
  if (!event.flags.includes('read')) {
    const mentioned = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'].some((f) => event.flags.includes(f));
    addUnread(
      state,
      message.id,
      message.type === 'stream'
        ? { type: 'stream', stream_id: message.stream_id, topic: message.subject, mentioned }
        : { type: 'private', user_ids: others, mentioned },
    );
  }
  const recent = state.recent_private_conversations;
  if (recent && message.type === 'private') {
    const key = JSON.stringify(others);
    const entry = recent.find((c: Record<string, any>) => JSON.stringify(c.user_ids) === key);
    if (entry) entry.max_message_id = Math.max(entry.max_message_id, message.id);
    else recent.push({ max_message_id: message.id, user_ids: others });
    recent.sort((a: Record<string, any>, b: Record<string, any>) => b.max_message_id - a.max_message_id);
  }
}

/** Moved messages carry their unread entries to the new channel and topic. */
function applyUpdateMessageEvent(state: State, event: Record<string, any>): void {
  const unread = state.unread_msgs;
  const moved = 'new_stream_id' in event || 'subject' in event;
  if (!unread || !moved) return;
  const ids: number[] = event.message_ids;
  const wereUnread = ids.filter((id) =>
    unread.streams.some((b: Record<string, any>) => b.unread_message_ids.includes(id)),
  );
  if (wereUnread.length === 0) return;
  const mentioned = new Set<number>(unread.mentions);
  removeUnread(state, wereUnread);
  for (const id of wereUnread) {
    addUnread(state, id, {
      type: 'stream',
      stream_id: event.new_stream_id ?? event.stream_id,
      topic: event.subject ?? event.orig_subject,
      mentioned: mentioned.has(id),
    });
  }
}

function applyDeleteMessageEvent(state: State, event: Record<string, any>): void {
  const ids: number[] = event.message_ids ?? [event.message_id];
  removeUnread(state, ids);
  // A conversation whose newest message went has an older newest message, or none: clients
  // cannot tell which without fetching, so the test stops comparing that conversation.
  const recent = state.recent_private_conversations;
  if (recent && event.message_type === 'private') {
    for (const conversation of recent.filter((c: Record<string, any>) => ids.includes(c.max_message_id))) {
      (state.uncertainConversations ??= new Set<string>()).add(JSON.stringify(conversation.user_ids));
    }
  }
  if (state.starred_messages) state.starred_messages = state.starred_messages.filter((id: number) => !ids.includes(id));
}

function applyFlagsEvent(state: State, event: Record<string, any>): void {
  if (event.flag === 'starred' && state.starred_messages) {
    const starred = new Set<number>(state.starred_messages);
    for (const id of event.messages) {
      if (event.op === 'add') starred.add(id);
      else starred.delete(id);
    }
    state.starred_messages = [...starred].sort(byNumber);
  }
  if (event.flag !== 'read') return;
  if (event.op === 'add') removeUnread(state, event.all ? 'all' : event.messages);
  else for (const id of event.messages) addUnread(state, id, event.message_details[String(id)]);
}

function applyDraftsEvent(state: State, event: Record<string, any>): void {
  if (!state.drafts) return;
  const others = (id: number) => state.drafts.filter((d: Record<string, any>) => d.id !== id);
  if (event.op === 'add') state.drafts.push(...event.drafts);
  else if (event.op === 'update') state.drafts = [...others(event.draft.id), event.draft];
  else if (event.op === 'remove') state.drafts = others(event.draft_id);
  else throw new Error(`unexpected drafts op ${event.op}`);
}

function applySavedSnippetsEvent(state: State, event: Record<string, any>): void {
  if (!state.saved_snippets) return;
  const id = event.op === 'remove' ? event.saved_snippet_id : event.saved_snippet.id;
  const others = state.saved_snippets.filter((s: Record<string, any>) => s.id !== id);
  if (event.op === 'remove') state.saved_snippets = others;
  else if (event.op === 'add' || event.op === 'update') state.saved_snippets = [...others, event.saved_snippet];
  else throw new Error(`unexpected saved_snippets op ${event.op}`);
}

/** Scheduled messages are listed soonest first; a sent or deleted one leaves the list. */
function applyScheduledMessagesEvent(state: State, event: Record<string, any>): void {
  if (!state.scheduled_messages) return;
  const id = event.op === 'remove' ? event.scheduled_message_id : event.scheduled_message?.scheduled_message_id;
  let list = state.scheduled_messages.filter((m: Record<string, any>) => m.scheduled_message_id !== id);
  if (event.op === 'add') list = [...list, ...event.scheduled_messages];
  else if (event.op === 'update') list = [...list, event.scheduled_message];
  else if (event.op !== 'remove') throw new Error(`unexpected scheduled_messages op ${event.op}`);
  state.scheduled_messages = list.sort(
    (a: Record<string, any>, b: Record<string, any>) =>
      a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id,
  );
}

/**
 * Clients that still read the numeric policies that group settings replaced recompute them
 * when the setting changes: the code of the system group it names, else the documented
 * fallback (no event carries them).
 */
const LEGACY_POLICIES: Record<string, { key: string; codes: Record<string, number>; fallback: number }> = {
  can_create_public_channel_group: {
    key: 'realm_create_public_stream_policy',
    codes: { 'role:members': 1, 'role:administrators': 2, 'role:fullmembers': 3, 'role:moderators': 4 },
    fallback: 2,
  },
  can_create_private_channel_group: {
    key: 'realm_create_private_stream_policy',
    codes: { 'role:members': 1, 'role:administrators': 2, 'role:fullmembers': 3, 'role:moderators': 4 },
    fallback: 2,
  },
  can_create_web_public_channel_group: {
    key: 'realm_create_web_public_stream_policy',
    codes: { 'role:administrators': 2, 'role:moderators': 4, 'role:nobody': 6, 'role:owners': 7 },
    fallback: 7,
  },
  can_mention_many_users_group: {
    key: 'realm_wildcard_mention_policy',
    codes: { 'role:everyone': 1, 'role:members': 2, 'role:fullmembers': 3, 'role:administrators': 5, 'role:nobody': 6, 'role:moderators': 7 },
    fallback: 5,
  },
};

/** A realm setting changed; some settings carry older derived keys along. */
function applyRealmSetting(state: State, property: string, value: unknown): void {
  // The description's HTML comes with it for display; register has no key for it.
  if (property === 'rendered_description') return;
  state[`realm_${property}`] = value;
  if (property === 'jitsi_server_url') state.jitsi_server_url = value ?? state.server_jitsi_server_url;
  if (property === 'message_edit_history_visibility_policy') state.realm_allow_edit_history = value !== 'none';
  const legacy = LEGACY_POLICIES[property];
  if (legacy) {
    const group = (state.realm_user_groups ?? []).find((g: Record<string, any>) => g.id === value && g.is_system_group);
    state[legacy.key] = group && group.name in legacy.codes ? legacy.codes[group.name] : legacy.fallback;
  }
}

function applyRealmEvent(state: State, event: Record<string, any>): void {
  if (!('realm_name' in state)) return;
  if (event.op === 'update') applyRealmSetting(state, event.property, event.value);
  else if (event.op === 'update_dict') for (const [key, value] of Object.entries(event.data)) applyRealmSetting(state, key, value);
  else throw new Error(`unexpected realm op ${event.op}`);
}

/** A client that sees its user stop synchronizing drafts drops its copy of them, as the server does. */
function applySettingSideEffects(state: State, name: string, value: unknown): void {
  if (name === 'enable_drafts_synchronization' && value === false && state.drafts) state.drafts = [];
}

/**
 * Applies one event to a registration's state. `subscribersWanted`: whether the client
 * registered with include_subscribers, so new channel entries start with an empty list.
 */
export function applyEvent(state: State, event: Record<string, any>, subscribersWanted = false): void {
  switch (event.type) {
    case 'stream':
      return applyStreamEvent(state, event, subscribersWanted);
    case 'subscription':
      return applySubscriptionEvent(state, event);
    case 'muted_topics':
      state.muted_topics = event.muted_topics;
      return;
    case 'muted_users':
      state.muted_users = event.muted_users;
      return;
    case 'user_topic': {
      if (!state.user_topics) return;
      const same = (t: Record<string, any>) =>
        t.stream_id === event.stream_id && t.topic_name.toLowerCase() === event.topic_name.toLowerCase();
      state.user_topics = state.user_topics.filter((t: Record<string, any>) => !same(t));
      if (event.visibility_policy !== 0) {
        const { stream_id, topic_name, visibility_policy, last_updated } = event;
        state.user_topics.push({ stream_id, topic_name, visibility_policy, last_updated });
      }
      return;
    }
    case 'realm_user_settings_defaults':
      if (state.realm_user_settings_defaults) state.realm_user_settings_defaults[event.property] = event.value;
      return;
    case 'default_streams':
      state.realm_default_streams = event.default_streams;
      return;
    case 'heartbeat':
      return;
    case 'presence':
      return applyPresenceEvent(state, event);
    case 'user_status':
      return applyUserStatusEvent(state, event);
    case 'alert_words':
      state.alert_words = event.alert_words;
      return;
    case 'realm_user':
      if (event.op === 'add') state.realm_users?.push(event.person);
      else if (event.op === 'update') applyPersonUpdate(state, event.person);
      else throw new Error(`unexpected realm_user op ${event.op}`);
      return;
    case 'user_settings':
      if (state.user_settings) state.user_settings[event.property] = event.value;
      return applySettingSideEffects(state, event.property, event.value);
    case 'update_display_settings':
      state[event.setting_name] = event.setting;
      return applySettingSideEffects(state, event.setting_name, event.setting);
    case 'drafts':
      return applyDraftsEvent(state, event);
    case 'saved_snippets':
      return applySavedSnippetsEvent(state, event);
    case 'scheduled_messages':
      return applyScheduledMessagesEvent(state, event);
    case 'realm':
      return applyRealmEvent(state, event);
    case 'realm_linkifiers':
      state.realm_linkifiers = event.realm_linkifiers;
      return;
    case 'realm_bot':
      return applyBotEvent(state, event);
    case 'custom_profile_fields':
      return applyProfileFields(state, event.fields);
    case 'realm_playgrounds':
      state.realm_playgrounds = event.realm_playgrounds;
      return;
    case 'device':
      if (!state.devices) return;
      if (event.op === 'add') {
        state.devices[event.device_id] = {
          push_key_id: null,
          push_token_id: null,
          pending_push_token_id: null,
          push_token_last_updated_timestamp: null,
          push_registration_error_code: null,
        };
      } else if (event.op === 'remove') {
        delete state.devices[event.device_id];
      } else {
        const { id: _id, type: _type, op: _op, device_id, ...changed } = event;
        Object.assign(state.devices[device_id], changed);
      }
      return;
    case 'update_global_notifications':
      state[event.notification_name] = event.setting;
      return;
    case 'message':
      return applyMessageEvent(state, event);
    case 'update_message_flags':
      return applyFlagsEvent(state, event);
    case 'update_message':
      return applyUpdateMessageEvent(state, event);
    case 'delete_message':
      return applyDeleteMessageEvent(state, event);
    case 'reaction':
      return; // reactions live in messages, which register state does not hold
    case 'submessage':
      return; // so do submessages
    case 'user_group':
      return applyGroupEvent(state, event);
    default:
      throw new Error(`the test model does not know ${event.type} events`);
  }
}

/**
 * A state without what may differ for reasons other than a missed event. `memory` is the
 * model's state, whose notes (channels rejoined, conversations whose newest message was
 * deleted) apply to both states being compared.
 */
export function comparable(state: State, memory: State = state): State {
  const copy = structuredClone(state);
  const rejoined: ReadonlySet<number> = memory.rejoinedChannels ?? new Set();
  const uncertain: ReadonlySet<string> = memory.uncertainConversations ?? new Set();
  if (copy.recent_private_conversations) {
    copy.recent_private_conversations = copy.recent_private_conversations.filter(
      (c: Record<string, any>) => !uncertain.has(JSON.stringify(c.user_ids)),
    );
  }
  delete copy.leftChannels;
  delete copy.uncertainConversations;
  delete copy.queue_id;
  delete copy.last_event_id;
  delete copy.result;
  delete copy.msg;
  // Permission flags clients derive from the organization's group settings and the role.
  for (const key of Object.keys(copy)) if (key.startsWith('can_')) delete copy[key];
  for (const key of ['realm_users', 'realm_non_active_users']) {
    copy[key]?.sort((a: Person, b: Person) => a.user_id - b.user_id);
  }
  for (const key of CHANNEL_LISTS) copy[key]?.sort((a: Person, b: Person) => a.stream_id - b.stream_id);
  copy.user_topics?.sort((a: Person, b: Person) => a.stream_id - b.stream_id || a.topic_name.localeCompare(b.topic_name));
  // Clients keep drafts by ID; the server lists them by edit time.
  copy.drafts?.sort((a: Person, b: Person) => a.id - b.id);
  copy.saved_snippets?.sort((a: Person, b: Person) => a.id - b.id);
  // The old muted-topics list names channels, which renames make stale in any client.
  delete copy.muted_topics;
  // Zulip's own clients raise this for every message event, even one the user only sent
  // without receiving a copy; it is deprecated, and the unread and message lists are what count.
  delete copy.max_message_id;
  const unread = copy.unread_msgs;
  if (unread) {
    // The total depends on muting, which clients apply themselves; and a channel the user
    // left and rejoined brings back unreads no event announces (as on Zulip).
    delete unread.count;
    unread.streams = unread.streams
      .filter((b: Person) => !rejoined.has(b.stream_id))
      .sort((a: Person, b: Person) => a.stream_id - b.stream_id || a.topic.toLowerCase().localeCompare(b.topic.toLowerCase()));
    unread.pms.sort((a: Person, b: Person) => a.other_user_id - b.other_user_id);
    unread.huddles.sort((a: Person, b: Person) => a.user_ids_string.localeCompare(b.user_ids_string));
    unread.mentions.sort(byNumber);
  }
  delete copy.rejoinedChannels;
  // When the presence data was read, and the newest change in it: markers of the fetch.
  delete copy.server_timestamp;
  delete copy.presence_last_update_id;
  return copy;
}

/** Paths where two states differ (at most `limit`), to make a failed comparison readable. */
export function differences(actual: unknown, expected: unknown, path = '', limit = 10): string[] {
  if (JSON.stringify(actual) === JSON.stringify(expected)) return [];
  const bothObjects = actual && expected && typeof actual === 'object' && typeof expected === 'object';
  if (!bothObjects || Array.isArray(actual) !== Array.isArray(expected)) {
    return [`${path || '(root)'}: ${JSON.stringify(actual)?.slice(0, 200)} != ${JSON.stringify(expected)?.slice(0, 200)}`];
  }
  const found: string[] = [];
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  // Lists of channels or users are matched by their IDs, so one extra entry is one difference.
  const idOf = (item: unknown) => (item as Record<string, unknown>)?.stream_id ?? (item as Record<string, unknown>)?.user_id;
  const keyedById = (list: unknown[]) =>
    list.every((x) => idOf(x) !== undefined) && new Set(list.map(idOf)).size === list.length;
  if (Array.isArray(a) && Array.isArray(e) && keyedById(a) && keyedById(e)) {
    const byId = (list: unknown[]) => new Map(list.map((x) => [idOf(x), x]));
    const [am, em] = [byId(a), byId(e)];
    for (const id of new Set([...am.keys(), ...em.keys()])) {
      found.push(...differences(am.get(id), em.get(id), `${path}[id ${String(id)}]`, limit - found.length));
      if (found.length >= limit) break;
    }
    return found;
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(e)])) {
    found.push(...differences(a[key], e[key], path ? `${path}.${key}` : key, limit - found.length));
    if (found.length >= limit) break;
  }
  return found;
}

import { createBot } from '../bots/actions';
import { createChannel, subscribeUsers } from '../channels/actions';
import type { ChannelRow } from '../channels/queries';
import type { Clock } from '../clock';
import { createDrafts } from '../drafts/actions';
import { completeEmoji } from '../emoji/choice';
import { write } from '../events/send';
import { createUserGroup } from '../groups/actions';
import { addLinkifier } from '../linkifiers/actions';
import { sendMessage, type Addressee } from '../messages/actions';
import { addReaction } from '../messages/reactions';
import { renderContent } from '../messages/render';
import { scheduleMessage } from '../scheduled-messages/actions';
import { reportPresence } from '../presence/actions';
import { addField, changeProfileValues } from '../profile-fields/actions';
import { checkProfileValue } from '../profile-fields/values';
import { createSystemBot, foundOrganization } from '../realm/actions';
import { updateRealm } from '../realm/settings-actions';
import type { Stoa } from '../stoa';
import { createUser } from '../users/actions';
import type { UserRow } from '../users/queries';
import { changeUserSettings } from '../users/settings-store';
import { demoConversation } from './conversation';
import {
  DEMO_BOTS,
  DEMO_CHANNELS,
  DEMO_GROUPS,
  DEMO_LINKIFIERS,
  DEMO_PEOPLE,
  DEMO_PROFILE_FIELDS,
  DEMO_REALM_DESCRIPTION,
  DEMO_REALM_NAME,
  DEMO_STRING_ID,
  IAGO_DRAFTS,
  IAGO_SCHEDULED_MESSAGES,
  OTHER_SYSTEM_BOTS,
} from './organization';

const DAY_MS = 24 * 60 * 60 * 1000;
const YEAR_MS = 365 * DAY_MS;
/** The organization is founded this long before the first start, and talks until shortly before it. */
const HISTORY_MS = 5 * DAY_MS;
/** The newest messages each person has not read yet, so that unread counts show. */
const UNREAD_TAIL = 25;

/** Whether the organization is the one `--demo` creates. */
export function isDemoOrganization(stoa: Stoa): boolean {
  return stoa.realm.get()?.string_id === DEMO_STRING_ID;
}

/**
 * Runs fn with the server's clock standing at `start` until fn moves it with `setTime`: the
 * demo's history is written at start-up, but its messages carry the times of the days before.
 */
function backdated<T>(stoa: Stoa, start: number, fn: (setTime: (ms: number) => void) => T): T {
  const real = stoa.clock;
  let now = start;
  // Timers (scheduled messages) still run on the real clock.
  const past: Clock = { now: () => now, at: (atMs, fn) => real.at(atMs, fn) };
  stoa.clock = past;
  try {
    return fn((ms) => (now = ms));
  } finally {
    stoa.clock = real;
  }
}

/** A person of the demo by key ('iago'). */
type People = (key: string) => UserRow;

/**
 * Creates Zulip's development organization on an empty database, in one transaction and
 * through the same actions requests use: its people (with `passwordHash` as their password,
 * or none), bots, channels and subscriptions, groups, profile fields, drafts, scheduled
 * messages, linkifiers and a few days of messages with reactions, and everyone's presence as
 * of their last message.
 */
export function createDemoOrganization(stoa: Stoa, passwordHash: string | null): void {
  const firstStart = stoa.clock.now();
  const start = firstStart - HISTORY_MS;
  write(stoa, () =>
    backdated(stoa, start, (setTime) => {
      foundOrganization(stoa, DEMO_REALM_NAME, DEMO_STRING_ID);
      for (const bot of OTHER_SYSTEM_BOTS) createSystemBot(stoa, bot.email, bot.fullName);
      const personOf = createPeople(stoa, passwordHash);
      const channels = createChannels(stoa, personOf);
      updateRealm(stoa, {
        description: DEMO_REALM_DESCRIPTION,
        settings: [
          { key: 'realm_new_stream_announcements_stream_id', value: channels.get('verona')!.id },
          { key: 'realm_signup_announcements_stream_id', value: channels.get('core')!.id },
          // Rome is web-public where the server allows web-public channels.
          ...(stoa.config.webPublic ? [{ key: 'realm_enable_spectator_access', value: true }] : []),
        ],
        groupSettings: [],
      });
      for (const group of DEMO_GROUPS) {
        createUserGroup(stoa, personOf(group.creator), {
          name: group.name,
          description: group.description,
          members: group.members.map((key) => personOf(key).id),
          subgroups: [],
          settings: {},
        });
      }
      fillProfiles(stoa, personOf);
      for (const [pattern, urlTemplate] of DEMO_LINKIFIERS) {
        addLinkifier(stoa, { pattern, url_template: urlTemplate, example_input: null, reverse_template: null, alternative_url_templates: [] });
      }
      const draftTime = Math.floor(start / 1000);
      const drafts = IAGO_DRAFTS.map((draft) => ({ type: '' as const, to: [], topic: draft.topic, content: draft.content, lastEditTime: draftTime }));
      createDrafts(stoa, personOf('iago').id, drafts);
      scheduleIagosMessages(stoa, personOf('iago'), channels.get('denmark')!, firstStart + YEAR_MS);
      converse(stoa, personOf, channels, (index, count) => {
        // Spread over the history, the last message a few hours before the first start.
        setTime(start + DAY_MS / 8 + Math.round((index * (HISTORY_MS - DAY_MS / 4)) / count));
      });
    }),
  );
}

/**
 * Iago's two scheduled messages, due a year after the first start: one to a channel and a
 * note to self. The documentation deletes scheduled message 1.
 */
function scheduleIagosMessages(stoa: Stoa, iago: UserRow, channel: ChannelRow, dueMs: number): void {
  for (const message of IAGO_SCHEDULED_MESSAGES) {
    const toChannel = message.type === 'stream';
    const rendered = renderContent(stoa, iago, message.content, []);
    const fields = {
      type: message.type,
      to: [toChannel ? channel.id : iago.id],
      topic: toChannel ? message.topic : '',
      content: message.content,
      renderedContent: rendered.html,
      sendingClient: 'populate_db',
      scheduledTimestamp: Math.floor(dueMs / 1000),
    };
    scheduleMessage(stoa, iago.id, fields, true);
  }
}

/** The people, in the order that gives them their IDs, and the bots they own. */
function createPeople(stoa: Stoa, passwordHash: string | null): People {
  const people = new Map<string, UserRow>();
  for (const person of DEMO_PEOPLE) {
    const id = createUser(stoa, {
      email: person.email,
      fullName: person.fullName,
      passwordHash,
      role: person.role,
      // The documentation's examples of creating users and changing their email run as Iago.
      canCreateUsers: person.key === 'desdemona' || person.key === 'iago',
      canChangeUserEmails: person.key === 'desdemona' || person.key === 'iago',
    });
    if (person.timezone !== '') changeUserSettings(stoa, id, { timezone: person.timezone });
    people.set(person.key, stoa.users.byId(id)!);
  }
  const personOf = (key: string) => people.get(key)!;
  for (const bot of DEMO_BOTS) {
    createBot(stoa, {
      email: bot.email,
      fullName: bot.fullName,
      type: bot.type,
      ownerId: personOf(bot.owner).id,
      sendingChannelId: null,
      eventsChannelId: null,
      allPublicChannels: false,
    });
  }
  return personOf;
}

/** The channels, created by the owner, and everyone's subscriptions; answers them by key. */
function createChannels(stoa: Stoa, personOf: People): Map<string, ChannelRow> {
  const channels = new Map<string, ChannelRow>();
  for (const spec of DEMO_CHANNELS) {
    const channel = createChannel(stoa, personOf('desdemona'), {
      name: spec.name,
      description: spec.description,
      inviteOnly: spec.inviteOnly,
      isWebPublic: spec.webPublic && stoa.config.webPublic,
      historyPublicToSubscribers: !spec.inviteOnly,
      messageRetentionDays: null,
      topicsPolicy: 'inherit',
      folderId: null,
      isDefault: spec.isDefault,
      groupSettings: {},
    });
    channels.set(spec.key, channel);
  }
  for (const person of DEMO_PEOPLE) {
    subscribeUsers(stoa, person.channels.map((key) => channels.get(key)!), [personOf(person.key)]);
  }
  return channels;
}

/** The custom profile fields, and Iago's and Hamlet's values, checked as a request's would be. */
function fillProfiles(stoa: Stoa, personOf: People): void {
  for (const spec of DEMO_PROFILE_FIELDS) {
    const fieldId = addField(stoa, {
      name: spec.name,
      hint: spec.hint,
      field_type: spec.type,
      field_data: spec.data === '' ? '' : JSON.stringify(spec.data),
      display_in_profile_summary: 0,
      required: 0,
      editable_by_user: 1,
      use_for_user_matching: 0,
    });
    const field = stoa.profileFields.byId(fieldId)!;
    for (const [key, value] of Object.entries(spec.values)) {
      const given = typeof value === 'string' ? value : value.map((mentor) => personOf(mentor).id);
      changeProfileValues(stoa, personOf(key).id, [{ field, value: checkProfileValue(stoa, field, given) }]);
    }
  }
}

/** Sends the demo's conversation, with its reactions; `moveClock` sets the time of each message. */
function converse(
  stoa: Stoa,
  personOf: People,
  channels: ReadonlyMap<string, ChannelRow>,
  moveClock: (index: number, count: number) => void,
): void {
  const conversation = demoConversation(DEMO_PEOPLE, DEMO_CHANNELS);
  const unreadFrom = conversation.length - UNREAD_TAIL;
  conversation.forEach((message, index) => {
    moveClock(index, conversation.length);
    const address: Addressee =
      message.address.type === 'channel'
        ? // Read again: the row changes as the channel gets its first message.
          { type: 'channel', channel: stoa.channels.byId(channels.get(message.address.channel)!.id)!, topic: message.address.topic }
        : { type: 'direct', users: message.address.people.map(personOf) };
    const sender = personOf(message.sender);
    const id = sendMessage(stoa, sender, address, message.content, {
      client: 'populate_db',
      readBySender: true,
      alreadyReadBy: () => index < unreadFrom,
    });
    // Their presence says when they last wrote, as a client that sends messages reports.
    reportPresence(stoa, sender, true);
    const row = stoa.messages.byId(id)!;
    for (const [reactorKey, emojiName] of message.reactions) {
      const reactor = personOf(reactorKey);
      const emoji = completeEmoji(stoa.realmEmoji, emojiName, undefined, undefined);
      addReaction(stoa, reactor, row, stoa.messages.flagsOf(reactor.id, id) !== undefined, {
        message_id: id,
        user_id: reactor.id,
        emoji_name: emoji.name,
        emoji_code: emoji.code,
        reaction_type: emoji.reactionType,
      });
    }
  });
}

import { FieldType } from '../profile-fields/queries';
import { Role, type RoleValue } from '../users/queries';

// Who and what Zulip's development organization ("Zulip Dev", string ID "zulip") holds, the
// organization that Zulip's own test suite and the examples of its API documentation run
// against. Only facts are carried over: names, addresses, roles, channels, memberships and the
// IDs the documentation's examples name. (Not to be confused with what Zulip calls a "demo
// organization", a temporary organization that deletes itself.)

/** Zulip's subdomain for its development organization; marks an organization --demo created. */
export const DEMO_STRING_ID = 'zulip';
export const DEMO_REALM_NAME = 'Zulip Dev';
export const DEMO_REALM_DESCRIPTION =
  "A copy of Zulip's development organization, made by `stoa --demo`: the people, channels and " +
  "groups the examples of Zulip's API documentation use, and a few days of conversation.";

export interface DemoPerson {
  key: string;
  email: string;
  fullName: string;
  role: RoleValue;
  timezone: string;
  /** Channel keys, as in Zulip's test database. */
  channels: string[];
}

/**
 * The people, in the order that gives them the user IDs they have in Zulip's test database
 * (user IDs 1 to 5 are the server's own bots): AARON 6, ZOE 7, Cordelia 8, Desdemona 9,
 * Hamlet 10, Iago 11, Othello 12, Polonius 13, Prospero 14, Shiva 15. The documentation's
 * examples rely on these (Hamlet is 10, Iago 11, and "to": [9, 10] is a direct message).
 */
export const DEMO_PEOPLE: readonly DemoPerson[] = [
  { key: 'aaron', email: 'AARON@zulip.com', fullName: 'aaron', role: Role.MEMBER, timezone: 'US/Pacific', channels: ['verona'] },
  {
    key: 'zoe',
    email: 'ZOE@zulip.com',
    fullName: 'Zoe',
    role: Role.MEMBER,
    timezone: 'US/Eastern',
    channels: ['verona', 'denmark', 'scotland', 'venice', 'rome'],
  },
  { key: 'cordelia', email: 'cordelia@zulip.com', fullName: "Cordelia, Lear's daughter", role: Role.MEMBER, timezone: 'UTC', channels: ['verona'] },
  {
    key: 'desdemona',
    email: 'desdemona@zulip.com',
    fullName: 'Desdemona',
    role: Role.OWNER,
    timezone: 'Canada/Newfoundland',
    channels: ['verona', 'denmark', 'venice', 'core'],
  },
  { key: 'hamlet', email: 'hamlet@zulip.com', fullName: 'King Hamlet', role: Role.MEMBER, timezone: '', channels: ['verona', 'denmark', 'core'] },
  {
    key: 'iago',
    email: 'iago@zulip.com',
    fullName: 'Iago',
    role: Role.ADMINISTRATOR,
    timezone: 'US/Eastern',
    channels: ['verona', 'denmark', 'scotland', 'core'],
  },
  {
    key: 'othello',
    email: 'othello@zulip.com',
    fullName: 'Othello, the Moor of Venice',
    role: Role.MEMBER,
    timezone: 'US/Pacific',
    channels: ['verona', 'denmark', 'scotland'],
  },
  { key: 'polonius', email: 'polonius@zulip.com', fullName: 'Polonius', role: Role.GUEST, timezone: 'Asia/Shanghai', channels: ['verona'] },
  {
    key: 'prospero',
    email: 'prospero@zulip.com',
    fullName: 'Prospero from The Tempest',
    role: Role.MEMBER,
    timezone: '',
    channels: ['verona', 'denmark', 'scotland', 'venice'],
  },
  {
    key: 'shiva',
    email: 'shiva@zulip.com',
    fullName: 'शिव',
    role: Role.MODERATOR,
    timezone: 'Asia/Kolkata',
    channels: ['verona', 'denmark', 'scotland'],
  },
];

/**
 * Zulip's server has five bots of its own; Stoa's notification bot is one of them, and the
 * other four are created too, so that the people get the IDs listed above.
 */
export const OTHER_SYSTEM_BOTS: ReadonlyArray<{ email: string; fullName: string }> = [
  { email: 'welcome-bot@zulip.com', fullName: 'Welcome Bot' },
  { email: 'emailgateway@zulip.com', fullName: 'Email Gateway' },
  { email: 'nagios-send-bot@zulip.com', fullName: 'Nagios Send Bot' },
  { email: 'nagios-receive-bot@zulip.com', fullName: 'Nagios Receive Bot' },
];

/** The organization's bots, with Zulip's bot types (1 generic, 2 incoming webhook, 3 outgoing webhook). */
export const DEMO_BOTS: ReadonlyArray<{ email: string; fullName: string; type: number; owner: string }> = [
  { email: 'default-bot@zulip.com', fullName: 'Zulip Default Bot', type: 1, owner: 'desdemona' },
  { email: 'webhook-bot@zulip.com', fullName: 'Zulip Webhook Bot', type: 2, owner: 'zoe' },
  { email: 'outgoing-webhook@zulip.com', fullName: 'Outgoing Webhook', type: 3, owner: 'aaron' },
];

export interface DemoChannel {
  key: string;
  name: string;
  description: string;
  inviteOnly: boolean;
  /** Web-public where the server allows it (--web-public); public otherwise. */
  webPublic: boolean;
  /** A default channel, which new accounts join. */
  isDefault: boolean;
  /** Topics its conversation uses; the documentation's examples name some of them. */
  topics: string[];
}

/**
 * The channels, in the order that gives Verona channel ID 1 (as the documentation's examples
 * assume) and Scotland 3.
 */
export const DEMO_CHANNELS: readonly DemoChannel[] = [
  {
    key: 'verona',
    name: 'Verona',
    description: 'A city in Italy',
    inviteOnly: false,
    webPublic: false,
    isDefault: true,
    topics: ['new coffee machine', 'dinner', 'questions', 'balcony repairs', 'market day'],
  },
  {
    key: 'denmark',
    name: 'Denmark',
    description: 'A Scandinavian country',
    inviteOnly: false,
    webPublic: false,
    isDefault: false,
    topics: ['Castle', 'dinner', 'boat party', 'ghost sightings', 'fencing practice'],
  },
  {
    key: 'scotland',
    name: 'Scotland',
    description: 'Located in the United Kingdom',
    inviteOnly: false,
    webPublic: false,
    isDefault: false,
    topics: ['weather', 'castle tours', 'highland games'],
  },
  {
    key: 'venice',
    name: 'Venice',
    description: 'A northeastern Italian city',
    inviteOnly: false,
    webPublic: false,
    isDefault: false,
    topics: ['gondolas', 'carnival masks', 'trade routes'],
  },
  {
    key: 'rome',
    name: 'Rome',
    description: 'Yet another Italian city',
    inviteOnly: false,
    webPublic: true,
    isDefault: false,
    topics: ['history', 'aqueducts'],
  },
  {
    key: 'core',
    name: 'core team',
    description: 'A private channel',
    inviteOnly: true,
    webPublic: false,
    isDefault: false,
    topics: ['release planning', 'security review', 'hiring'],
  },
];

export const DEMO_GROUPS: ReadonlyArray<{ name: string; description: string; members: string[]; creator: string }> = [
  { name: 'hamletcharacters', description: 'Characters of Hamlet', members: ['cordelia', 'hamlet'], creator: 'cordelia' },
];

/**
 * Iago's two drafts: the documentation edits draft 2 and deletes draft 1. Without a
 * recipient, as in Zulip's test database.
 */
export const IAGO_DRAFTS: ReadonlyArray<{ topic: string; content: string }> = [
  { topic: 'Release Notes', content: 'The next release brings ...' },
  { topic: 'Release Notes', content: 'The next release brings faster search, and ...' },
];

/** Iago's scheduled messages, in Denmark and to himself. */
export const IAGO_SCHEDULED_MESSAGES: ReadonlyArray<{ type: 'stream' | 'private'; topic: string; content: string }> = [
  { type: 'stream', topic: 'test-api', content: 'A year since this organization was made :tada:! Time to celebrate.' },
  { type: 'private', topic: '', content: 'Note to self: this organization is a year old; time to make a fresh one.' },
];

/** Linkifiers of Zulip's development organization, as pattern and URL template. */
export const DEMO_LINKIFIERS: ReadonlyArray<[string, string]> = [
  ['#D(?P<id>[0-9]{2,8})', 'https://github.com/zulip/zulip-desktop/pull/{id}'],
  ['zulip-mobile#(?P<id>[0-9]{2,8})', 'https://github.com/zulip/zulip-mobile/pull/{id}'],
  ['zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})', 'https://github.com/zulip/{repo}/pull/{id}'],
];

export interface DemoProfileField {
  name: string;
  hint: string;
  type: number;
  /** Options of a list, or the subtype of an external account; '' for the other types. */
  data: Record<string, unknown> | '';
  /** Values by person key: text, an option's key, or (Mentor) person keys. */
  values: Record<string, string | string[]>;
}

/**
 * Custom profile fields in the order that gives them Zulip's IDs 1 to 9 (the documentation
 * changes field 9 of Cordelia's profile), filled in for Iago and Hamlet.
 */
export const DEMO_PROFILE_FIELDS: readonly DemoProfileField[] = [
  { name: 'Phone number', hint: '', type: FieldType.SHORT_TEXT, data: '', values: { iago: '+1-555-0111', hamlet: '+45-555-0110' } },
  {
    name: 'Biography',
    hint: 'A few words about you',
    type: FieldType.LONG_TEXT,
    data: '',
    values: { iago: 'Ensign to Othello, and *not* to be trusted.', hamlet: 'Prince of Denmark.\n\n* Student at Wittenberg\n* Sleeping badly' },
  },
  { name: 'Favorite food', hint: 'Or a drink', type: FieldType.SHORT_TEXT, data: '', values: { iago: 'Figs', hamlet: 'Dark chocolate' } },
  {
    name: 'Favorite editor',
    hint: '',
    type: FieldType.SELECT,
    data: { '0': { text: 'Vim', order: '1' }, '1': { text: 'Emacs', order: '2' } },
    values: { iago: '1', hamlet: '0' },
  },
  { name: 'Birthday', hint: '', type: FieldType.DATE, data: '', values: { iago: '2000-01-01', hamlet: '1900-01-01' } },
  {
    name: 'Favorite website',
    hint: 'A blog, a project, anything',
    type: FieldType.URL,
    data: '',
    values: { iago: 'https://zulip.readthedocs.io/en/latest/', hamlet: 'https://zulip.com/' },
  },
  { name: 'Mentor', hint: '', type: FieldType.USER, data: '', values: { iago: ['hamlet'], hamlet: ['iago'] } },
  { name: 'GitHub username', hint: '', type: FieldType.EXTERNAL_ACCOUNT, data: { subtype: 'github' }, values: { iago: 'zulip', hamlet: 'zulipbot' } },
  {
    name: 'Pronouns',
    hint: 'How others should refer to you',
    type: FieldType.PRONOUNS,
    data: '',
    values: { iago: 'he/him', hamlet: 'he/him' },
  },
];

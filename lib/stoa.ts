import { prepareAlertWordQueries } from './alert-words/queries';
import { prepareBotServiceQueries, prepareBotStorageQueries } from './bots/queries';
import { OutgoingWebhookQueue } from './bots/webhook-queue';
import { FailureLimiter } from './auth/rate-limit';
import { prepareChannelQueries } from './channels/queries';
import type { Clock } from './clock';
import type { Config } from './config';
import { lazyStatements, type Db, type Statements } from './db';
import { TableWrites } from './table-writes';
import { prepareDefaultStreamGroupQueries } from './default-stream-groups/queries';
import { prepareDraftQueries } from './drafts/queries';
import { prepareOnboardingQueries } from './onboarding/queries';
import { prepareExportQueries } from './export/queries';
import { EventQueues, type Deliverable, type EventQueuesOptions } from './events/queues';
import { prepareGroupQueries } from './groups/queries';
import { prepareInviteQueries } from './invites/queries';
import { prepareMessageQueries } from './messages/queries';
import { prepareMutedUserQueries } from './muted-users/queries';
import { prepareProfileFieldQueries } from './profile-fields/queries';
import { preparePresenceQueries } from './presence/queries';
import { preparePushQueries } from './push/queries';
import { prepareRealmQueries } from './realm/queries';
import { prepareUserStatusQueries } from './user-status/queries';
import { prepareLinkifierQueries } from './linkifiers/queries';
import { Mailer } from './mail/outgoing';
import { prepareMailQueries } from './mail/queries';
import { prepareRealmEmojiQueries } from './realm-emoji/queries';
import { preparePlaygroundQueries } from './playgrounds/queries';
import { prepareSavedSnippetQueries } from './saved-snippets/queries';
import { prepareNavigationViewQueries } from './navigation-views/queries';
import { prepareRealmDomainQueries } from './realm-domains/queries';
import { prepareDeviceQueries } from './devices/queries';
import { prepareScheduledMessageQueries } from './scheduled-messages/queries';
import { prepareSessionQueries } from './sessions/queries';
import { prepareUserTopicQueries } from './user-topics/queries';
import { prepareUserQueries } from './users/queries';
import { Avatars } from './users/avatars';
import { prepareAttachmentQueries } from './uploads/queries';
import { UploadStore } from './uploads/storage';

/** The transaction the current turn's requests share, while one is open (see events/send.ts). */
export interface SharedTransaction {
  /** Told after the commit: null, or why it failed (and everything in it was undone). */
  afterCommit: Array<(failure: unknown) => void>;
  /** When it began (performance.now()), so that it commits early under load (see events/send.ts). */
  begunAt: number;
}

/** The running server's state: the database, its prepared queries, the event queues, the settings and the clock. */
/**
 * A shared transaction commits once it has been open this long, even before the turn ends.
 * Under heavy load one turn can bring dozens of requests; without a bound the first of them
 * would wait for all the others to be handled before being answered.
 */
export const GROUP_COMMIT_MAX_MS = 8;

export interface Stoa {
  db: Db;
  config: Config;
  clock: Clock;
  /** The base URL clients use, e.g. http://127.0.0.1:9991; set once the server listens. */
  site: string;
  queues: EventQueues;
  /** Where work that answers no request (such as relay failures) reports; startServer sets it. */
  log: (line: string) => void;
  /**
   * Events sent inside the current transaction, delivered after it commits, and work to start
   * then (see events/send.ts); all dropped if it is undone.
   */
  pendingEvents: Array<{ event: Deliverable; userIds: number[] } | { committed: () => void }> | null;
  /** Whether a request's handler is running: its writes then join the shared transaction. */
  handlingRequest: boolean;
  /** Where the running request's writes began (the savepoint is open), or null before its first write. */
  requestStart: { events: number } | null;
  /** The transaction this turn's requests share, while one is open (see events/send.ts). */
  shared: SharedTransaction | null;
  /**
   * How long a shared transaction may stay open before the next request commits it
   * (GROUP_COMMIT_MAX_MS; events/send.ts); tests that count commits lift it so that a busy
   * machine's pauses do not split their turn.
   */
  groupCommitMaxMs: number;
  /** Counts writes to the tables whose shared state is kept between requests (see table-writes.ts). */
  tableWrites: TableWrites;
  realm: ReturnType<typeof prepareRealmQueries>;
  users: ReturnType<typeof prepareUserQueries>;
  groups: ReturnType<typeof prepareGroupQueries>;
  alertWords: ReturnType<typeof prepareAlertWordQueries>;
  channels: ReturnType<typeof prepareChannelQueries>;
  userTopics: ReturnType<typeof prepareUserTopicQueries>;
  messages: ReturnType<typeof prepareMessageQueries>;
  mutedUsers: ReturnType<typeof prepareMutedUserQueries>;
  presence: ReturnType<typeof preparePresenceQueries>;
  userStatus: ReturnType<typeof prepareUserStatusQueries>;
  drafts: ReturnType<typeof prepareDraftQueries>;
  savedSnippets: ReturnType<typeof prepareSavedSnippetQueries>;
  navigationViews: ReturnType<typeof prepareNavigationViewQueries>;
  realmDomains: ReturnType<typeof prepareRealmDomainQueries>;
  devices: ReturnType<typeof prepareDeviceQueries>;
  scheduledMessages: ReturnType<typeof prepareScheduledMessageQueries>;
  linkifiers: ReturnType<typeof prepareLinkifierQueries>;
  playgrounds: ReturnType<typeof preparePlaygroundQueries>;
  push: ReturnType<typeof preparePushQueries>;
  profileFields: ReturnType<typeof prepareProfileFieldQueries>;
  attachments: ReturnType<typeof prepareAttachmentQueries>;
  realmEmoji: ReturnType<typeof prepareRealmEmojiQueries>;
  botServices: ReturnType<typeof prepareBotServiceQueries>;
  botStorage: ReturnType<typeof prepareBotStorageQueries>;
  defaultStreamGroups: ReturnType<typeof prepareDefaultStreamGroupQueries>;
  onboarding: ReturnType<typeof prepareOnboardingQueries>;
  /** Requests to outgoing-webhook bots' servers, made in the background (see bots/webhook-queue.ts). */
  outgoingWebhooks: OutgoingWebhookQueue;
  sessions: ReturnType<typeof prepareSessionQueries>;
  invites: ReturnType<typeof prepareInviteQueries>;
  /** Outgoing mail (invitations, notifications, password resets, email changes), if --smtp names a mail server. */
  mailer: Mailer;
  /** Links sent by email and missed-message emails waiting for their batch (see mail/). */
  email: ReturnType<typeof prepareMailQueries>;
  /** Failed password logins, by account and by client address (see auth/rate-limit.ts). */
  loginFailures: { byEmail: FailureLimiter; byAddress: FailureLimiter };
  /** Spectators' downloads of uploads, by file (see SPECTATOR_DOWNLOADS_PER_FILE). */
  spectatorDownloads: FailureLimiter;
  /** Spectators' requests, by client address (see SPECTATOR_REQUESTS_PER_ADDRESS). */
  spectatorRequests: FailureLimiter;
  exports: ReturnType<typeof prepareExportQueries>;
  /** The uploaded files themselves, on disk. */
  uploads: UploadStore;
  avatars: Avatars;
}

/**
 * Zulip's heartbeat comes every 45 to 55 seconds; clients time out after 90. Zulip sets no
 * number of queues per user; a user rarely has more than a few (a browser tab, a phone, a
 * bot or two), so 50 leaves room for anyone real while no one can pile up thousands.
 * Zulip keeps a queue nobody polls for its whole lifespan (10 minutes unless the client asks
 * for up to a week); Stoa gives a queue that was never polled one minute, so that queues
 * registered only for their initial state, or by a flood, do not hold memory for long.
 */
export const DEFAULT_EVENT_QUEUE_OPTIONS: EventQueuesOptions = {
  heartbeatMs: 50_000,
  maxEventsPerQueue: 10_000,
  maxQueuesPerUser: 50,
  maxQueuedBytes: 32 * 1024 * 1024,
  maxUnpolledQueuedBytes: 8 * 1024 * 1024,
  unpolledLifespanMs: 60_000,
};

/**
 * Wrong passwords allowed before a login has to wait. Zulip limits login attempts far below
 * its API limit; five a minute per account stops guessing and hardly slows a person who
 * mistyped. Per address the limit is higher, since a school or an office (or a proxy in
 * front of Stoa) puts many people behind one.
 */
export const LOGIN_FAILURES_PER_EMAIL = { max: 5, windowMs: 60_000 };
export const LOGIN_FAILURES_PER_ADDRESS = { max: 20, windowMs: 60_000 };

/**
 * Downloads of one file by spectators, as Zulip limits them: a thousand a day, so a file in
 * a web-public channel cannot be turned into free hosting. Up to 500 files are counted at once
 * (each keeps up to a thousand times), which bounds the memory the counts take.
 */
export const SPECTATOR_DOWNLOADS_PER_FILE = { max: 1000, windowMs: 24 * 60 * 60 * 1000 };
const SPECTATOR_DOWNLOAD_FILES_COUNTED = 500;
/**
 * Requests by spectators (no account), per client address: Zulip's limit for unauthenticated
 * API use, a hundred a minute. Up to 1000 addresses are counted at once.
 */
export const SPECTATOR_REQUESTS_PER_ADDRESS = { max: 100, windowMs: 60_000 };
const SPECTATOR_ADDRESSES_COUNTED = 1000;

/** The tables whose shared state (people, subscribers, the organization's settings) is kept between requests. */
const WATCHED_TABLES = [
  'realm',
  'realm_settings',
  'streams',
  'users',
  'user_presence',
  'subscriptions',
  'custom_profile_field_values',
  'user_groups',
  'user_group_members',
  'user_group_subgroups',
  'user_status',
  'user_settings',
  'realm_user_settings_defaults',
  'alert_words',
  'realm_linkifiers',
];
/** Tables of which only changed and deleted rows are counted (TableWrites). */
const CHANGE_WATCHED_TABLES = ['messages'];

export function createStoa(
  db: Db,
  config: Config,
  clock: Clock,
  queueOptions: Partial<EventQueuesOptions> = {},
  statements: Statements = lazyStatements(db),
): Stoa {
  const tableWrites = new TableWrites(db, WATCHED_TABLES, CHANGE_WATCHED_TABLES);
  const stoa: Stoa = {
    db,
    config,
    clock,
    site: '',
    queues: new EventQueues(clock, { ...DEFAULT_EVENT_QUEUE_OPTIONS, ...queueOptions }),
    log: (line) => console.log(line),
    pendingEvents: null,
    handlingRequest: false,
    requestStart: null,
    shared: null,
    groupCommitMaxMs: GROUP_COMMIT_MAX_MS,
    tableWrites,
    realm: prepareRealmQueries(statements),
    users: prepareUserQueries(statements, tableWrites),
    groups: prepareGroupQueries(statements, tableWrites),
    alertWords: prepareAlertWordQueries(statements, tableWrites),
    channels: prepareChannelQueries(statements, tableWrites),
    userTopics: prepareUserTopicQueries(statements),
    messages: prepareMessageQueries(statements, tableWrites),
    mutedUsers: prepareMutedUserQueries(statements),
    presence: preparePresenceQueries(statements, tableWrites),
    userStatus: prepareUserStatusQueries(statements),
    drafts: prepareDraftQueries(statements),
    savedSnippets: prepareSavedSnippetQueries(statements),
    navigationViews: prepareNavigationViewQueries(statements),
    realmDomains: prepareRealmDomainQueries(statements),
    devices: prepareDeviceQueries(statements),
    scheduledMessages: prepareScheduledMessageQueries(statements),
    linkifiers: prepareLinkifierQueries(statements, tableWrites),
    playgrounds: preparePlaygroundQueries(statements),
    push: preparePushQueries(statements),
    profileFields: prepareProfileFieldQueries(statements),
    attachments: prepareAttachmentQueries(statements),
    realmEmoji: prepareRealmEmojiQueries(statements),
    botServices: prepareBotServiceQueries(statements),
    botStorage: prepareBotStorageQueries(statements),
    defaultStreamGroups: prepareDefaultStreamGroupQueries(statements),
    onboarding: prepareOnboardingQueries(statements),
    outgoingWebhooks: new OutgoingWebhookQueue((line) => stoa.log(line)),
    sessions: prepareSessionQueries(statements),
    invites: prepareInviteQueries(statements),
    mailer: new Mailer(config.smtp, (line) => stoa.log(line)),
    email: prepareMailQueries(statements),
    loginFailures: {
      byEmail: new FailureLimiter(clock, LOGIN_FAILURES_PER_EMAIL),
      byAddress: new FailureLimiter(clock, LOGIN_FAILURES_PER_ADDRESS),
    },
    spectatorDownloads: new FailureLimiter(clock, SPECTATOR_DOWNLOADS_PER_FILE, SPECTATOR_DOWNLOAD_FILES_COUNTED),
    spectatorRequests: new FailureLimiter(clock, SPECTATOR_REQUESTS_PER_ADDRESS, SPECTATOR_ADDRESSES_COUNTED),
    exports: prepareExportQueries(statements),
    uploads: new UploadStore(config.data),
    avatars: new Avatars(config.gravatar, () => stoa.realm.get()!.id),
  };
  return stoa;
}

import { prepareAlertWordQueries } from './alert-words/queries';
import { prepareBotServiceQueries } from './bots/queries';
import { OutgoingWebhookQueue } from './bots/webhook-queue';
import { FailureLimiter } from './auth/rate-limit';
import { prepareChannelQueries } from './channels/queries';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Db } from './db';
import { prepareDraftQueries } from './drafts/queries';
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
import { prepareRealmEmojiQueries } from './realm-emoji/queries';
import { preparePlaygroundQueries } from './playgrounds/queries';
import { prepareSavedSnippetQueries } from './saved-snippets/queries';
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
  scheduledMessages: ReturnType<typeof prepareScheduledMessageQueries>;
  linkifiers: ReturnType<typeof prepareLinkifierQueries>;
  playgrounds: ReturnType<typeof preparePlaygroundQueries>;
  push: ReturnType<typeof preparePushQueries>;
  profileFields: ReturnType<typeof prepareProfileFieldQueries>;
  attachments: ReturnType<typeof prepareAttachmentQueries>;
  realmEmoji: ReturnType<typeof prepareRealmEmojiQueries>;
  botServices: ReturnType<typeof prepareBotServiceQueries>;
  /** Requests to outgoing-webhook bots' servers, made in the background (see bots/webhook-queue.ts). */
  outgoingWebhooks: OutgoingWebhookQueue;
  sessions: ReturnType<typeof prepareSessionQueries>;
  invites: ReturnType<typeof prepareInviteQueries>;
  /** Outgoing mail (email invitations), if --smtp names a mail server. */
  mailer: Mailer;
  /** Failed password logins, by account and by client address (see auth/rate-limit.ts). */
  loginFailures: { byEmail: FailureLimiter; byAddress: FailureLimiter };
  /** The uploaded files themselves, on disk. */
  uploads: UploadStore;
  avatars: Avatars;
}

/**
 * Zulip's heartbeat comes every 45 to 55 seconds; clients time out after 90. Zulip sets no
 * number of queues per user; a user rarely has more than a few (a browser tab, a phone, a
 * bot or two), so 50 leaves room for anyone real while no one can pile up thousands.
 */
export const DEFAULT_EVENT_QUEUE_OPTIONS: EventQueuesOptions = {
  heartbeatMs: 50_000,
  maxEventsPerQueue: 10_000,
  maxQueuesPerUser: 50,
  maxQueuedBytes: 32 * 1024 * 1024,
};

/**
 * Wrong passwords allowed before a login has to wait. Zulip limits login attempts far below
 * its API limit; five a minute per account stops guessing and hardly slows a person who
 * mistyped. Per address the limit is higher, since a school or an office (or a proxy in
 * front of Stoa) puts many people behind one.
 */
export const LOGIN_FAILURES_PER_EMAIL = { max: 5, windowMs: 60_000 };
export const LOGIN_FAILURES_PER_ADDRESS = { max: 20, windowMs: 60_000 };

export function createStoa(
  db: Db,
  config: Config,
  clock: Clock,
  queueOptions: Partial<EventQueuesOptions> = {},
): Stoa {
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
    realm: prepareRealmQueries(db),
    users: prepareUserQueries(db),
    groups: prepareGroupQueries(db),
    alertWords: prepareAlertWordQueries(db),
    channels: prepareChannelQueries(db),
    userTopics: prepareUserTopicQueries(db),
    messages: prepareMessageQueries(db),
    mutedUsers: prepareMutedUserQueries(db),
    presence: preparePresenceQueries(db),
    userStatus: prepareUserStatusQueries(db),
    drafts: prepareDraftQueries(db),
    savedSnippets: prepareSavedSnippetQueries(db),
    scheduledMessages: prepareScheduledMessageQueries(db),
    linkifiers: prepareLinkifierQueries(db),
    playgrounds: preparePlaygroundQueries(db),
    push: preparePushQueries(db),
    profileFields: prepareProfileFieldQueries(db),
    attachments: prepareAttachmentQueries(db),
    realmEmoji: prepareRealmEmojiQueries(db),
    botServices: prepareBotServiceQueries(db),
    outgoingWebhooks: new OutgoingWebhookQueue((line) => stoa.log(line)),
    sessions: prepareSessionQueries(db),
    invites: prepareInviteQueries(db),
    mailer: new Mailer(config.smtp, (line) => stoa.log(line)),
    loginFailures: {
      byEmail: new FailureLimiter(clock, LOGIN_FAILURES_PER_EMAIL),
      byAddress: new FailureLimiter(clock, LOGIN_FAILURES_PER_ADDRESS),
    },
    uploads: new UploadStore(config.data),
    avatars: new Avatars(config.gravatar, () => stoa.realm.get()!.id),
  };
  return stoa;
}

import { createChannel, subscribeUsers } from '../channels/actions';
import type { ChannelRow } from '../channels/queries';
import { write } from '../events/send';
import { sendMessage } from '../messages/actions';
import { noticeOptions } from '../messages/notices';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { updateRealm } from './settings-actions';
import { welcomeBot } from './welcome';

/**
 * What a new organization holds besides its owner, as a new Zulip organization does: three
 * default channels, each opened by Welcome Bot with a first topic, and Welcome Bot's direct
 * message telling the owner what to do next. The words are Stoa's own.
 */

interface StarterChannel {
  name: string;
  description: string;
  topic: string;
  content: string;
}

/** The channel announcements go to (new channels, and Zulip's update notices). */
const GENERAL = 'general';

const STARTER_CHANNELS: readonly StarterChannel[] = [
  {
    name: GENERAL,
    description: 'Conversations for everyone in the organization',
    topic: 'hello',
    content:
      'This channel is for what concerns everyone here. Everybody who joins is subscribed to it, ' +
      'so it is a good place to say who you are and what you are working on.',
  },
  {
    name: 'sandbox',
    description: 'A place to try things out :test_tube:',
    topic: 'experiments',
    content:
      'Nobody minds what happens in this channel: try things out here. Write **bold**, *italics* or `code`, ' +
      'make a list, react with an emoji, mention someone with @, and edit or delete your messages afterwards.\n\n' +
      'To start a conversation of your own, type a new topic name when you write a message.',
  },
  {
    name: 'Stoa',
    description: 'Questions and tips about using Stoa',
    topic: 'how topics work',
    content:
      'Every message in a channel has a topic: a short title, like the subject line of an email. ' +
      'Each discussion keeps to its own topic, so several can go on in one channel without getting tangled, ' +
      'and anyone can catch up on just the ones they care about.\n\n' +
      'Reply inside a topic to continue its discussion; pick a new topic name to begin another. ' +
      'Ask questions about using Stoa here.',
  },
];

/** Welcome Bot's first direct message to the owner of a new organization. */
function ownerWelcome(stoa: Stoa): string {
  const name = stoa.realm.get()!.name;
  return [
    `Hello! I am Welcome Bot, and ${name} is ready for you. Here is what to do next:`,
    '',
    '1. **Invite people**: in [Invitations](#organization/invites-list-admin), make an invitation link ' +
      '(also shown as a QR code, for a room full of phones) or send invitations by email. ' +
      'Each invitation says which role people get and which channels they join.',
    `2. **Set up your channels**: #**${GENERAL}**, #**sandbox** and #**Stoa** are ready, and everybody who joins ` +
      'is subscribed to them. Change them or add your own, and choose which ones newcomers get in ' +
      '[Default channels](#organization/default-channels-list).',
    '3. **Describe your organization**: its name, description and icon are in ' +
      '[Organization profile](#organization/organization-profile).',
    '4. **Introduce yourself**: your name and picture are in [Profile](#settings/profile).',
    '',
    'Conversations happen in topics inside channels; #**Stoa** explains how they work.',
  ].join('\n');
}

/**
 * Fills a just-created organization with its starter channels, messages and the owner's
 * welcome. Call inside the `write` that created the organization and its owner.
 */
export function furnishNewOrganization(stoa: Stoa, owner: UserRow): void {
  write(stoa, () => {
    const bot = welcomeBot(stoa);
    const channels = new Map<string, ChannelRow>();
    for (const spec of STARTER_CHANNELS) {
      const channel = createChannel(stoa, owner, {
        name: spec.name,
        description: spec.description,
        inviteOnly: false,
        isWebPublic: false,
        historyPublicToSubscribers: true,
        messageRetentionDays: null,
        topicsPolicy: 'inherit',
        folderId: null,
        isDefault: true,
        groupSettings: {},
      });
      channels.set(spec.name, channel);
    }
    subscribeUsers(stoa, [...channels.values()], [owner]);
    const general = channels.get(GENERAL)!.id;
    updateRealm(stoa, {
      settings: [
        { key: 'realm_new_stream_announcements_stream_id', value: general },
        { key: 'realm_zulip_update_announcements_stream_id', value: general },
      ],
      groupSettings: [],
    });
    for (const spec of STARTER_CHANNELS) {
      sendMessage(stoa, bot, { type: 'channel', channel: channels.get(spec.name)!, topic: spec.topic }, spec.content, noticeOptions(() => false));
    }
    // Read in the app, as every Welcome Bot message is: no push notification or email.
    sendMessage(stoa, bot, { type: 'direct', users: [owner] }, ownerWelcome(stoa), { ...noticeOptions(() => false), noExternalNotifications: true });
  });
}

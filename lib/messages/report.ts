import { write } from '../events/send';
import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';
import { REPORT_MESSAGE_TYPES } from '../realm/settings';
import { realmSetting } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { accessMessage } from './access';
import { sendMessage } from './actions';
import { MAX_MESSAGE_LENGTH, truncateContent } from './addressing';
import {
  anyMessageLink,
  conversationPeople,
  fenced,
  globalTime,
  mentionList,
  messageLinkSyntax,
  noticeOptions,
  notificationBot,
  silentMention,
} from './notices';
import type { MessageRow } from './queries';

/**
 * Reporting a message to the organization's moderators (Zulip's levels 382 and 435): the
 * notification bot posts the report in the moderation request channel, in a topic named
 * after the reported person, quoting the message behind a spoiler.
 */

const MAX_EXPLANATION_LENGTH = 1000;
/** The quoted message leaves room for the explanation and the rest of the report, as in Zulip. */
const MAX_QUOTED_LENGTH = MAX_MESSAGE_LENGTH - MAX_EXPLANATION_LENGTH - 500;

export const reportMessageView = endpoint<{ message_id: number; report_type: string; description?: string }>({
  pathPatterns: { message_id: /^\d+$/ },
  params: {
    properties: {
      message_id: { type: 'integer' },
      report_type: { type: 'string', enum: REPORT_MESSAGE_TYPES.map((type) => type.key) },
      description: { type: 'string', maxLength: MAX_EXPLANATION_LENGTH },
    },
    required: ['report_type'],
  },
  view: ({ stoa, user, params }) => {
    const description = params.description ?? '';
    if (params.report_type === 'other' && description === '') throw badRequest('An explanation is required.');
    const channelId = realmSetting(stoa, 'realm_moderation_request_channel_id') as number;
    const channel = channelId === -1 ? undefined : stoa.channels.byId(channelId);
    if (!channel || channel.is_archived) throw badRequest('Message reporting is not enabled in this organization.');
    const { row: message } = accessMessage(stoa, user, params.message_id);
    const reported = stoa.users.byId(message.sender_id)!;
    const topic = channel.topics_policy === 'empty_topic_only' ? '' : `${reported.full_name} moderation`;
    write(stoa, () => {
      sendMessage(
        stoa,
        notificationBot(stoa),
        { type: 'channel', channel, topic },
        reportContent(stoa, user, message, params.report_type, description),
        noticeOptions(() => false),
      );
    });
    return {};
  },
});

/** The report as moderators read it, in Zulip's words. */
function reportContent(stoa: Stoa, reporter: UserRow, message: MessageRow, reportType: string, description: string): string {
  const reported = stoa.users.byId(message.sender_id)!;
  const when = globalTime(message.date_sent);
  const by = `${silentMention(reporter)} reported a message sent by ${silentMention(reported)}`;
  let header: string;
  let original: string;
  if (message.stream_id !== null) {
    header = `${by} at ${when}.`;
    original = `Original message at ${messageLinkSyntax(stoa.channels.byId(message.stream_id)!, message.topic, message.id)}`;
  } else {
    const others = conversationPeople(stoa, message).filter((person) => person.id !== reported.id);
    const oneOnOne = conversationPeople(stoa, message).length <= 2;
    // A one-on-one message reported by someone else needs no addressee: it was sent to them.
    header = oneOnOne && reporter.id !== reported.id ? `${by} at ${when}.` : `${by} to ${mentionList(others.length > 0 ? others : [reported])} at ${when}.`;
    original = `[Original message](${anyMessageLink(stoa, message)})`;
  }
  const reason = REPORT_MESSAGE_TYPES.find((type) => type.key === reportType)!.name;
  const quoted = truncateContent(message.content, MAX_QUOTED_LENGTH);
  return `${header}\n${fenced(`**${reason}**. ${description}`, 'quote')}\n\n${fenced(quoted, ` spoiler ${original}`)}`;
}

import { onCommit } from '../events/send';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { BotType } from './queries';
import type { OutgoingWebhookJob } from './webhook-queue';

/** What a new message says about who it reaches, as sendMessage knows it. */
export interface SentMessage {
  id: number;
  sender: UserRow;
  isChannel: boolean;
  /** Everyone with a copy of the message. */
  receiverIds: readonly number[];
  /** Non-silent mentions of users and of groups. */
  mentionedUserIds: ReadonlySet<number>;
  mentionedGroupIds: ReadonlySet<number>;
}

function isOutgoingWebhookBot(user: UserRow | undefined): user is UserRow {
  return user !== undefined && user.is_active === 1 && user.bot_type === BotType.OUTGOING_WEBHOOK;
}

/**
 * Queues a request to each outgoing-webhook bot a new message sets off, as Zulip decides: in
 * a channel, the bots it mentions by name or through a group (subscribed or not; silent and
 * wildcard mentions do not count); in a direct conversation, every bot in it. Messages sent
 * by bots set off nothing, so two bots cannot answer each other forever. The requests are
 * queued once the message is committed, and never if it is undone.
 */
export function queueOutgoingWebhooks(stoa: Stoa, message: SentMessage): void {
  if (message.sender.is_bot) return;
  const jobs: OutgoingWebhookJob[] = [];
  const add = (botId: number) => {
    if (!jobs.some((job) => job.botId === botId)) {
      jobs.push({ messageId: message.id, botId, trigger: message.isChannel ? 'mention' : 'direct_message', failedTries: 0 });
    }
  };
  if (message.isChannel) {
    for (const id of message.mentionedUserIds) if (isOutgoingWebhookBot(stoa.users.byId(id))) add(id);
    if (message.mentionedGroupIds.size > 0) {
      for (const botId of stoa.botServices.activeBotIds()) {
        if ([...message.mentionedGroupIds].some((groupId) => stoa.groups.hasMember(groupId, botId))) add(botId);
      }
    }
  } else {
    for (const id of message.receiverIds) if (isOutgoingWebhookBot(stoa.users.byId(id))) add(id);
  }
  if (jobs.length === 0) return;
  onCommit(stoa, () => {
    for (const job of jobs) stoa.outgoingWebhooks.add(job);
  });
}

import { narrowChannel, narrowDm } from '../app/nav';
import { channelName, userByEmail, userName } from '../state';
import type { NarrowTerm } from '../types';

const IS_TITLES: Record<string, string> = {
  starred: 'Starred messages',
  mentioned: 'Mentions',
  dm: 'Direct messages',
  private: 'Direct messages',
  unread: 'Unread messages',
  resolved: 'Resolved topics',
  followed: 'Followed topics',
};

function personName(operand: string): string {
  if (/^\d+$/.test(operand)) return userName(Number(operand));
  return userByEmail(operand)?.full_name ?? operand;
}

/**
 * What a narrow shows, as Zulip titles it: the channel (and topic), the people of a direct
 * message, whom messages were sent by, a named view; "Search results" only for what has no
 * better name, such as words alone.
 */
export function narrowTitle(terms: NarrowTerm[]): string {
  if (terms.length === 0) return 'Combined feed';
  const channel = narrowChannel(terms);
  if (channel) return `#${channelName(channel.channelId) ?? channel.channelId}${channel.topic !== undefined ? ` › ${channel.topic || 'general chat'}` : ''}`;
  const dm = narrowDm(terms);
  if (dm) return dm.map(userName).join(', ');
  const positive = terms.filter((t) => !t.negated && t.operator !== 'search');
  const sender = positive.find((t) => t.operator === 'sender');
  if (sender) return `Messages sent by ${personName(sender.operand)}`;
  const including = positive.find((t) => t.operator === 'dm-including');
  if (including) return `Direct messages including ${personName(including.operand)}`;
  const is = positive.find((t) => t.operator === 'is' && IS_TITLES[t.operand]);
  if (is && positive.length === 1) return IS_TITLES[is.operand];
  return 'Search results';
}

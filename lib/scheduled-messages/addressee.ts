import { channelForSend, checkCanPost, checkCanSendDirect, checkTopicPolicy, directRecipients } from '../messages/addressing';
import type { Addressee } from '../messages/actions';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import type { ScheduledType } from './queries';

/**
 * Where a scheduled message goes, checked as sending it right now would be: when it is
 * scheduled or edited, and again when it is sent, since the sender's permissions, the
 * channel or the recipients may have changed meanwhile.
 */
export function checkedAddressee(stoa: Stoa, sender: UserRow, type: ScheduledType, to: readonly number[], topic: string): Addressee {
  if (type === 'stream') {
    const channel = channelForSend(stoa, to[0]);
    checkCanPost(stoa, sender, channel);
    checkTopicPolicy(stoa, channel, topic);
    return { type: 'channel', channel, topic };
  }
  const people = directRecipients(stoa, [...to]);
  const others = people.filter((person) => person.id !== sender.id);
  const users = others.length > 0 ? others : [sender];
  checkCanSendDirect(stoa, sender, users);
  return { type: 'direct', users };
}

/** The `to` of an addressee as scheduled messages show it: the channel, or the others in the conversation (the sender alone for a note to self). */
export function scheduledTo(addressee: Addressee): number[] {
  if (addressee.type === 'channel') return [addressee.channel.id];
  return addressee.users.map((user) => user.id).sort((a, b) => a - b);
}

import { truncateContent, MAX_MESSAGE_LENGTH } from '../messages/addressing';
import { anyMessageLink, conversationPeople, fenced, mentionList, messageLinkSyntax, silentMention } from '../messages/notices';
import type { MessageRow } from '../messages/queries';
import type { Stoa } from '../stoa';

/**
 * What the notification bot sends when a reminder comes due, in Zulip's words (clients and
 * people recognise them): what the reminder is about, the user's note quoted, and the
 * message itself quoted (or named, for a poll or a to-do list), with links back to it.
 * Written when the reminder is made, as Zulip does, so later edits do not change it.
 */
export function reminderContent(stoa: Stoa, message: MessageRow, note: string): string {
  const author = silentMention(stoa.users.byId(message.sender_id)!);
  const url = anyMessageLink(stoa, message);
  const channel = message.stream_id === null ? undefined : stoa.channels.byId(message.stream_id)!;
  const what = channel ? 'message' : 'direct message';
  let content = note === '' ? `You requested a reminder for the following ${what}.` : `You requested a reminder for the following ${what}. Note:\n > ${note}`;
  content += '\n\n';
  let where: string;
  if (channel) {
    where = `in ${messageLinkSyntax(channel, message.topic, message.id)}`;
  } else {
    const others = conversationPeople(stoa, message).filter((user) => user.id !== message.sender_id);
    where = `to ${mentionList(others.length > 0 ? others : [stoa.users.byId(message.sender_id)!])}`;
  }
  const widget = message.content.startsWith('/poll') ? 'poll' : message.content.startsWith('/todo') ? 'todo list' : undefined;
  if (widget) return `${content}${author} [sent](${url}) a ${widget} ${where}.`;
  content += `${author} [said](${url}) ${where}:\n`;
  // The quote takes what room the rest leaves, so the reminder never needs cutting itself.
  const room = MAX_MESSAGE_LENGTH - Array.from(content + fenced('', 'quote')).length;
  return content + fenced(truncateContent(message.content, room), 'quote');
}

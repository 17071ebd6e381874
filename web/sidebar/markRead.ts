import { post } from '../api';
import { applyRead } from '../messages/feed';
import { unread } from '../state';
import { confirmAction } from '../ui/Confirm';
import { reportError } from '../ui/Toasts';
import type { UnreadPlace } from '../state';

/**
 * "Mark all messages as read", for everything, a channel or a topic, as Zulip's menus offer it.
 * The counts here fall at once; the server's update_message_flags event does the same in the
 * person's other browsers.
 */

function unreadWhere(matches: (place: UnreadPlace) => boolean): number[] {
  return [...unread.value].filter(([, place]) => matches(place)).map(([id]) => id);
}

async function markRead(ids: number[], path: string, params: Record<string, unknown> = {}): Promise<void> {
  applyRead(ids);
  try {
    await post(path, params);
  } catch (err) {
    reportError(err);
  }
}

/** Everything read, after asking, since it cannot be undone in one step. */
export async function markAllRead(): Promise<void> {
  const ids = unreadWhere(() => true);
  const yes = await confirmAction('Mark all messages as read?', `This marks every unread message (${ids.length}) as read, in all channels and direct messages.`, 'Mark all as read');
  if (yes) await markRead(ids, '/json/mark_all_as_read');
}

export function markChannelRead(channelId: number): Promise<void> {
  return markRead(unreadWhere((p) => p.kind === 'channel' && p.channelId === channelId), '/json/mark_stream_as_read', { stream_id: channelId });
}

export function markTopicRead(channelId: number, topic: string): Promise<void> {
  const lower = topic.toLowerCase();
  return markRead(
    unreadWhere((p) => p.kind === 'channel' && p.channelId === channelId && p.topic.toLowerCase() === lower),
    '/json/mark_topic_as_read',
    { stream_id: channelId, topic_name: topic },
  );
}

/** A direct-message conversation read (`key` as state.dmKey gives it), by its unread messages' IDs. */
export function markDmRead(key: string): Promise<void> {
  const ids = unreadWhere((p) => p.kind === 'dm' && p.key === key);
  return markRead(ids, '/json/messages/flags', { messages: ids, op: 'add', flag: 'read' });
}

import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { hashNames } from '../app/nav';
import { narrowHash } from '../app/narrow';
import { isTopicMuted, topicKey, topics, unreadCounts } from '../state';
import { PopupMenu } from '../ui/PopupMenu';
import { markTopicRead } from './markRead';

/** Topics shown under the open channel before "more topics", as in Zulip. */
const RECENT_TOPICS = 8;
/** Topics with unread messages shown even past the recent ones, up to this many in all. */
const WITH_UNREAD = 12;

export function UnreadCount({ n, label }: { n: number | undefined; label: string }) {
  if (!n) return null;
  return (
    <span class="unread-count" aria-label={`${n} unread ${label}`}>
      {n}
    </span>
  );
}

/**
 * The topics of the open channel: the recent ones, those with unread messages, and the open
 * one; "more topics" zooms into all of them with a filter box (`zoomed`).
 */
export function TopicList({ channelId, channelName, openTopic, zoomed, onZoom, onNavigate }: {
  channelId: number;
  channelName: string;
  openTopic: string | undefined;
  zoomed: boolean;
  onZoom: (zoomed: boolean) => void;
  onNavigate: () => void;
}) {
  const [filter, setFilter] = useState('');
  const filterBox = useRef<HTMLInputElement>(null);
  // Zooming in puts the cursor in the filter, as Zulip does.
  useLayoutEffect(() => {
    if (zoomed) filterBox.current?.focus();
  }, [zoomed]);
  const counts = unreadCounts.value;
  const all = topics.value.get(channelId) ?? [];
  const unreadOf = (name: string) => counts.topics.get(topicKey(channelId, name)) ?? 0;
  const isOpen = (name: string) => openTopic !== undefined && openTopic.toLowerCase() === name.toLowerCase();
  let shown = all;
  if (zoomed) {
    const words = filter.trim().toLowerCase();
    shown = words ? all.filter((t) => (t.name || 'general chat').toLowerCase().includes(words)) : all;
  } else {
    shown = all.filter((t, i) => i < RECENT_TOPICS || isOpen(t.name) || (unreadOf(t.name) > 0 && !isTopicMuted(channelId, t.name) && i < WITH_UNREAD));
  }
  const hidden = zoomed ? [] : all.filter((t) => !shown.includes(t));
  const hiddenUnread = hidden.reduce((sum, t) => sum + (isTopicMuted(channelId, t.name) ? 0 : unreadOf(t.name)), 0);
  if (all.length === 0) return null;
  return (
    <div class="topic-list">
      {zoomed && (
        <input
          class="topic-filter"
          type="search"
          aria-label="Filter topics"
          placeholder="Filter topics"
          value={filter}
          onInput={(e) => setFilter(e.currentTarget.value)}
          ref={filterBox}
        />
      )}
      <ul class="topics" aria-label={`Topics in ${channelName}`}>
        {shown.map((topic) => {
          const muted = isTopicMuted(channelId, topic.name);
          const label = topic.name || 'general chat';
          return (
            <li key={topic.name} class={['sidebar-row', isOpen(topic.name) ? 'active' : '', muted ? 'muted' : ''].join(' ').trim()}>
              <a
                href={narrowHash(
                  [
                    { operator: 'channel', operand: String(channelId) },
                    { operator: 'topic', operand: topic.name },
                  ],
                  hashNames,
                )}
                onClick={onNavigate}
              >
                <span class="name">{label}</span>
                {muted && <span class="visually-hidden"> (muted)</span>}
                <UnreadCount n={unreadOf(topic.name)} label={`messages in ${label}`} />
              </a>
              <PopupMenu label={`Topic menu for ${label}`} class="row-menu" items={[{ label: 'Mark all messages as read', action: () => void markTopicRead(channelId, topic.name) }]} />
            </li>
          );
        })}
        {zoomed && shown.length === 0 && <li class="empty">No topics match.</li>}
      </ul>
      {hidden.length > 0 && (
        <button type="button" class="link-button more-topics" onClick={() => onZoom(true)}>
          more topics{hiddenUnread > 0 && <span class="plain-count" aria-label={`, ${hiddenUnread} unread`}> {hiddenUnread}</span>}
        </button>
      )}
      {zoomed && (
        <button
          type="button"
          class="link-button more-topics"
          onClick={() => {
            setFilter('');
            onZoom(false);
          }}
        >
          back to channels
        </button>
      )}
    </div>
  );
}

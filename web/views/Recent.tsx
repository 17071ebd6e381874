import { avatarUrlOf } from '../people/avatar-url';
import { useEffect, useState } from 'preact/hooks';
import { hashNames } from '../app/nav';
import { narrowHash } from '../app/narrow';
import { Avatar } from '../people/Avatar';
import { channelName, isTopicMuted, session, subscriptions, topicKey, unreadCounts, userName, users } from '../state';
import { reportError } from '../ui/Toasts';
import { markDmRead, markTopicRead } from '../sidebar/markRead';
import { loadOlderRecent, loadRecent, recentConversations, recentLoading, recentReach, senderName, type RecentConversation } from './recentConversations';

const DAY = 24 * 60 * 60;
const DATE = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const SINCE = new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

/** How long ago, as a list of conversations says it: minutes, hours, yesterday, a date. */
function ago(timestamp: number, now = Date.now() / 1000): string {
  const seconds = now - timestamp;
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < DAY) return `${Math.floor(seconds / 3600)} h ago`;
  if (seconds < 2 * DAY) return 'yesterday';
  return DATE.format(timestamp * 1000);
}

type Filter = 'unread' | 'participated' | 'muted';
const FILTERS: Array<[Filter, string]> = [
  ['unread', 'Unread'],
  ['participated', 'Participated'],
  ['muted', 'Include muted'],
];

/** The `#recent` view: topics and direct messages by latest activity, with filters, kept current as messages arrive. */
export function Recent() {
  const [filters, setFilters] = useState<Set<Filter>>(new Set());
  const [text, setText] = useState('');
  const counts = unreadCounts.value;
  const reach = recentReach.value;
  const self = session.value?.user_id ?? 0;
  useEffect(() => {
    if (!recentConversations.value) loadRecent().catch(reportError);
  }, []);
  const unreadOf = (c: RecentConversation) => (c.dmKey !== undefined ? counts.dms.get(c.dmKey) : counts.topics.get(topicKey(c.channelId!, c.topic!))) ?? 0;
  const mutedOf = (c: RecentConversation) => c.channelId !== undefined && isTopicMuted(c.channelId, c.topic!);
  const labelOf = (c: RecentConversation) =>
    c.dmKey !== undefined ? (c.dmKey === String(self) ? `${userName(self)} (you)` : c.dmKey.split(',').map(Number).map(userName).join(', ')) : c.topic || 'general chat';
  const words = text.trim().toLowerCase();
  const rows = [...(recentConversations.value?.values() ?? [])]
    .filter((c) => c.dmKey !== undefined || subscriptions.value.has(c.channelId!))
    .filter((c) => !filters.has('unread') || unreadOf(c) > 0)
    .filter((c) => !filters.has('participated') || c.participated)
    .filter((c) => filters.has('muted') || !mutedOf(c))
    .filter((c) => !words || `${c.channelId !== undefined ? channelName(c.channelId) : ''} ${labelOf(c)}`.toLowerCase().includes(words))
    .sort((a, b) => b.maxId - a.maxId);
  const toggle = (filter: Filter) => {
    const next = new Set(filters);
    if (!next.delete(filter)) next.add(filter);
    setFilters(next);
  };
  return (
    <div class="recent-view" role="region" aria-label="Recent conversations">
      <h1 class="view-title">Recent conversations</h1>
      <div class="recent-filters" role="group" aria-label="Filters">
        {FILTERS.map(([filter, label]) => (
          <button key={filter} type="button" class="filter-button" aria-pressed={filters.has(filter)} onClick={() => toggle(filter)}>
            {label}
          </button>
        ))}
        <input type="search" aria-label="Filter conversations" placeholder="Filter conversations" value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </div>
      {recentLoading.value && !recentConversations.value && <p class="feed-edge">Loading…</p>}
      {recentConversations.value && rows.length === 0 && <p class="feed-empty">No conversations match.</p>}
      <ul class="recent-list" aria-label="Conversations">
        {rows.map((c) => {
          const n = unreadOf(c);
          const label = labelOf(c);
          const color = c.channelId !== undefined ? subscriptions.value.get(c.channelId)?.color : undefined;
          const terms =
            c.dmKey !== undefined
              ? [{ operator: 'dm', operand: c.dmKey }]
              : [
                  { operator: 'channel', operand: String(c.channelId) },
                  { operator: 'topic', operand: c.topic! },
                ];
          return (
            <li key={c.key} class={`recent-row${n ? ' has-unread' : ''}${mutedOf(c) ? ' muted' : ''}`}>
              <span class="recent-where" style={color ? { borderColor: color } : undefined}>
                {c.channelId !== undefined ? (
                  <a href={narrowHash([{ operator: 'channel', operand: String(c.channelId) }], hashNames)}>#{channelName(c.channelId)}</a>
                ) : (
                  'Direct message'
                )}
              </span>
              <span class="recent-topic">
                <a class="name" data-row-link href={narrowHash(terms, hashNames)}>
                  {label}
                </a>
                {n > 0 && (
                  // The count marks the conversation read, as Zulip's does.
                  <button type="button" class="unread-count" aria-label={`Mark ${n} ${n === 1 ? 'message' : 'messages'} as read`} title="Mark as read" onClick={() => void markRead(c)}>
                    {n}
                  </button>
                )}
              </span>
              <span class="recent-people" role="img" aria-label={`Participants: ${c.senders.map(senderName).join(', ')}`}>
                {c.senders.slice(0, 4).map((id) => (
                  <Avatar key={id} class="avatar tiny" url={avatarUrlOf(users.value.get(id))} size={22} />
                ))}
                {c.senders.length > 4 && <span class="more-people">+{c.senders.length - 4}</span>}
              </span>
              <time class="recent-time" dateTime={new Date(c.timestamp * 1000).toISOString()}>
                {ago(c.timestamp)}
              </time>
            </li>
          );
        })}
      </ul>
      {/* Older conversations than the latest messages hold come a batch at a time, as in Zulip. */}
      {reach && !reach.foundOldest && recentConversations.value && (
        <div class="recent-more">
          <p>Showing conversations since {SINCE.format(reach.oldestTimestamp * 1000)}.</p>
          <button type="button" aria-disabled={recentLoading.value} onClick={() => !recentLoading.value && loadOlderRecent().catch(reportError)}>
            {recentLoading.value ? 'Loading…' : 'Load more conversations'}
          </button>
        </div>
      )}
    </div>
  );
}

function markRead(c: RecentConversation): Promise<void> {
  return c.dmKey !== undefined ? markDmRead(c.dmKey) : markTopicRead(c.channelId!, c.topic!);
}

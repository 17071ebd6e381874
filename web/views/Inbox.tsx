import { hashNames } from '../app/nav';
import { narrowHash } from '../app/narrow';
import { channelName, isTopicMuted, session, subscriptions, unread, unreadCounts, userName } from '../state';

/**
 * Every conversation with unread messages, grouped by channel, direct messages first; muted
 * topics left out, as in Zulip. Its links are rows for the arrow keys and j/k (`data-row-link`).
 */
export function Inbox() {
  const counts = unreadCounts.value;
  const self = session.value?.user_id ?? 0;
  const topicsByChannel = new Map<number, Map<string, { name: string; count: number }>>();
  for (const place of unread.value.values()) {
    if (place.kind !== 'channel' || !subscriptions.value.has(place.channelId) || isTopicMuted(place.channelId, place.topic)) continue;
    const byTopic = topicsByChannel.get(place.channelId) ?? new Map();
    topicsByChannel.set(place.channelId, byTopic);
    const key = place.topic.toLowerCase();
    const entry = byTopic.get(key) ?? { name: place.topic, count: 0 };
    entry.count++;
    byTopic.set(key, entry);
  }
  const dms = [...counts.dms.entries()];
  return (
    <div class="inbox" role="region" aria-label="Inbox">
      <h1 class="view-title">Inbox</h1>
      {counts.total === 0 && <p class="feed-empty">You have no unread messages.</p>}
      {dms.length > 0 && (
        <section aria-label="Direct messages">
          <h2 class="inbox-heading">Direct messages</h2>
          <ul>
            {dms.map(([key, n]) => {
              const ids = key.split(',').map(Number);
              const label = key === String(self) ? 'You' : ids.map(userName).join(', ');
              return (
                <li key={key}>
                  <a data-row-link href={narrowHash([{ operator: 'dm', operand: key }], hashNames)}>
                    <span class="name">{label}</span>
                    <span class="unread-count">{n}</span>
                  </a>
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {[...topicsByChannel.entries()]
        .sort((a, b) => (channelName(a[0]) ?? '').localeCompare(channelName(b[0]) ?? ''))
        .map(([channelId, byTopic]) => (
          <section key={channelId} aria-label={`#${channelName(channelId)}`}>
            <h2 class="inbox-heading" style={{ borderColor: subscriptions.value.get(channelId)?.color }}>
              <a data-row-link href={narrowHash([{ operator: 'channel', operand: String(channelId) }], hashNames)}>
                #{channelName(channelId)}
              </a>
              <span class="unread-count">{counts.channels.get(channelId)}</span>
            </h2>
            <ul>
              {[...byTopic.values()].map((topic) => (
                <li key={topic.name}>
                  <a
                    data-row-link
                    href={narrowHash(
                      [
                        { operator: 'channel', operand: String(channelId) },
                        { operator: 'topic', operand: topic.name },
                      ],
                      hashNames,
                    )}
                  >
                    <span class="name">{topic.name || 'general chat'}</span>
                    <span class="unread-count">{topic.count}</span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
    </div>
  );
}

import { channelSettingsHash } from '../channels/state';
import { narrowTitle } from '../search/title';
import { channels, subscriptions } from '../state';
import type { NarrowTerm } from '../types';
import { Icon } from '../ui/icons';
import { narrowChannel } from './nav';

/**
 * A message view's heading, as Zulip's bar above the messages: what the view shows and, for a
 * channel or one of its topics, the channel's description (one line, whole on hover) and how
 * many subscribe to it (a link to the channel's subscribers).
 */
export function NarrowHeader({ terms }: { terms: NarrowTerm[] }) {
  const channelId = narrowChannel(terms)?.channelId;
  const channel = channelId === undefined ? undefined : (subscriptions.value.get(channelId) ?? channels.value.get(channelId));
  const count = channel?.subscriber_count;
  const subscribers = `${count} ${count === 1 ? 'subscriber' : 'subscribers'}`;
  return (
    <div class="narrow-header">
      <h1 class="narrow-title">{narrowTitle(terms)}</h1>
      {channel?.rendered_description && (
        <div class="narrow-description rendered_markdown" title={channel.description} dangerouslySetInnerHTML={{ __html: channel.rendered_description }} />
      )}
      {channel && count !== undefined && (
        <a
          class="narrow-subscribers"
          href={channelSettingsHash(channel.stream_id, channel.name, 'subscribers')}
          aria-label={subscribers}
          title={subscribers}
        >
          <Icon name="people" size={14} /> {count}
        </a>
      )}
    </div>
  );
}

import { markdownContextFor } from '../markdown/context';
import { renderMarkdown, topicLinks, type MarkdownContext, type RenderedMarkdown } from '../markdown/render';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { userSettings } from '../users/settings-store';
import { canReadChannelHistory } from './access';

export interface TopicLink {
  text: string;
  url: string;
}

/** What rendering a message's content tells us besides its HTML. */
export type RenderedContent = RenderedMarkdown;

/** The renderer's view of the realm as `author` writes: topic links go to messages they can read. */
function contextFor(stoa: Stoa, author: UserRow | undefined, alertWords: readonly string[]): MarkdownContext {
  return {
    ...markdownContextFor(stoa),
    alertWords,
    topicLinkMessageId: (channelId, topic) => {
      const channel = stoa.channels.byId(channelId);
      if (!channel || !author || !canReadChannelHistory(stoa, author, channel)) return null;
      // The topic's latest message, as Zulip links topics from feature level 400.
      return stoa.messages.latestInTopic(channel.recipient_id, topic) ?? null;
    },
  };
}

/** Renders a message's Markdown as its author writes it, finding which candidate alert words it contains. */
export function renderContent(stoa: Stoa, author: UserRow, content: string, alertWords: readonly string[]): RenderedContent {
  return renderMarkdown(content, contextFor(stoa, author, alertWords), {
    translateEmoticons: userSettings(stoa, author).translate_emoticons === true,
  });
}

/** The topic_links of a topic: what the realm's linkifiers (and bare URLs) make of it. */
export function linksInTopic(stoa: Stoa, topic: string): TopicLink[] {
  return topicLinker(stoa)(topic);
}

/** linksInTopic for many topics, the realm read once for all of them. */
export function topicLinker(stoa: Stoa): (topic: string) => TopicLink[] {
  const context = contextFor(stoa, undefined, []);
  return (topic) => topicLinks(topic, context);
}

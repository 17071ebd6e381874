import { renderMarkdown } from '../markdown/render';
import type { Stoa } from '../stoa';

export interface TopicLink {
  text: string;
  url: string;
}

/** What rendering a message's content tells us besides its HTML. */
export interface RenderedContent {
  html: string;
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  mentionsChannelWildcard: boolean;
  mentionsTopicWildcard: boolean;
  isMeMessage: boolean;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  alertWordsFound: Set<string>;
}

/** Renders a message's Markdown, finding which of the candidate alert words it contains. */
export function renderContent(stoa: Stoa, content: string, alertWords: readonly string[]): RenderedContent {
  void stoa;
  void alertWords;
  return {
    html: renderMarkdown(content),
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    mentionsChannelWildcard: false,
    mentionsTopicWildcard: false,
    isMeMessage: /^\/me\s/.test(content),
    hasLink: false,
    hasImage: false,
    hasAttachment: false,
    alertWordsFound: new Set(),
  };
}

/** The topic_links of a topic: what the realm's linkifiers make of it. */
export function linksInTopic(stoa: Stoa, topic: string): TopicLink[] {
  void stoa;
  void topic;
  return [];
}

import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { post } from '../api';
import { enhanceRenderedContent } from '../messages/MessageRow';
import { channelName, session, userName } from '../state';

/** Where a saved message goes, as its list writes it: "#channel › topic" or "You and …". */
export function recipientLine(type: string, to: number[], topic: string): string {
  if (type === 'stream') {
    const channel = to.length ? channelName(to[0]) : undefined;
    return channel ? `#${channel} › ${topic || 'general chat'}` : 'No channel chosen';
  }
  if (type === 'private') {
    const self = session.value?.user_id ?? 0;
    const others = to.filter((id) => id !== self);
    return others.length ? `You and ${others.map(userName).join(', ')}` : 'You and yourself';
  }
  return 'No recipient chosen';
}

export interface SavedMessage {
  key: number;
  /** From recipientLine. */
  recipient: string;
  /** When it was saved or is to be sent, written out. */
  time: string;
  /** The server's rendering; without it the Markdown is rendered when the row is drawn. */
  rendered?: string;
  content: string;
  /** A warning beside the time (a scheduled message that could not be sent). */
  note?: string;
  actions: ComponentChildren;
  /** Drawn under the preview (another time being chosen). */
  below?: ComponentChildren;
}

// Drafts are saved as Markdown: their previews are rendered by the server once per text.
const renderedDrafts = new Map<string, Promise<string>>();

function renderedOf(content: string): Promise<string> {
  let rendered = renderedDrafts.get(content);
  if (!rendered) {
    rendered = post<{ rendered: string }>('/json/messages/render', { content: content || ' ' }).then((answer) => answer.rendered);
    rendered.catch(() => renderedDrafts.delete(content));
    renderedDrafts.set(content, rendered);
  }
  return rendered;
}

/** A saved message's text as messages are shown; its Markdown as written until the rendering comes. */
export function Preview({ rendered, content }: { rendered?: string; content: string }) {
  const [html, setHtml] = useState(rendered ?? null);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (rendered !== undefined) return setHtml(rendered);
    let current = true;
    renderedOf(content).then(
      (answer) => current && setHtml(answer),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [rendered, content]);
  useEffect(() => {
    if (root.current && html !== null) enhanceRenderedContent(root.current, session.value?.user_id ?? 0);
  }, [html]);
  if (html === null) return <p class="saved-text">{content}</p>;
  return <div class="message-content rendered_markdown" ref={root} dangerouslySetInnerHTML={{ __html: html }} />;
}

function SavedItems({ messages }: { messages: SavedMessage[] }) {
  return (
    <ul class="item-list saved-list">
      {messages.map((message) => (
        <li key={message.key}>
          <div class="saved-body">
            <p class="saved-recipient">
              <span class="saved-to">{message.recipient}</span>
              <span class="saved-time">{message.time}</span>
              {message.note && <span class="saved-note">{message.note}</span>}
            </p>
            <Preview rendered={message.rendered} content={message.content} />
            {message.below}
          </div>
          <div class="channel-actions">{message.actions}</div>
        </li>
      ))}
    </ul>
  );
}

/**
 * A view listing messages the person keeps for later (drafts, scheduled messages), as Zulip's
 * overlays do: each with where it goes, when, its text as it will look, and what can be done;
 * a second kind (reminders) under a heading of its own when there are any.
 */
export function SavedMessageList({ title, empty, messages, more }: { title: string; empty: string; messages: SavedMessage[]; more?: { title: string; messages: SavedMessage[] } }) {
  return (
    <div class="panel" role="region" aria-label={title}>
      <h1 class="view-title">{title}</h1>
      {messages.length === 0 && <p class="feed-empty">{empty}</p>}
      <SavedItems messages={messages} />
      {more && more.messages.length > 0 && (
        <section aria-label={more.title}>
          <h2 class="saved-section">{more.title}</h2>
          <SavedItems messages={more.messages} />
        </section>
      )}
    </div>
  );
}

import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { patch, post } from '../api';
import { Icon } from '../ui/icons';
import { arrivals, feed, loadMore, markSeen, matchesNarrow, selectedId, setReadPosition } from './feed';
import { hashNames } from '../app/nav';
import { narrowHash } from '../app/narrow';
import { channelName, dmKeyOf, isTopicMuted, localEchoes, session, subscriptions, TopicPolicy, topicPolicy, userName, users } from '../state';
import type { Message } from '../types';
import { MessageRow } from './MessageRow';
import { followInternalLink } from './links';
import { imageViewer, openClickedImage, viewSelectedImage } from './viewer';
import { lazyComponent } from '../ui/lazy';
import { dateLabel, dayOf, fullDateOf, timeOf } from './time';
import { reportError } from '../ui/Toasts';
import { withKey } from '../ui/keys';
import { RESOLVED_PREFIX, unresolvedTopic } from './resolved';
import { atScrollEnd, ScrollToBottom } from './ScrollToBottom';

function conversationOf(message: Message, self: number): string {
  return message.type === 'stream' ? `s:${message.stream_id}:${message.subject.toLowerCase()}` : `d:${dmKeyOf(message, self)}`;
}

/** Black or white, whichever reads better on a channel's colour. */
export function textOn(color: string): string {
  const hex = /^#?([0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return '#000';
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#1f2328' : '#ffffff';
}

/** The day of a recipient bar or a date separator, with the whole date as its tooltip. */
function DateLabel({ timestamp }: { timestamp: number }) {
  return (
    <time class="recipient-date" dateTime={new Date(timestamp * 1000).toISOString().slice(0, 10)} title={fullDateOf(timestamp)}>
      {dateLabel(timestamp)}
    </time>
  );
}

/** Screens without a pointer that hovers (phones) show every topic button at once. */
const noHover = typeof matchMedia === 'function' && matchMedia('(hover: none)').matches;

function RecipientBar({ message, self }: { message: Message; self: number }) {
  // A bar's topic buttons are made when first wanted (pointer over the bar, focus in it), as
  // the message actions are: a feed of many conversations then opens with far fewer elements.
  // A button showing a topic's state (resolved, followed, muted) is always there.
  const [wantsActions, setWantsActions] = useState(noHover);
  if (message.type === 'stream') {
    const id = message.stream_id ?? 0;
    const name = channelName(id) ?? String(message.display_recipient);
    const color = subscriptions.value.get(id)?.color ?? '#c2c2c2';
    const want = wantsActions ? undefined : () => setWantsActions(true);
    return (
      <div class="recipient-bar" style={{ borderColor: color }} onPointerEnter={want} onFocusIn={want}>
        <a class="recipient-channel" style={{ backgroundColor: color, color: textOn(color) }} href={narrowHash([{ operator: 'channel', operand: String(id) }], hashNames)}>
          #{name}
        </a>
        <span aria-hidden="true" class="recipient-sep">
          ›
        </span>
        <a
          class="recipient-topic"
          href={narrowHash(
            [
              { operator: 'channel', operand: String(id) },
              { operator: 'topic', operand: message.subject },
            ],
            hashNames,
          )}
        >
          {message.match_subject ? <span dangerouslySetInnerHTML={{ __html: message.match_subject }} /> : message.subject || <em>general chat</em>}
        </a>
        <span class="topic-actions">
          {message.subject !== '' && (wantsActions || message.subject.startsWith(RESOLVED_PREFIX)) && <ResolveButton message={message} />}
          {(wantsActions || topicPolicy(id, message.subject) === TopicPolicy.followed) && <FollowButton channelId={id} topic={message.subject} />}
          {(wantsActions || isTopicMuted(id, message.subject)) && <MuteButton channelId={id} topic={message.subject} />}
        </span>
        <DateLabel timestamp={message.timestamp} />
      </div>
    );
  }
  const key = dmKeyOf(message, self);
  const others = key === String(self) ? [self] : key.split(',').map(Number);
  return (
    <div class="recipient-bar recipient-dm">
      <a href={narrowHash([{ operator: 'dm', operand: others.join(',') }], hashNames)}>
        {key === String(self) ? 'You and yourself' : `You and ${others.map(userName).join(', ')}`}
      </a>
      <DateLabel timestamp={message.timestamp} />
    </div>
  );
}

/** One click marks the topic resolved ("✔ " before its name) or unresolved again, as in Zulip. */
function ResolveButton({ message }: { message: Message }) {
  const resolved = message.subject.startsWith(RESOLVED_PREFIX);
  const toggle = async () => {
    const topic = resolved ? unresolvedTopic(message.subject) : RESOLVED_PREFIX + message.subject;
    try {
      await patch(`/json/messages/${message.id}`, { topic, propagate_mode: 'change_all' });
    } catch (err) {
      reportError(err);
    }
  };
  const label = resolved ? 'Mark as unresolved' : 'Mark as resolved';
  return (
    <button type="button" class={`resolve-topic${resolved ? ' resolved' : ''}`} aria-label={label} title={label} onClick={toggle}>
      <Icon name="check" />
    </button>
  );
}

async function setTopicPolicy(channelId: number, topic: string, policy: number): Promise<void> {
  try {
    await post('/json/user_topics', { stream_id: channelId, topic, visibility_policy: policy });
  } catch (err) {
    reportError(err);
  }
}

/**
 * Mutes the topic for oneself, or unmutes it, as Zulip's topic menu does: in a muted channel
 * unmuting marks the topic unmuted, elsewhere it goes back to what the channel says.
 */
export function toggleTopicMute(channelId: number, topic: string): Promise<void> {
  const muted = isTopicMuted(channelId, topic);
  const channelMuted = Boolean(subscriptions.value.get(channelId)?.is_muted);
  return setTopicPolicy(channelId, topic, !muted ? TopicPolicy.muted : channelMuted ? TopicPolicy.unmuted : TopicPolicy.inherit);
}

function MuteButton({ channelId, topic }: { channelId: number; topic: string }) {
  const muted = isTopicMuted(channelId, topic);
  const toggle = () => toggleTopicMute(channelId, topic);
  const label = withKey(muted ? 'Unmute topic' : 'Mute topic', 'M');
  return (
    <button type="button" class={`mute-topic${muted ? ' muted' : ''}`} aria-label={muted ? 'Unmute topic' : 'Mute topic'} title={label} onClick={toggle}>
      <Icon name={muted ? 'bellOff' : 'bell'} />
    </button>
  );
}

/** Follows the topic (it counts even in a muted channel, and `is:followed` finds it), or stops following it. */
function FollowButton({ channelId, topic }: { channelId: number; topic: string }) {
  const followed = topicPolicy(channelId, topic) === TopicPolicy.followed;
  const label = followed ? 'Unfollow topic' : 'Follow topic';
  return (
    <button
      type="button"
      class={`follow-topic${followed ? ' followed' : ''}`}
      aria-label={label}
      title={label}
      onClick={() => setTopicPolicy(channelId, topic, followed ? TopicPolicy.inherit : TopicPolicy.followed)}
    >
      <Icon name="eye" />
    </button>
  );
}

/** Clicks in rendered messages: images into the viewer, links into the organization, then spoilers. */
function onContentClick(event: MouseEvent): void {
  if (openClickedImage(event) || followInternalLink(event)) return;
  toggleSpoiler(event);
}

const LazyLightbox = lazyComponent(() => import('./Lightbox').then((m) => m.Lightbox));

/** The image viewer, when open; `v` opens it on the selected message's first image. */
function ImageViewer() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'v' || e.ctrlKey || e.metaKey || e.altKey || imageViewer.value) return;
      if ((e.target as HTMLElement).closest?.('input, textarea, select, [contenteditable="true"]')) return;
      if (viewSelectedImage()) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return imageViewer.value ? <LazyLightbox /> : null;
}

/** Spoilers in rendered messages open and close when their header is clicked. */
function toggleSpoiler(event: MouseEvent): void {
  const header = (event.target as HTMLElement).closest('.spoiler-header');
  const block = header?.closest('.spoiler-block');
  if (!block) return;
  block.classList.toggle('open');
  block.querySelector('.spoiler-content')?.setAttribute('aria-hidden', String(!block.classList.contains('open')));
}

/** Where a message's row starts within the scroller's content, or null when it is not drawn. */
function rowOffset(scroller: HTMLElement, messageId: number): number | null {
  const row = scroller.querySelector<HTMLElement>(`[data-message-id="${messageId}"]`);
  return row ? row.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop : null;
}

/**
 * The messages a view's first frame draws: about a screenful, eight before its anchor where
 * there are, the rest after it (or before, at the newest), so a view at its first or newest
 * message draws as many as any other. The rest follow in the next task.
 */
const FIRST_FRAME_ROWS = 17;
const FIRST_FRAME_BEFORE = 8;

/** How long a view just opened waits before fetching beyond what it shows (scrolling fetches at once). */
const EDGE_FETCH_SETTLE_MS = 400;

/**
 * Fetches more messages at an edge the reader is within a screenful (at least 300 pixels) of:
 * a view opens with only 15 messages each side of its anchor, and a reader paging through it
 * should find the next ones already there.
 */
function fetchNearEdges(el: HTMLElement): void {
  const near = Math.max(300, el.clientHeight);
  if (el.scrollTop < near) void loadMore(-1);
  if (el.scrollHeight - el.scrollTop - el.clientHeight < near) void loadMore(1);
}

/** Messages arriving in the open view, told to screen readers (a component of its own, so the list is not redrawn). */
function Arrivals() {
  return (
    <p class="visually-hidden" role="status" aria-live="polite">
      {arrivals.value}
    </p>
  );
}

/** The message feed: recipient bars, sender groups, fetching more at the edges, marking read what is seen. */
export function MessageList() {
  const current = feed.value;
  const self = session.value?.user_id ?? 0;
  const echoes = current.foundNewest ? localEchoes.value.filter((m) => matchesNarrow(m, current.terms, self) !== false) : [];
  const all = [...current.messages, ...echoes];
  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const place = useRef<{ opened: number; first: number | undefined; firstOffset: number; height: number; top: number; partial: boolean; foundNewest: boolean }>({
    opened: -1,
    first: undefined,
    firstOffset: 0,
    height: 0,
    top: 0,
    partial: false,
    foundNewest: false,
  });

  // A view's first frame draws the messages around its anchor, about a screenful; the rest
  // (older ones above, kept in place) are drawn in the next task, so the view shows sooner.
  const [drawnWhole, setDrawnWhole] = useState(-1);
  const anchorIndex = current.anchorId === null ? -1 : all.findIndex((m) => m.id === current.anchorId);
  const partial = !current.loading && current.opened !== drawnWhole && anchorIndex >= 0;
  const firstFrameStart = Math.max(0, Math.min(anchorIndex - FIRST_FRAME_BEFORE, all.length - FIRST_FRAME_ROWS));
  const messages = partial ? all.slice(firstFrameStart, firstFrameStart + FIRST_FRAME_ROWS) : all;
  const drawnFromStart = messages[0] === all[0];
  useEffect(() => {
    if (!partial) return;
    const opened = current.opened;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setDrawnWhole(opened))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [partial, current.opened]);

  // Seen messages are marked read: those in view while the page is visible.
  const observer = useRef<IntersectionObserver | null>(null);
  const visible = useRef(new Set<number>());
  useEffect(() => {
    const markVisible = () => {
      if (document.visibilityState !== 'visible') return;
      for (const id of visible.current) markSeen(id);
    };
    observer.current = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = Number((entry.target as HTMLElement).dataset.messageId);
          if (entry.isIntersecting) visible.current.add(id);
          else visible.current.delete(id);
        }
        markVisible();
      },
      { root: scroller.current, threshold: 0.5 },
    );
    document.addEventListener('visibilitychange', markVisible);
    window.addEventListener('focus', markVisible);
    // Where the reader is, for showing this view again later at the same place.
    setReadPosition(() => {
      const el = scroller.current;
      if (!el) return null;
      const box = el.getBoundingClientRect();
      const margin = box.height / 2;
      let first: number | undefined;
      let last: number | undefined;
      for (const row of el.querySelectorAll<HTMLElement>('[data-message-id]')) {
        const rect = row.getBoundingClientRect();
        if (rect.bottom < box.top - margin || rect.top > box.bottom + margin) continue;
        const id = Number(row.dataset.messageId);
        first ??= id;
        last = id;
      }
      if (first === undefined || last === undefined) return null;
      if (stickToBottom.current) return { anchorId: null, first, last };
      const middle = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)?.closest<HTMLElement>('[data-message-id]');
      return { anchorId: middle ? Number(middle.dataset.messageId) : null, first, last };
    });
    return () => {
      observer.current?.disconnect();
      setReadPosition(() => null);
      document.removeEventListener('visibilitychange', markVisible);
      window.removeEventListener('focus', markVisible);
    };
  }, []);

  // Keeps the reader's place: at the bottom when new messages come, still when older ones are added above.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const prev = place.current;
    const first = messages[0]?.id;
    if (!current.loading && prev.opened !== current.opened) {
      // A view just opened: its anchor (the first unread message, the newest, or where the reader left it) in sight.
      const anchor = current.anchorId === null ? null : el.querySelector<HTMLElement>(`[data-message-id="${current.anchorId}"]`);
      if (anchor && current.anchorId !== current.messages.at(-1)?.id) anchor.scrollIntoView({ block: 'center' });
      else el.scrollTop = el.scrollHeight;
      // Too few drawn to fill the screen: the rest now, before the frame is painted.
      if (partial && el.scrollHeight <= el.clientHeight) setDrawnWhole(current.opened);
    } else if (prev.first !== undefined && first !== undefined && first < prev.first) {
      // Older messages came in above: the row that was first stays where it was on the screen.
      // (Rows may have come in below at once, the rest of a view's first frame, so the growth of
      // the whole is no measure of what came above.)
      const offset = rowOffset(el, prev.first);
      el.scrollTop = prev.top + (offset === null ? el.scrollHeight - prev.height : offset - prev.firstOffset);
    } else if (stickToBottom.current && !prev.partial && prev.foundNewest) {
      // At the newest messages, what arrives keeps the reader at the bottom; a batch of newer
      // messages fetched at the window's edge is read from where the reader is.
      el.scrollTop = el.scrollHeight;
    }
    // Whether the reader is at the bottom now: messages added below without a scroll (a batch
    // at the window's edge, the rest of a view after its first frame) may have moved it away.
    stickToBottom.current = atScrollEnd(el);
    const firstOffset = first === undefined ? 0 : (rowOffset(el, first) ?? 0);
    place.current = { opened: current.loading ? prev.opened : current.opened, first, firstOffset, height: el.scrollHeight, top: el.scrollTop, partial, foundNewest: current.foundNewest };
  });

  // The feed gets shorter when the compose box opens (or the window does): a reader at the
  // newest messages stays there, and otherwise the selected message stays in sight, as the
  // message replied to does in Zulip.
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let height = el.clientHeight;
    const resized = new ResizeObserver(() => {
      const shrunk = el.clientHeight < height;
      height = el.clientHeight;
      if (!shrunk) return;
      if (stickToBottom.current) el.scrollTop = el.scrollHeight;
      else el.querySelector(`[data-message-id="${selectedId.value}"]`)?.scrollIntoView({ block: 'nearest' });
    });
    resized.observe(el);
    return () => resized.disconnect();
  }, []);

  // A view shorter than the screen never scrolls, so its edges are fetched from here as well,
  // after the frame is painted, until the screen is full or the edge is reached. Right after a
  // view opens this waits a moment: drawing a batch beyond the screen would hold up the next
  // switch of someone passing through, and a view left at once needs none.
  const openedAt = useRef({ opened: -1, at: 0 });
  useEffect(() => {
    const el = scroller.current;
    if (!el || current.loading || current.messages.length === 0) return;
    if (openedAt.current.opened !== current.opened) openedAt.current = { opened: current.opened, at: performance.now() };
    const wait = openedAt.current.at + EDGE_FETCH_SETTLE_MS - performance.now();
    if (wait <= 0) {
      fetchNearEdges(el);
      return;
    }
    const opened = current.opened;
    const timer = setTimeout(() => {
      if (feed.value.opened === opened) fetchNearEdges(el);
    }, wait);
    return () => clearTimeout(timer);
  });

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stickToBottom.current = atScrollEnd(el);
    place.current = { ...place.current, height: el.scrollHeight, top: el.scrollTop };
    // The scroll that puts a view just opened at its anchor fetches nothing either: the wait
    // above fetches what is near the edges then (where the reader has scrolled to by then).
    const settling = openedAt.current.opened !== current.opened || performance.now() - openedAt.current.at < EDGE_FETCH_SETTLE_MS;
    if (!settling) fetchNearEdges(el);
  };

  // Each message is an article of the feed, read as sender, time and text; the first of a
  // conversation starts with the conversation's bar, so it is read in its place. A
  // conversation's articles share a group, within which its bar stays at the top while its
  // messages scroll under it, as Zulip's does (the articles draw no box of their own).
  const groups: preact.JSX.Element[] = [];
  let articles: preact.JSX.Element[] = [];
  const closeGroup = () => {
    if (articles.length) groups.push(<div class="recipient-group" key={articles[0].key}>{articles}</div>);
    articles = [];
  };
  let previous: Message | undefined;
  for (const message of messages) {
    const conversation = conversationOf(message, self);
    const newConversation = !previous || conversationOf(previous, self) !== conversation;
    if (newConversation) closeGroup();
    // A new day within a conversation gets a date separator, as in Zulip.
    const newDay = !newConversation && dayOf(previous!.timestamp) !== dayOf(message.timestamp);
    // One sender's messages in a row share one header, however far apart in the day, as in
    // Zulip; a `/me` message names its sender in its own line, and the next message again.
    const newSender = newConversation || newDay || previous!.sender_id !== message.sender_id || Boolean(message.is_me_message || previous!.is_me_message);
    articles.push(
      <article
        key={message.local_id ?? message.id}
        class="message-item"
        aria-label={`${users.value.get(message.sender_id)?.full_name ?? message.sender_full_name}, ${timeOf(message.timestamp)}`}
      >
        {newConversation && <RecipientBar message={message} self={self} />}
        {newDay && (
          <div class="date-separator">
            <DateLabel timestamp={message.timestamp} />
          </div>
        )}
        <MessageRow message={message} showSender={newSender} selected={selectedId.value === message.id} observer={observer.current} />
      </article>,
    );
    previous = message;
  }
  closeGroup();

  return (
    <div class="message-scroller" ref={scroller} onScroll={onScroll} onClick={onContentClick}>
      {current.foundOldest && drawnFromStart && messages.length > 0 && <p class="feed-edge">This is the beginning of the conversation.</p>}
      {!(current.foundOldest && drawnFromStart) && !current.loading && messages.length > 0 && <p class="feed-edge">Loading older messages…</p>}
      {current.loading && <p class="feed-edge">Loading…</p>}
      {current.error && (
        <p class="feed-edge" role="alert">
          {current.error}
        </p>
      )}
      {!current.loading && !current.error && messages.length === 0 && <p class="feed-empty">No messages here yet.</p>}
      <div role="feed" aria-label="Messages" aria-busy={current.loading}>
        {groups}
      </div>
      <ScrollToBottom scroller={scroller} opened={current.opened} />
      <Arrivals />
      <ImageViewer />
    </div>
  );
}

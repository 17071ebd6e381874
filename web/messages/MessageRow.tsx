import { avatarUrlOf } from '../people/avatar-url';
import { Component } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { del, get, patch, post } from '../api';
import { dropEcho, openCompose, sendMessage } from '../compose/state';
import { EmojiGlyph, plainTextEmoji, type EmojiChoice } from '../emoji/emoji';
import { feed, keepUnread, selectedId } from './feed';
import { actionsMenuId, editingId, editingToMove, markUnreadFromHere, messageDialog, canEditContent, forwardMessage, openEditor, reactionPickerId, quoteAndReply, replyToAuthor, toggleCollapse } from './actions';
import { PopupMenu, type MenuItem } from '../ui/PopupMenu';
import { withKey } from '../ui/keys';
import { channelName, dmKeyOf, realm, session, userName, users } from '../state';
import type { Message, Reaction } from '../types';
import { Icon } from '../ui/icons';
import { realmSettings } from '../channels/state';
import { EmojiPicker } from '../emoji/EmojiPicker';
import { Avatar } from '../people/Avatar';
import { mutedUsers, revealedMessages, revealMessage, showUserCard } from '../people/state';
import { StatusLine } from '../people/StatusLine';
import { reportError } from '../ui/Toasts';
import { hasWidget, WidgetSlot } from '../widgets/WidgetSlot';
import { useCondensed } from './condense';
import { copyMessageLink, internalHash } from './links';
import { fullTimeOf, timeOf, twentyFourHourTime, writtenTimeOf } from './time';
import { alertWords, highlightAlertWords } from './alertWords';

/**
 * What the server's Markdown renderer made, made ready to read: Unicode emoji drawn from their
 * code points, times in the reader's zone, links to other sites in a new tab, the reader's own
 * mentions marked. Only the server's HTML is ever put into the page.
 */
export function enhanceRenderedContent(root: HTMLElement, self: number): void {
  for (const span of root.querySelectorAll<HTMLElement>('span.emoji')) {
    const code = /\bemoji-([0-9a-f-]+)\b/.exec(span.className)?.[1];
    if (!code) continue;
    // The server writes the emoji's :name:, kept to show again when the person prefers text.
    span.dataset.text ??= span.textContent ?? '';
    if (plainTextEmoji.value) {
      span.textContent = span.dataset.text;
      continue;
    }
    try {
      span.textContent = String.fromCodePoint(...code.split('-').map((part) => parseInt(part, 16)));
    } catch {
      // Not code points after all: the :name: text stays.
    }
  }
  for (const time of root.querySelectorAll<HTMLTimeElement>('time[datetime]')) {
    const date = new Date(time.dateTime);
    if (!Number.isNaN(date.getTime())) time.textContent = writtenTimeOf(date);
  }
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a[href]')) {
    // Links into the organization stay in the page (the feed follows them); others open a tab.
    if (internalHash(link.getAttribute('href') ?? '') !== undefined) continue;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
  }
  for (const mention of root.querySelectorAll<HTMLElement>('.user-mention[data-user-id]')) {
    const id = mention.dataset.userId;
    if (id === String(self) || id === '*') mention.classList.add('user-mention-me');
    // A mention of one person opens their card, from the pointer or the keyboard.
    if (id && /^\d+$/.test(id)) {
      mention.tabIndex = 0;
      mention.setAttribute('role', 'button');
    }
  }
  // A message of one paragraph holding only emoji shows them enlarged, as Zulip 12 recommends (feature level 436).
  const paragraph = root.childElementCount === 1 && root.firstElementChild?.tagName === 'P' ? root.firstElementChild : null;
  const onlyEmoji =
    paragraph !== null &&
    paragraph.querySelector('.emoji') !== null &&
    [...paragraph.childNodes].every((node) =>
      node instanceof Element ? node.classList.contains('emoji') || node.tagName === 'BR' : (node.textContent ?? '').trim() === '',
    );
  root.classList.toggle('emoji-only', onlyEmoji);
}

/** A click (or Enter) on a mention of one person opens their card; true when it did. */
function onContentClick(e: Event): boolean {
  const mention = (e.target as Element | null)?.closest?.<HTMLElement>('.user-mention[data-user-id]');
  const id = mention?.dataset.userId;
  if (!mention || !id || !/^\d+$/.test(id)) return false;
  e.stopPropagation();
  showUserCard(Number(id), mention);
  return true;
}

interface ReactionGroup {
  reaction: Reaction;
  userIds: number[];
}

function groupReactions(reactions: Reaction[]): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const reaction of reactions) {
    const key = `${reaction.reaction_type}:${reaction.emoji_code}`;
    const group = groups.get(key);
    if (group) group.userIds.push(reaction.user_id);
    else groups.set(key, { reaction, userIds: [reaction.user_id] });
  }
  return [...groups.values()];
}

export async function toggleReaction(message: Message, emoji: { emoji_name: string; emoji_code: string; reaction_type: string }): Promise<void> {
  const self = session.value?.user_id;
  const mine = message.reactions.some((r) => r.user_id === self && r.emoji_code === emoji.emoji_code && r.reaction_type === emoji.reaction_type);
  const params = { emoji_name: emoji.emoji_name, emoji_code: emoji.emoji_code, reaction_type: emoji.reaction_type };
  try {
    if (mine) await del(`/json/messages/${message.id}/reactions`, params);
    else await post(`/json/messages/${message.id}/reactions`, params);
  } catch (err) {
    reportError(err);
  }
}

export async function setFlag(message: Message, flag: 'starred' | 'read' | 'collapsed', on: boolean): Promise<void> {
  try {
    await post('/json/messages/flags', { messages: [message.id], op: on ? 'add' : 'remove', flag });
  } catch (err) {
    reportError(err);
  }
}

/**
 * A `/me` message's text after the command, as inline HTML ("is away" of "/me is away"), shown
 * after the sender's name as Zulip shows it; null for any other message. The server marks such
 * messages (`is_me_message`: one paragraph starting with `/me `).
 */
function meStatus(message: Message): string | null {
  if (!message.is_me_message) return null;
  const html = message.match_content ?? message.content;
  const match = /^<p>\/me (.*)<\/p>$/s.exec(html);
  return match ? match[1] : null;
}

/** Opens the compose box to reply to a message, in its conversation. */
export function replyTo(message: Message): void {
  const self = session.value?.user_id ?? 0;
  if (message.type === 'stream') {
    openCompose({ kind: 'channel', channel: channelName(message.stream_id ?? 0) ?? String(message.display_recipient), topic: message.subject });
  } else {
    const key = dmKeyOf(message, self);
    openCompose({ kind: 'dm', recipients: key === String(self) ? [self] : key.split(',').map(Number) });
  }
}

/**
 * "Edited" or "moved", as Zulip marks a message whose content was edited or that was moved
 * to another topic: beside the sender's name, or in the left column of a message that shows
 * none (where the time appears instead while the pointer is over the row).
 */
function EditNotice({ message }: { message: Message }) {
  const edited = message.last_edit_timestamp;
  const moved = message.last_moved_timestamp;
  if (edited === undefined && moved === undefined) return null;
  // Clicked, it opens the edit history, as Zulip's does (the server says when the
  // organization keeps it from this person).
  return (
    <button
      type="button"
      class="edit-notice"
      title={edited !== undefined ? `Last edited ${fullTimeOf(edited)}` : `Last moved ${fullTimeOf(moved!)}`}
      onClick={(e) => {
        e.stopPropagation();
        messageDialog.value = { kind: 'history', message };
      }}
    >
      {edited !== undefined ? 'edited' : 'moved'}
    </button>
  );
}

/** Edits content in place (own messages), or the topic of a channel message. */
function Editor({ message, onDone }: { message: Message; onDone: () => void }) {
  const [content, setContent] = useState<string | null>(null);
  const [topic, setTopic] = useState(message.subject);
  const [busy, setBusy] = useState(false);
  // The text can be changed only while Zulip's rules allow; a channel message can still be moved.
  const editable = canEditContent(message);
  const form = useRef<HTMLFormElement>(null);
  // The editor takes the focus once its text is in (`e` opens it from the keyboard), and is
  // brought wholly into view, its buttons too: focusing scrolls only as far as the field.
  useLayoutEffect(() => {
    if (editable && content === null) return;
    // Opened to move the message (`m`), the topic comes first.
    const first = editingToMove.value ? ['input', 'textarea'] : ['textarea', 'input'];
    (form.current?.querySelector<HTMLElement>(first[0]) ?? form.current?.querySelector<HTMLElement>(first[1]))?.focus({ preventScroll: true });
    form.current?.scrollIntoView({ block: 'nearest' });
  }, [content === null]);
  useEffect(() => {
    if (!editable) return;
    // The raw Markdown is fetched, since the feed holds the rendered HTML.
    get<{ message: { content: string } }>(`/json/messages/${message.id}`, { apply_markdown: false }).then(
      (answer) => setContent(answer.message.content),
      reportError,
    );
  }, [message.id]);
  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const params: Record<string, unknown> = {};
    if (editable && content !== null) params.content = content;
    if (message.type === 'stream' && topic !== message.subject) {
      params.topic = topic;
      params.propagate_mode = 'change_all';
    }
    try {
      await patch(`/json/messages/${message.id}`, params);
      onDone();
    } catch (err) {
      setBusy(false);
      reportError(err);
    }
  };
  return (
    <form
      ref={form}
      class="message-editor"
      aria-label={editable ? 'Edit message' : 'Move message'}
      onSubmit={save}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onDone();
      }}
    >
      {message.type === 'stream' && (
        <label>
          Topic
          <input value={topic} onInput={(e) => setTopic(e.currentTarget.value)} maxLength={60} />
        </label>
      )}
      {editable && (
        <textarea
          aria-label="Message content"
          value={content ?? ''}
          disabled={content === null}
          rows={Math.min(12, (content ?? '').split('\n').length + 1)}
          onInput={(e) => setContent(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) save(e);
          }}
        />
      )}
      <div class="editor-buttons">
        <button type="submit" class="primary" disabled={busy}>
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

interface RowProps {
  message: Message;
  showSender: boolean;
  selected: boolean;
  observer: IntersectionObserver | null;
}

function MessageRowInner({ message, showSender, selected, observer }: RowProps) {
  const self = session.value?.user_id ?? 0;
  const contentRef = useRef<HTMLDivElement>(null);
  const rowRef = useRef<HTMLDivElement>(null);
  const editing = editingId.value === message.id;
  const setEditing = (on: boolean) => openEditor(on ? message.id : null);
  // The emoji picker opens from the row's button or from the keyboard (`:`), one at a time.
  const picking = reactionPickerId.value === message.id;
  const setPicking = (on: boolean) => (reactionPickerId.value = on ? message.id : null);
  const local = message.local_id !== undefined;
  const mine = message.sender_id === self;
  const starred = message.flags.includes('starred');
  const unreadNow = !message.flags.includes('read');
  const mentioned = message.flags.some((f) => f === 'mentioned' || f.endsWith('wildcard_mentioned'));
  const alerted = !local && message.flags.includes('has_alert_word');
  const sender = users.value.get(message.sender_id);
  // A muted sender's message is hidden, name and picture too, until the person reveals it.
  const hidden = mutedUsers.value.has(message.sender_id) && !revealedMessages.value.has(message.id);
  const revealedMuted = mutedUsers.value.has(message.sender_id) && !hidden;
  // The action buttons are made when first wanted (pointer over the row, focus in it, the row
  // selected, or starred, whose star always shows): a screenful of rows then opens with a
  // fraction of the elements to create.
  const [wantsActions, setWantsActions] = useState(false);
  const showActions = wantsActions || selected || starred;

  useLayoutEffect(() => {
    if (contentRef.current && !local) enhanceRenderedContent(contentRef.current, self);
    if (contentRef.current && alerted) highlightAlertWords(contentRef.current, alertWords.value);
  }, [message.content, message.match_content, twentyFourHourTime.value, plainTextEmoji.value, alerted && alertWords.value]);

  const condensing = useCondensed(contentRef, message.id, editing ? '' : message.content);
  const collapsed = !local && message.flags.includes('collapsed');
  const status = showSender && !local && !editing && !hidden ? meStatus(message) : null;

  useEffect(() => {
    const row = rowRef.current;
    if (!row || !observer || local) return;
    observer.observe(row);
    return () => observer.unobserve(row);
  }, [observer, local]);

  useEffect(() => {
    if (selected) rowRef.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const reactButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const cancelDelete = useRef<HTMLButtonElement>(null);
  // The question takes the focus (on the harmless answer); closing it gives it back.
  useLayoutEffect(() => {
    if (confirmingDelete) cancelDelete.current?.focus();
  }, [confirmingDelete]);
  const closePicker = () => {
    setPicking(false);
    reactButton.current?.focus();
  };
  const keepMessage = () => {
    setConfirmingDelete(false);
    deleteButton.current?.focus();
  };
  const remove = async () => {
    setConfirmingDelete(false);
    try {
      await del(`/json/messages/${message.id}`);
    } catch (err) {
      reportError(err);
    }
  };
  const pick = (emoji: EmojiChoice) => {
    closePicker();
    void toggleReaction(message, { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type });
  };
  const canDelete = mine || realm.value.isAdmin;
  const editable = canEditContent(message);
  const menuOpen = actionsMenuId.value === message.id;
  const menuItems: MenuItem[] = [
    { label: 'Quote and reply', action: () => void quoteAndReply(message) },
    { label: 'Forward message', action: () => void forwardMessage(message) },
    ...(message.sender_id !== self ? [{ label: 'Reply to the author in a direct message', action: () => replyToAuthor(message) }] : []),
    ...(editable || message.type === 'stream' ? [{ label: editable ? 'Edit message' : 'Move message', action: () => setEditing(true) }] : []),
    ...(message.last_edit_timestamp !== undefined || message.last_moved_timestamp !== undefined ? [{ label: 'View edit history', action: () => (messageDialog.value = { kind: 'history', message }) }] : []),
    { label: 'View message source', action: () => (messageDialog.value = { kind: 'source', message }) },
    { label: 'Mark as unread from here', action: () => void markUnreadFromHere(message, feed.value.terms) },
    { label: 'Remind me about this', action: () => (messageDialog.value = { kind: 'remind', message }) },
    ...(revealedMuted ? [{ label: 'Hide muted message again', action: () => revealMessage(message.id, false) }] : []),
    { label: collapsed ? 'Expand message' : 'Collapse message', action: () => (collapsed ? toggleCollapse(message) : void setFlag(message, 'collapsed', true)) },
    ...(realmSettings.value.realm_enable_read_receipts !== false ? [{ label: 'View read receipts', action: () => (messageDialog.value = { kind: 'receipts', message }) }] : []),
    { label: 'Copy link to message', action: () => void copyMessageLink(message) },
  ];
  const openSenderCard = (e: Event) => {
    e.stopPropagation();
    showUserCard(message.sender_id, e.currentTarget as HTMLElement);
  };

  return (
    <div
      ref={rowRef}
      class={`message-row${collapsed && !editing ? ' collapsed' : ''}${showSender ? ' first-of-group' : ''}${selected ? ' selected' : ''}${unreadNow ? ' unread' : ''}${mentioned ? ' mentioned' : ''}${local ? ' local-echo' : ''}`}
      data-message-id={local ? undefined : message.id}
      onClick={() => {
        if (!local) selectedId.value = message.id;
      }}
      onPointerEnter={showActions ? undefined : () => setWantsActions(true)}
      onFocusIn={showActions ? undefined : () => setWantsActions(true)}
      tabIndex={-1}
    >
      <div class="message-gutter">
        {showSender && hidden ? (
          <Avatar url={null} size={36} />
        ) : showSender ? (
          <button type="button" class="avatar-button" tabIndex={-1} aria-label={`User card of ${sender?.full_name ?? message.sender_full_name}`} onClick={openSenderCard}>
            <Avatar url={sender ? avatarUrlOf(sender) : message.avatar_url} size={36} />
          </button>
        ) : (
          <>
            <time class="gutter-time" dateTime={new Date(message.timestamp * 1000).toISOString()} title={fullTimeOf(message.timestamp)}>
              {timeOf(message.timestamp)}
            </time>
            {!editing && !hidden && <EditNotice message={message} />}
          </>
        )}
      </div>
      <div class="message-main">
        {showSender && (
          <div class="message-header">
            {hidden ? (
              <span class="sender-name">Muted user</span>
            ) : (
              <>
                <button type="button" class="sender-name link-button" onClick={openSenderCard}>
                  {sender?.full_name ?? message.sender_full_name}
                </button>
                {status !== null && <div class="me-status rendered_markdown" ref={contentRef} onClick={onContentClick} dangerouslySetInnerHTML={{ __html: status }} />}
                <StatusLine userId={message.sender_id} emojiOnly />
                {!editing && <EditNotice message={message} />}
              </>
            )}
            <time dateTime={new Date(message.timestamp * 1000).toISOString()} title={fullTimeOf(message.timestamp)}>
              {timeOf(message.timestamp)}
            </time>
          </div>
        )}
        {hidden ? (
          <p class="muted-message">
            Hidden, because you muted the sender.{' '}
            <button type="button" class="link-button" onClick={() => revealMessage(message.id, true)}>
              Reveal message
            </button>
          </p>
        ) : editing ? (
          <Editor message={message} onDone={() => setEditing(false)} />
        ) : local ? (
          <div class="message-content rendered_markdown local">
            <p>{message.content}</p>
            {message.failed ? (
              <p class="send-failed" role="alert">
                Not sent.{' '}
                <button
                  type="button"
                  class="link-button"
                  onClick={() => {
                    dropEcho(message.local_id!);
                    const recipients = Array.isArray(message.display_recipient) ? message.display_recipient.map((r) => r.id).filter((id) => id !== self) : [];
                    void sendMessage({
                      open: true,
                      kind: message.type === 'stream' ? 'channel' : 'dm',
                      channel: String(message.display_recipient),
                      topic: message.subject,
                      recipients: recipients.length ? recipients : [self],
                      content: message.content,
                    }).catch(reportError);
                  }}
                >
                  Retry
                </button>{' '}
                <button type="button" class="link-button" onClick={() => dropEcho(message.local_id!)}>
                  Discard
                </button>
              </p>
            ) : (
              <span class="sending">Sending…</span>
            )}
          </div>
        ) : hasWidget(message) ? (
          <WidgetSlot message={message} />
        ) : status !== null ? null : (
          // In search results, the server's copy with the searched words marked.
          <div
            id={`message-content-${message.id}`}
            class={`message-content rendered_markdown${condensing.condensed ? ' condensed' : ''}`}
            ref={contentRef}
            onClick={onContentClick}
            onKeyDown={(e) => {
              if ((e.key === 'Enter' || e.key === ' ') && onContentClick(e)) e.preventDefault();
            }}
            dangerouslySetInnerHTML={{ __html: message.match_content ?? message.content }}
          />
        )}
        {(collapsed || condensing.long) && !editing && !hidden && (
          <button
            type="button"
            class="link-button message-expander"
            aria-expanded={!collapsed && !condensing.condensed}
            aria-controls={`message-content-${message.id}`}
            onClick={() => {
              selectedId.value = message.id;
              if (collapsed) toggleCollapse(message);
              else condensing.toggle();
            }}
          >
            {collapsed || condensing.condensed ? 'Show more' : 'Show less'}
          </button>
        )}
        {message.reactions.length > 0 && (
          <div class="reactions" role="group" aria-label="Reactions">
            {groupReactions(message.reactions).map(({ reaction, userIds }) => {
              const reacted = userIds.includes(self);
              const names = userIds.map((id) => (id === self ? 'You' : mutedUsers.value.has(id) ? 'Muted user' : userName(id))).join(', ');
              return (
                <button
                  type="button"
                  key={`${reaction.reaction_type}:${reaction.emoji_code}`}
                  class={`reaction${reacted ? ' reacted' : ''}`}
                  aria-pressed={reacted}
                  aria-label={`${reaction.emoji_name}: ${userIds.length}, ${names}`}
                  title={`${names} reacted with :${reaction.emoji_name}:`}
                  onClick={(e) => {
                    e.stopPropagation();
                    void toggleReaction(message, reaction);
                  }}
                >
                  <EmojiGlyph emoji={reaction} /> <span class="reaction-count">{userIds.length}</span>
                </button>
              );
            })}
          </div>
        )}
      </div>
      {!local && !editing && (showActions || menuOpen) && (
        <div class="message-actions" role="toolbar" aria-label="Message actions">
          <button ref={reactButton} type="button" aria-label="Add reaction" aria-expanded={picking} title={withKey('Add reaction', ':')} onClick={() => setPicking(!picking)}>
            <Icon name="smile" />
          </button>
          <button type="button" aria-label="Reply" title={withKey('Reply', 'r')} onClick={() => replyTo(message)}>
            <Icon name="reply" />
          </button>
          <button
            type="button"
            aria-label={starred ? 'Unstar' : 'Star'}
            aria-pressed={starred}
            title={withKey(starred ? 'Unstar' : 'Star', 'Ctrl+S')}
            class={starred ? 'starred' : ''}
            onClick={() => setFlag(message, 'starred', !starred)}
          >
            <Icon name="star" filled={starred} />
          </button>
          {/* Kept in place while the message is unread (hidden), so the toolbar does not shift when it is read. */}
          <button
            type="button"
            aria-label="Mark as unread"
            title="Mark as unread"
            style={unreadNow ? { visibility: 'hidden' } : undefined}
            onClick={() => {
              keepUnread(message.id);
              void setFlag(message, 'read', false);
            }}
          >
            <Icon name="unread" />
          </button>
          <button type="button" aria-label="Copy link to message" title="Copy link to message" onClick={() => copyMessageLink(message)}>
            <Icon name="link" />
          </button>
          {(editable || message.type === 'stream') && (
            <button type="button" aria-label={editable ? 'Edit' : 'Move'} title={editable ? withKey('Edit', 'e') : 'Move to another topic'} onClick={() => setEditing(true)}>
              <Icon name="edit" />
            </button>
          )}
          <PopupMenu
            label="More message actions"
            hint={withKey('More message actions', 'i')}
            items={menuItems}
            open={menuOpen}
            onOpenChange={(open) => (actionsMenuId.value = open ? message.id : actionsMenuId.value === message.id ? null : actionsMenuId.value)}
          />
          {canDelete && (
            <button ref={deleteButton} type="button" aria-label="Delete" title="Delete" onClick={() => setConfirmingDelete(true)}>
              <Icon name="trash" />
            </button>
          )}
        </div>
      )}
      {confirmingDelete && (
        <div
          class="confirm-delete"
          role="alertdialog"
          aria-label="Delete this message?"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              keepMessage();
            }
          }}
        >
          Delete this message?{' '}
          <button type="button" class="danger" onClick={remove}>
            Yes, delete
          </button>{' '}
          <button ref={cancelDelete} type="button" onClick={keepMessage}>
            Cancel
          </button>
        </div>
      )}
      {picking && <EmojiPicker onPick={pick} onClose={closePicker} />}
    </div>
  );
}

/**
 * A row drawn again only when its own props change: a new message in the view, or another
 * selected, leaves the other rows alone. (preact/compat's memo would do the same, but importing
 * compat adds a hook on every element of every render, which showed in a channel switch's profile.)
 */
export class MessageRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    const now = this.props;
    return next.message !== now.message || next.showSender !== now.showSender || next.selected !== now.selected || next.observer !== now.observer;
  }
  override render(props: RowProps) {
    return <MessageRowInner {...props} />;
  }
}

import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { post } from '../api';
import {
  closeCompose,
  compose,
  composeFocus,
  composeHere,
  charactersIn,
  composeHereTarget,
  composeProblem,
  emptyTopicAllowed,
  onlyEmptyTopic,
  noteTyping,
  returnFocusFromCompose,
  sendMessage,
  stopTyping,
  topicRules,
  type ComposeField,
  type ComposeState,
} from './state';
import { applyFormat, dropFilesHere, formatShortcut, insertAtCursor, setMessageField, uploadFiles, uploading, writeWidgetMessage, type FormatAction } from './editing';
import { describeTime, scheduleCompose, suggestedTimes } from './scheduled';
import { CustomTimeForm } from './CustomTime';
import { emojiTable, loadEmoji, noteEmojiUsed, searchEmoji, unicodeEmoji, type EmojiChoice } from '../emoji/emoji';
import { EmojiPicker } from '../emoji/EmojiPicker';
import { loadTopics } from '../live';
import { channelByName, realm, session, subscriptions, topics, userGroups, users } from '../state';
import type { User } from '../types';
import { nameOrder } from '../people/state';
import { enhanceRenderedContent } from '../messages/MessageRow';
import { reportError, showNotice } from '../ui/Toasts';
import { Icon } from '../ui/icons';
import { lazyComponent } from '../ui/lazy';
import type { WidgetKind } from './WidgetDialog';

interface Suggestion {
  key: string;
  label: preact.ComponentChildren;
  /** What replaces the typed word. */
  text: string;
  /** The emoji it stands for, remembered as recently used when taken. */
  emoji?: EmojiChoice;
}

/** People whose name or email starts with (or contains) the query. */
export function matchPeople(query: string, limit = 8, exclude: number[] = []): User[] {
  const q = query.toLowerCase();
  const people = [...users.value.values()].filter((u) => u.is_active && !exclude.includes(u.user_id));
  const score = (u: User) => {
    const name = u.full_name.toLowerCase();
    if (name.startsWith(q) || u.email.toLowerCase().startsWith(q)) return 0;
    if (name.split(/\s+/).some((part) => part.startsWith(q))) return 1;
    if (name.includes(q) || u.email.toLowerCase().includes(q)) return 2;
    return 3;
  };
  return people
    .map((u) => ({ u, s: score(u) }))
    .filter((x) => x.s < 3)
    .sort((a, b) => a.s - b.s || nameOrder.compare(a.u.full_name, b.u.full_name))
    .slice(0, limit)
    .map((x) => x.u);
}

/** People, then the organization's groups, whose names match what follows an @. */
function mentionSuggestions(query: string): Suggestion[] {
  const people = matchPeople(query).map((u) => ({ key: `u${u.user_id}`, label: `${u.full_name} (${u.email})`, text: `@**${u.full_name}** ` }));
  const groups = matchNames(
    [...userGroups.value.values()].filter((g) => !g.is_system_group && !g.deactivated).map((g) => g.name),
    query,
    4,
  ).map((name) => ({ key: `g${name}`, label: `${name} (group)`, text: `@*${name}* ` }));
  return [...people, ...groups];
}

/** Suggestions for the word being typed at the cursor: @people, #channels, :emoji. */
function suggestionsFor(text: string, cursor: number): { start: number; items: Suggestion[] } | null {
  const before = text.slice(0, cursor);
  // A channel's topics after `#**channel>`, also right after a channel was picked (`#**channel** >`).
  const topicLink = /#\*\*([^*>\n]+?)(?:\*\* ?)?>([^*\n]*)$/.exec(before);
  if (topicLink) {
    const channel = channelByName(topicLink[1]);
    if (!channel) return null;
    if (!topics.value.has(channel.stream_id)) void loadTopics(channel.stream_id).catch(() => undefined);
    const names = (topics.value.get(channel.stream_id) ?? []).map((t) => t.name);
    return {
      start: topicLink.index,
      items: matchNames(names, topicLink[2]).map((topic) => ({ key: `t${topic}`, label: `#${channel.name} › ${topic}`, text: `#**${channel.name}>${topic}** ` })),
    };
  }
  // A mention goes on past spaces while it still names someone ("@King Ha"), as in Zulip.
  const spaced = /(^|\s)@(\*\*)?([^\s@#:*][^@#:*\n]*\s[^@#:*\n]*)$/.exec(before);
  if (spaced) {
    const people = mentionSuggestions(spaced[3]);
    if (people.length > 0) return { start: cursor - spaced[3].length - (spaced[2]?.length ?? 0) - 1, items: people };
  }
  const match = /(^|\s)([@#:])(\*\*)?([^\s@#:*]*)$/.exec(before);
  if (!match) return null;
  const [, , sigil, , query] = match;
  const start = cursor - query.length - (match[3]?.length ?? 0) - 1;
  if (sigil === '@') return { start, items: mentionSuggestions(query) };
  if (sigil === '#') {
    const q = query.toLowerCase();
    const items = [...subscriptions.value.values()]
      .filter((s) => s.name.toLowerCase().includes(q))
      .sort((a, b) => Number(!a.name.toLowerCase().startsWith(q)) - Number(!b.name.toLowerCase().startsWith(q)) || a.name.localeCompare(b.name))
      .slice(0, 8)
      .map((s) => ({ key: `c${s.stream_id}`, label: `#${s.name}`, text: `#**${s.name}** ` }));
    return { start, items };
  }
  if (query.length < 2) return null;
  void loadEmoji();
  return {
    start,
    items: searchEmoji(query).map((e) => ({
      key: `e${e.type}${e.code}${e.name}`,
      label: (
        <>
          {e.type === 'unicode_emoji' ? unicodeEmoji(e.code) : <img class="emoji-glyph" src={e.url} alt="" />} :{e.name}:
        </>
      ),
      text: `:${e.name}: `,
      emoji: e,
    })),
  };
}

function Typeahead({ items, active, onPick, id, label }: { items: Suggestion[]; active: number; onPick: (item: Suggestion) => void; id: string; label: string }) {
  if (items.length === 0) return null;
  return (
    <ul class="typeahead" role="listbox" id={id} aria-label={label}>
      {items.map((item, index) => (
        <li
          key={item.key}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === active}
          class={index === active ? 'active' : ''}
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(item);
          }}
        >
          {item.label}
        </li>
      ))}
    </ul>
  );
}

/** Names starting with the query first, then names containing it; at most `limit`. */
function matchNames(names: string[], query: string, limit = 8): string[] {
  const q = query.toLowerCase();
  const starts = names.filter((n) => n.toLowerCase().startsWith(q));
  const contains = names.filter((n) => !n.toLowerCase().startsWith(q) && n.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, limit);
}

/** A text field suggesting names (channels, topics) as one types; Enter or Tab takes the highlighted one. */
function SuggestingInput({
  label,
  value,
  names,
  onValue,
  ...input
}: {
  label: string;
  value: string;
  names: string[];
  onValue: (value: string) => void;
  class: string;
  placeholder: string;
  maxLength?: number;
  disabled?: boolean;
}) {
  const [focused, setFocused] = useState(false);
  const [active, setActive] = useState(0);
  const id = `suggest-${label.toLowerCase()}`;
  // Offered once something is typed, as Zulip's typeaheads are.
  const found = focused && value ? matchNames(names, value).filter((n) => n !== value) : [];
  const take = (name: string) => {
    onValue(name);
    setActive(0);
  };
  return (
    <span class="suggesting-input">
      <input
        {...input}
        aria-label={label}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={found.length > 0}
        aria-controls={id}
        aria-activedescendant={found.length ? `${id}-${active}` : undefined}
        value={value}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onInput={(e) => {
          onValue(e.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (found.length === 0) return;
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((active + (e.key === 'ArrowDown' ? 1 : found.length - 1)) % found.length);
          } else if (e.key === 'Enter' || (e.key === 'Tab' && !e.shiftKey)) {
            // Enter stays in the field; Tab takes the name and moves on.
            if (e.key === 'Enter') e.preventDefault();
            take(found[Math.min(active, found.length - 1)]);
          } else if (e.key === 'Escape') {
            e.stopPropagation();
            setFocused(false);
          }
        }}
      />
      <Typeahead id={id} label={`${label} suggestions`} items={found.map((name) => ({ key: name, label: name, text: name }))} active={active} onPick={(item) => take(item.text)} />
    </span>
  );
}

/** Direct-message recipients as removable pills, with a people typeahead. */
function RecipientPicker({ state, update }: { state: ComposeState; update: (change: Partial<ComposeState>) => void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const self = session.value?.user_id ?? 0;
  const found = query ? matchPeople(query, 6, state.recipients) : [];
  const add = (user: User) => {
    update({ recipients: [...state.recipients, user.user_id] });
    setQuery('');
    setActive(0);
  };
  return (
    <div class="recipient-picker">
      {state.recipients.map((id) => (
        <span class="pill" key={id}>
          {users.value.get(id)?.full_name ?? id}
          {id === self ? ' (you)' : ''}
          <button type="button" aria-label={`Remove ${users.value.get(id)?.full_name ?? id}`} onClick={() => update({ recipients: state.recipients.filter((r) => r !== id) })}>
            ×
          </button>
        </span>
      ))}
      <input
        aria-label="Direct message recipients"
        placeholder={state.recipients.length ? 'Add another person' : 'Who to send to'}
        value={query}
        role="combobox"
        aria-expanded={found.length > 0}
        aria-controls="recipient-typeahead"
        aria-activedescendant={found.length ? `recipient-typeahead-${active}` : undefined}
        onInput={(e) => {
          setQuery(e.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setActive(Math.min(active + 1, found.length - 1));
          else if (e.key === 'ArrowUp') setActive(Math.max(active - 1, 0));
          else if ((e.key === 'Enter' || e.key === 'Tab' || e.key === ',') && found[active]) {
            e.preventDefault();
            add(found[active]);
          } else if (e.key === 'Backspace' && !query && state.recipients.length) update({ recipients: state.recipients.slice(0, -1) });
          else return;
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') e.preventDefault();
        }}
      />
      <Typeahead
        id="recipient-typeahead"
        label="People"
        items={found.map((u) => ({ key: String(u.user_id), label: `${u.full_name} (${u.email})`, text: '' }))}
        active={active}
        onPick={(item) => add(users.value.get(Number(item.key))!)}
      />
    </div>
  );
}

const FOCUS_TARGETS: Record<ComposeField, string> = {
  message: 'textarea',
  topic: '.compose-topic',
  channel: '.compose-channel',
  recipients: '.recipient-picker input',
};

/** The formatting buttons under the message, as Zulip's compose box has them. */
const FORMAT_BUTTONS: Array<{ action: FormatAction | WidgetKind; label: string; glyph: preact.ComponentChildren; keys?: string }> = [
  { action: 'bold', label: 'Bold', glyph: 'B', keys: 'B' },
  { action: 'italic', label: 'Italic', glyph: 'I', keys: 'I' },
  { action: 'link', label: 'Link', glyph: <Icon name="link" />, keys: 'Shift+L' },
  { action: 'code', label: 'Code', glyph: '</>' },
  { action: 'quote', label: 'Quote', glyph: '❝' },
  { action: 'spoiler', label: 'Spoiler', glyph: '▸' },
  { action: 'math', label: 'Math (LaTeX)', glyph: '∑' },
  { action: 'mention', label: 'Mention someone', glyph: '@' },
  { action: 'poll', label: 'Add a poll', glyph: <Icon name="poll" /> },
  { action: 'todo', label: 'Add a to-do list', glyph: <Icon name="todo" /> },
];

const LazyWidgetDialog = lazyComponent(() => import('./WidgetDialog').then((m) => m.WidgetDialog));
const LazySavedSnippets = lazyComponent(() => import('./SavedSnippets').then((m) => m.SavedSnippetsPanel));

const IS_MAC = /Mac|iPhone|iPad/.test(navigator.platform);

/** Closes a popup (menu, picker) when the pointer goes down outside `container`. */
function useCloseOnOutsidePress(container: { current: HTMLElement | null }, open: boolean, close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const press = (e: PointerEvent) => {
      if (container.current && !container.current.contains(e.target as Node)) close();
    };
    document.addEventListener('pointerdown', press);
    return () => document.removeEventListener('pointerdown', press);
  }, [open]);
}

/** The send button's menu: Zulip's suggested times to schedule the message, or a time of one's own. */
function ScheduleMenu({ onClose, onSchedule }: { onClose: () => void; onSchedule: (time: Date) => void }) {
  const [custom, setCustom] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const times = suggestedTimes();
  useLayoutEffect(() => {
    menu.current?.querySelector<HTMLElement>('[role="menuitem"], input')?.focus();
  }, [custom]);
  return (
    <div
      ref={menu}
      class="schedule-menu"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onClose();
        } else if (!custom && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
          e.preventDefault();
          const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
          const at = items.indexOf(document.activeElement as HTMLElement);
          items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
        }
      }}
    >
      {custom ? (
        <CustomTimeForm label="Schedule for a time of your choice" onPick={onSchedule} />
      ) : (
        <ul role="menu" class="menu-list" aria-label="Schedule message">
          <li role="none" class="menu-heading" aria-hidden="true">
            Schedule message
          </li>
          {times.map((time) => (
            <li role="none" key={time.getTime()}>
              <button type="button" role="menuitem" onClick={() => onSchedule(time)}>
                {describeTime(time)}
              </button>
            </li>
          ))}
          <li role="none">
            <button type="button" role="menuitem" onClick={() => setCustom(true)}>
              Custom time
            </button>
          </li>
          <li role="none">
            <a role="menuitem" href="#scheduled" onClick={onClose}>
              View scheduled messages
            </a>
          </li>
        </ul>
      )}
    </div>
  );
}

/** The compose box: channel and topic or people, the message, preview, files, Enter to send. */
export function Compose() {
  const state = compose.value;
  const form = useRef<HTMLDivElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [suggest, setSuggest] = useState<{ start: number; items: Suggestion[] } | null>(null);
  const [active, setActive] = useState(0);
  const [dragging, setDragging] = useState(false);
  const [picking, setPicking] = useState(false);
  // The poll or to-do dialog, when open.
  const [widget, setWidget] = useState<WidgetKind | null>(null);
  const widgetButton = useRef<HTMLElement | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const sendGroup = useRef<HTMLSpanElement>(null);
  const emojiSpot = useRef<HTMLSpanElement>(null);
  useCloseOnOutsidePress(sendGroup, scheduling, () => setScheduling(false));
  useCloseOnOutsidePress(emojiSpot, picking, () => setPicking(false));
  const [snippetsOpen, setSnippetsOpen] = useState(false);
  const snippetsSpot = useRef<HTMLSpanElement>(null);
  useCloseOnOutsidePress(snippetsSpot, snippetsOpen, () => setSnippetsOpen(false));
  const fileInput = useRef<HTMLInputElement>(null);
  const filesOverPage = useDropFilesOnPage();
  const update = (change: Partial<ComposeState>) => {
    compose.value = { ...compose.value, ...change };
  };

  useLayoutEffect(() => {
    if (composeFocus.value.count > 0) form.current?.querySelector<HTMLElement>(FOCUS_TARGETS[composeFocus.value.field])?.focus();
  }, [composeFocus.value]);

  useEffect(() => {
    setMessageField(textarea.current);
    return () => setMessageField(null);
  });

  const channel = state.kind === 'channel' ? channelByName(state.channel) : undefined;
  useEffect(() => {
    if (channel && !topics.value.has(channel.stream_id)) void loadTopics(channel.stream_id).catch(() => undefined);
  }, [channel?.stream_id]);

  const refreshSuggestions = () => {
    const el = textarea.current;
    if (!el) return;
    setSuggest(suggestionsFor(el.value, el.selectionStart));
    setActive(0);
  };
  // Topics and emoji arrive after the first keystroke that asked for them.
  useEffect(() => {
    if (suggest && document.activeElement === textarea.current) refreshSuggestions();
  }, [topics.value, emojiTable.value]);

  const previewRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (previewRef.current && preview !== null) enhanceRenderedContent(previewRef.current, session.value?.user_id ?? 0);
  }, [preview]);

  const pickSuggestion = (item: Suggestion) => {
    const el = textarea.current;
    if (!el || !suggest) return;
    const cursor = el.selectionStart;
    const content = el.value.slice(0, suggest.start) + item.text + el.value.slice(cursor);
    update({ content });
    setSuggest(null);
    if (item.emoji) noteEmojiUsed(item.emoji);
    const position = suggest.start + item.text.length;
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(position, position);
    });
  };

  const refuse = (found: { text: string; field: ComposeField }) => {
    reportError(new Error(found.text));
    form.current?.querySelector<HTMLElement>(FOCUS_TARGETS[found.field])?.focus();
  };

  const remaining = realm.value.maxMessageLength - charactersIn(state.content);

  const send = async () => {
    const current = compose.value;
    if (!current.content.trim()) return;
    const found = composeProblem(current);
    if (found) return refuse(found);
    stopTyping();
    update({ content: '', draftId: undefined, scheduledId: undefined });
    setPreview(null);
    try {
      await sendMessage(current);
    } catch (err) {
      reportError(err);
    }
  };

  const schedule = async (time: Date) => {
    setScheduling(false);
    const current = compose.value;
    const found = composeProblem(current);
    if (found) return refuse(found);
    try {
      await scheduleCompose(time);
      setPreview(null);
      showNotice(`Your message is scheduled for ${describeTime(time)}.`);
      returnFocusFromCompose();
    } catch (err) {
      reportError(err);
    }
  };

  const togglePreview = async () => {
    if (preview !== null) {
      setPreview(null);
      // Back to writing, where one was writing.
      requestAnimationFrame(() => textarea.current?.focus());
      return;
    }
    try {
      const answer = await post<{ rendered: string }>('/json/messages/render', { content: compose.value.content || ' ' });
      setPreview(answer.rendered);
    } catch (err) {
      reportError(err);
    }
  };
  // Alt+P shows the preview or goes back to writing, wherever the focus is (the text box is gone while previewing), as in Zulip.
  const latestToggle = useRef(togglePreview);
  latestToggle.current = togglePreview;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.code !== 'KeyP' || !compose.value.open) return;
      if (document.querySelector('dialog[open]')) return;
      e.preventDefault();
      void latestToggle.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const channelTopics = channel ? (topics.value.get(channel.stream_id) ?? []) : [];
  const onKeyDown = (e: KeyboardEvent) => {
    if (suggest && suggest.items.length) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((active + (e.key === 'ArrowDown' ? 1 : suggest.items.length - 1)) % suggest.items.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        pickSuggestion(suggest.items[active]);
        return;
      }
      if (e.key === 'Escape') {
        e.stopPropagation();
        setSuggest(null);
        return;
      }
    }
    if (formatShortcut(e)) return;
    // Ctrl+' (Cmd on macOS): the saved snippets, as in Zulip.
    if (e.key === "'" && (IS_MAC ? e.metaKey : e.ctrlKey) && !e.altKey && !e.shiftKey) {
      e.preventDefault();
      setSnippetsOpen(true);
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send();
    } else if (e.key === 'Escape') {
      textarea.current?.blur();
      returnFocusFromCompose();
    }
  };

  const dropHint = filesOverPage && !dragging && (
    <div class="drop-overlay" aria-hidden="true">
      Drop files to attach them to a message here
    </div>
  );
  if (!state.open) {
    const target = composeHereTarget();
    return (
      <div class="compose-closed">
        {dropHint}
        <button type="button" class="compose-open-button" onClick={() => composeHere('channel')}>
          {target ? (
            <>
              <span class="compose-lead">New message to</span> <span class="compose-target">{target}</span>
            </>
          ) : (
            'New message'
          )}{' '}
          <kbd>c</kbd>
        </button>
        <button type="button" onClick={() => composeHere('dm')}>
          New direct message <kbd>x</kbd>
        </button>
      </div>
    );
  }

  const emptyTopicName = topicRules.value.emptyTopicName;
  const generalChat = state.kind === 'channel' && emptyTopicAllowed(channel);
  const topicless = state.kind === 'channel' && onlyEmptyTopic(channel);
  const editingScheduled = state.scheduledId !== undefined;
  return (
    <div
      ref={form}
      role="form"
      class={`compose${dragging ? ' dragging' : ''}`}
      aria-label="Compose"
      onKeyDown={(e) => {
        // Escape in the recipient fields gives the focus back as it does in the message.
        if (e.key === 'Escape' && e.target !== textarea.current && !e.defaultPrevented) returnFocusFromCompose();
      }}
      onDragOver={(e) => {
        if (e.dataTransfer?.types.includes('Files')) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        setDragging(false);
        if (e.dataTransfer?.files.length) {
          // Prevented, so the page's drop handler knows these files are taken.
          e.preventDefault();
          void uploadFiles(e.dataTransfer.files);
        }
      }}
    >
      {dropHint}
      <div class="compose-recipient">
        <select aria-label="Message type" value={state.kind} onChange={(e) => update({ kind: e.currentTarget.value as 'channel' | 'dm' })}>
          <option value="channel">Channel</option>
          <option value="dm">Direct</option>
        </select>
        {state.kind === 'channel' ? (
          <>
            <SuggestingInput
              class="compose-channel"
              label="Channel"
              placeholder="Channel"
              value={state.channel}
              names={[...subscriptions.value.values()].map((s) => s.name)}
              onValue={(channel) => update({ channel })}
            />
            <span class="compose-separator" aria-hidden="true">›</span>
            <SuggestingInput
              class={`compose-topic${generalChat ? ' general-chat' : ''}`}
              label="Topic"
              // Where the empty topic is allowed, a message without a topic goes to it, as Zulip shows.
              placeholder={generalChat ? emptyTopicName : 'Topic'}
              maxLength={60}
              // A channel of the empty topic only takes no topic.
              disabled={topicless}
              value={topicless ? '' : state.topic}
              names={channelTopics.map((t) => t.name)}
              onValue={(topic) => update({ topic })}
            />
          </>
        ) : (
          <RecipientPicker state={state} update={update} />
        )}
      </div>
      {editingScheduled && <p class="compose-note">Editing a scheduled message: schedule it again to change it, or send it now.</p>}
      {preview !== null ? (
        <div ref={previewRef} class="compose-preview rendered_markdown" role="region" aria-label="Preview" dangerouslySetInnerHTML={{ __html: preview }} />
      ) : (
        <div class="compose-text">
          <textarea
            ref={textarea}
            aria-label="Message"
            placeholder={
              state.kind === 'channel'
                ? `Message #${state.channel || '…'}${state.channel ? ` > ${(!topicless && state.topic) || (generalChat ? emptyTopicName : '…')}` : ''}`
                : 'Direct message'
            }
            value={state.content}
            rows={3}
            aria-autocomplete="list"
            aria-controls={suggest?.items.length ? 'compose-typeahead' : undefined}
            onInput={(e) => {
              update({ content: e.currentTarget.value });
              refreshSuggestions();
              noteTyping(compose.value);
            }}
            onKeyDown={onKeyDown}
            onClick={refreshSuggestions}
            onBlur={() => setTimeout(() => setSuggest(null), 150)}
            onPaste={(e) => {
              const files = [...(e.clipboardData?.files ?? [])];
              if (files.length) {
                e.preventDefault();
                void uploadFiles(files);
              }
            }}
          />
          {suggest && <Typeahead id="compose-typeahead" label="Suggestions" items={suggest.items} active={active} onPick={pickSuggestion} />}
        </div>
      )}
      <div class="compose-buttons">
        <div class="format-buttons" role="toolbar" aria-label="Formatting">
          <button type="button" onClick={() => fileInput.current?.click()} aria-label="Attach files" title="Attach files">
            <Icon name="paperclip" />
          </button>
          {FORMAT_BUTTONS.map((b) => {
            const action = b.action;
            // A poll or to-do list is a message of its own, made in its dialog: only from an empty message, as in Zulip.
            const isWidget = action === 'poll' || action === 'todo';
            const blocked = isWidget && state.content.trim() !== '';
            const name = b.keys ? `${b.label} (${IS_MAC ? '⌘' : 'Ctrl+'}${b.keys})` : blocked ? `${b.label} (only in an empty message)` : b.label;
            return (
              <button
                type="button"
                key={action}
                class={`format-${action}`}
                aria-label={b.label}
                aria-disabled={blocked || undefined}
                title={name}
                disabled={preview !== null}
                // The selection stays in the message while the button is pressed.
                onMouseDown={(e) => e.preventDefault()}
                onClick={(e) => {
                  if (!isWidget) applyFormat(action);
                  else if (!blocked) {
                    widgetButton.current = e.currentTarget;
                    setWidget(action);
                  }
                }}
              >
                {b.glyph}
              </button>
            );
          })}
          <span class="compose-emoji" ref={emojiSpot}>
            <button type="button" aria-label="Add emoji" title="Add emoji" aria-expanded={picking} disabled={preview !== null} onClick={() => setPicking(!picking)}>
              <Icon name="smile" />
            </button>
            {picking && (
              <EmojiPicker
                onPick={(emoji) => {
                  setPicking(false);
                  insertAtCursor(`:${emoji.name}:`);
                }}
                onClose={() => {
                  setPicking(false);
                  textarea.current?.focus();
                }}
              />
            )}
          </span>
          <span class="compose-snippets" ref={snippetsSpot}>
            <button type="button" aria-label="Saved snippets" title={`Saved snippets (${IS_MAC ? '⌘' : 'Ctrl+'}')`} aria-expanded={snippetsOpen} disabled={preview !== null} onClick={() => setSnippetsOpen(!snippetsOpen)}>
              <Icon name="snippet" />
            </button>
            {snippetsOpen && (
              <LazySavedSnippets
                messageText={state.content}
                onInsert={(content) => {
                  setSnippetsOpen(false);
                  textarea.current?.focus();
                  insertAtCursor(content);
                }}
                onClose={() => {
                  setSnippetsOpen(false);
                  // After the dialog has gone: while it is open the page is inert.
                  requestAnimationFrame(() => textarea.current?.focus());
                }}
              />
            )}
          </span>
        </div>
        {widget && (
          <LazyWidgetDialog
            kind={widget}
            onClose={(message) => {
              setWidget(null);
              // The message is written with the cursor at its end once the dialog has gone (the
              // page is inert while it is open); a cancel gives the focus back to the button.
              requestAnimationFrame(() => (message !== undefined ? writeWidgetMessage(message) : widgetButton.current?.focus()));
            }}
          />
        )}
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          onChange={(e) => {
            const files = e.currentTarget.files;
            if (files?.length) void uploadFiles(files);
            e.currentTarget.value = '';
          }}
        />
        <button type="button" onClick={togglePreview} aria-pressed={preview !== null}>
          {preview !== null ? 'Edit' : 'Preview'}
        </button>
        {uploading.value > 0 && <span class="uploading">Uploading…</span>}
        <span class="compose-hint">Enter to send, Shift+Enter for a new line</span>
        {/* Near the server's limit, what is left (past it, how far over, and Send is off), as in Zulip. */}
        {remaining < realm.value.maxMessageLength * 0.1 && (
          <span class={`compose-limit${remaining < 0 ? ' over' : ''}`} role="status" aria-label={remaining < 0 ? `${-remaining} characters too many` : `${remaining} characters left`}>
            {remaining}
          </span>
        )}
        <span class="send-group" ref={sendGroup}>
          <button type="button" class="primary send-button" onClick={send} disabled={!state.content.trim() || remaining < 0}>
            Send
          </button>
          <button
            type="button"
            class="primary schedule-button"
            aria-label="Schedule message"
            title="Schedule message"
            aria-haspopup="menu"
            aria-expanded={scheduling}
            disabled={!state.content.trim()}
            onClick={() => setScheduling(!scheduling)}
          >
            ▾
          </button>
          {scheduling && (
            <ScheduleMenu
              onClose={() => {
                setScheduling(false);
                sendGroup.current?.querySelector<HTMLElement>('.schedule-button')?.focus();
              }}
              onSchedule={(time) => void schedule(time)}
            />
          )}
        </span>
      </div>
      {/* Last in the page's order, so Tab goes from the topic (or the people) to the message; drawn at the top right. */}
      <button
        type="button"
        class="close-compose"
        aria-label="Close the compose box"
        onClick={() => {
          closeCompose().catch(reportError);
          returnFocusFromCompose();
        }}
      >
        ×
      </button>
    </div>
  );
}

/**
 * Files dragged over the page while a conversation (or the Inbox) is shown: true while they are
 * over it; dropped anywhere but on the compose box itself (which takes them on its own), they go
 * into the compose box, opened for the conversation if it was closed.
 */
function useDropFilesOnPage(): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => Boolean(e.dataTransfer?.types.includes('Files'));
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    // Without this, the browser would open a dropped file in place of the app.
    const overPage = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      depth = 0;
      setOver(false);
      if (e.defaultPrevented || !e.dataTransfer?.files.length) return;
      e.preventDefault();
      dropFilesHere(e.dataTransfer.files);
    };
    document.addEventListener('dragenter', enter);
    document.addEventListener('dragleave', leave);
    document.addEventListener('dragover', overPage);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragenter', enter);
      document.removeEventListener('dragleave', leave);
      document.removeEventListener('dragover', overPage);
      document.removeEventListener('drop', drop);
    };
  }, []);
  return over;
}

import { avatarUrlOf } from '../people/avatar-url';
import { Icon } from '../ui/icons';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { patch, post } from '../api';
import { compose, composeHere } from '../compose/state';
import { feed, feedTerms, selectedId } from '../messages/feed';
import { startEvents, typingKey } from '../live';
import { followHash, goTo, goToNarrow, narrowChannel, narrowDm, view } from './nav';
import { parseHash } from './narrow';
import { chooseTheme } from './notifications';
import { connected, dmKey, isTopicMuted, realm, session, theme, TopicPolicy, topicPolicy, typing, unread, unreadCounts, userName, users, type Theme, type UnreadPlace } from '../state';
import { Avatar } from '../people/Avatar';
import { escapeGoesHome, isHome } from '../views/home';
import { actionsMenuId, editingId, messageDialog } from '../messages/actions';
import { imageViewer } from '../messages/viewer';
import { Drafts } from '../views/Drafts';
import { ScheduledMessages } from '../views/Scheduled';
import { Compose } from '../compose/Compose';
import { Inbox } from '../views/Inbox';
import { MessageList, toggleTopicMute } from '../messages/MessageList';
import { replyTo } from '../messages/MessageRow';
import { navigateOnClick, prefetchOnPress } from '../messages/links';
import { People } from '../people/People';
import { PeopleOverlays } from '../people/Overlays';
import { mutedUsers, openStatusDialog, presenceEnabled } from '../people/state';
import { StatusLine } from '../people/StatusLine';
import { Settings } from '../settings/Settings';
import { focusChannelFilter, Sidebar } from '../sidebar/Sidebar';
import { NarrowHeader } from './NarrowHeader';
import { Toasts, reportError } from '../ui/Toasts';
import { focusSearchBox, SearchBox } from '../search/SearchBox';
import { narrowTitle } from '../search/title';
import { ConfirmDialog } from '../ui/Confirm';
import { menuKey } from '../ui/PopupMenu';
import { cycleChannel, editLastOwnMessage, goToComposeDestination, helpShown, messageKey, toggleStar } from './keyboard';
import { Recent } from '../views/Recent';
import { homeHash } from '../views/home';
import { lazyComponent } from '../ui/lazy';
import { realmSettings, type ChannelTab } from '../channels/state';

// A channel's settings are drawn seldom: their code comes when first opened.
// Dialogs fetched when first opened: the keys' overlay (`?`), a message's source, history or read receipts.
const KeyboardHelp = lazyComponent(() => import('./KeyboardHelp').then((m) => m.KeyboardHelp));
const MessageDialog = lazyComponent(() => import('../messages/MessageDialog').then((m) => m.MessageDialog));
const ChannelBrowser = lazyComponent(() => import('../channels/screens').then((m) => m.ChannelBrowser));
const ChannelSettings = lazyComponent<{ channelId: number; tab: ChannelTab }>(() => import('../channels/screens').then((m) => m.ChannelSettings));

/** What the centre shows, for the page's title and its main landmark. */
function viewTitle(): string {
  const current = view.value;
  if (current.kind === 'narrow') return narrowTitle(feedTerms.value);
  if (current.kind === 'channels' && current.channelId !== undefined) return 'Channel settings';
  return { inbox: 'Inbox', recent: 'Recent conversations', channels: 'Channels', drafts: 'Drafts', scheduled: 'Scheduled messages', settings: 'Settings' }[current.kind];
}

function TypingNotice() {
  const terms = feedTerms.value;
  const self = session.value?.user_id ?? 0;
  const channel = narrowChannel(terms);
  const dm = narrowDm(terms);
  let who: number[] = [];
  if (channel?.topic !== undefined) who = typing.value.get(typingKey('stream', channel.channelId, channel.topic)) ?? [];
  else if (dm) who = typing.value.get(typingKey('dm', dmKey(dm, self))) ?? [];
  // Muted people's typing is not shown, as in Zulip.
  who = who.filter((id) => !mutedUsers.value.has(id));
  return (
    <div class="typing-notice" aria-live="polite">
      {who.length > 0 && `${who.map(userName).join(', ')} ${who.length === 1 ? 'is' : 'are'} typing…`}
    </div>
  );
}

/**
 * The next topic with unread messages (for `n`), other than the open one, or when no topic has
 * any, the next direct conversation, as in Zulip; muted topics are skipped. `p` asks for direct
 * messages only, Shift+N for followed topics only.
 */
function nextUnreadNarrow(kind?: 'dm' | 'followed'): void {
  if (kind === undefined && !goToNextUnread('channel')) goToNextUnread('dm');
  if (kind === 'dm') goToNextUnread('dm');
  if (kind === 'followed') goToNextUnread('channel', true);
}

/** Opens the oldest unread place of one kind other than the open one; false when there is none. */
function goToNextUnread(kind: UnreadPlace['kind'], onlyFollowed = false): boolean {
  const terms = view.value.kind === 'narrow' ? feed.value.terms : [];
  const open = narrowChannel(terms);
  const openDm = narrowDm(terms);
  const self = session.value?.user_id ?? 0;
  const isOpen = (place: UnreadPlace) =>
    place.kind === 'channel'
      ? open?.channelId === place.channelId && open.topic?.toLowerCase() === place.topic.toLowerCase()
      : openDm !== undefined && dmKey(openDm, self) === place.key;
  let first: number | undefined;
  const skipped = (place: UnreadPlace) =>
    place.kind === 'channel' && (onlyFollowed ? topicPolicy(place.channelId, place.topic) !== TopicPolicy.followed : isTopicMuted(place.channelId, place.topic));
  for (const [id, place] of unread.value) if ((first === undefined || id < first) && !isOpen(place) && !skipped(place) && place.kind === kind) first = id;
  if (first === undefined) return false;
  const place = unread.value.get(first)!;
  if (place.kind === 'channel') {
    goToNarrow([
      { operator: 'channel', operand: String(place.channelId) },
      { operator: 'topic', operand: place.topic },
    ]);
  } else goToNarrow([{ operator: 'dm', operand: place.key }]);
  return true;
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return Boolean(el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable));
}

/**
 * Whether something besides the compose box is open that Escape closes first: a side panel at
 * phone width, a message's editor or actions menu, the image viewer. (Menus, pickers and
 * dialogs take their Escape before the page sees it.)
 */
function anythingOpen(): boolean {
  return Boolean(document.querySelector('.app.sidebar-open, .app.people-open')) || editingId.value !== null || actionsMenuId.value !== null || imageViewer.value !== null;
}

function moveSelection(step: number): void {
  const messages = feed.value.messages;
  if (messages.length === 0) return;
  const index = messages.findIndex((m) => m.id === selectedId.value);
  const next = index < 0 ? messages.length - 1 : Math.max(0, Math.min(messages.length - 1, index + step));
  selectedId.value = messages[next].id;
}

/**
 * In a list of conversations (the inbox, recent conversations), moves the focus to the next or
 * previous row's link, as Zulip's arrow keys and j/k do there; Enter then opens it. False where
 * no such list is shown.
 */
function moveRowFocus(step: number): boolean {
  const rows = [...document.querySelectorAll<HTMLElement>('[data-row-link]')];
  if (rows.length === 0) return false;
  const at = rows.indexOf(document.activeElement as HTMLElement);
  const next = at < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, at + step));
  rows[next].focus();
  return true;
}

/** Shift+M on a topic's row of the Inbox or Recent conversations: mutes or unmutes that topic, as in Zulip. */
function toggleFocusedTopicMute(): boolean {
  const row = (document.activeElement as HTMLElement | null)?.closest<HTMLAnchorElement>('a[data-row-link]');
  const target = row ? parseHash(new URL(row.href).hash) : undefined;
  const channel = target?.kind === 'narrow' ? narrowChannel(target.terms) : undefined;
  if (channel?.topic === undefined) return false;
  void toggleTopicMute(channel.channelId, channel.topic);
  return true;
}

/** Whether the key came from the compose box's message field while it is empty (`←` edits then, as in Zulip). */
function inEmptyComposeBox(target: EventTarget | null): boolean {
  const el = target as HTMLTextAreaElement | null;
  return Boolean(el && el.tagName === 'TEXTAREA' && el.closest('.compose') && el.value === '');
}

/** `d` opens the drafts; pressed there, it closes them, back to where one was. */
function toggleDrafts(): void {
  if (view.value.kind !== 'drafts') goTo('#drafts');
  else if (history.length > 1) history.back();
  else goTo(homeHash());
}

interface KeyboardPanels {
  /** Closes the menus and the phone's side panels. */
  closeOverlays: () => void;
  /** Shows the people (their own panel at phone width). */
  openPeople: () => void;
  /** Shows the channels' filter (in their own panel at phone width). */
  openChannelFilter: () => void;
  /** Opens the menu at the top right (settings, theme, log out), its first item focused. */
  openMenu: () => void;
}

function useKeyboard({ closeOverlays, openPeople, openChannelFilter, openMenu }: KeyboardPanels): void {
  useEffect(() => {
    // Esc closes what is open, one thing at a time; with nothing open it leads home, as in
    // Zulip. Ctrl+[ does the same, and leads home even where Esc is set not to.
    const escape = (e: KeyboardEvent, alwaysHome: boolean) => {
      const typing = isTyping(e.target);
      const somethingOpen = typing || compose.value.open || anythingOpen();
      if (typing) (e.target as HTMLElement).blur();
      closeOverlays();
      // An editor answers its own Escape; this one came before the focus reached it (`e` then Esc at once).
      if (!typing && editingId.value !== null) editingId.value = null;
      else if (compose.value.open && !compose.value.content) compose.value = { ...compose.value, open: false };
      if (!somethingOpen && (alwaysHome || escapeGoesHome.value) && !isHome(view.value)) goTo(homeHash());
    };
    const selectedMessage = () => (view.value.kind === 'narrow' ? feed.value.messages.find((m) => m.id === selectedId.value) : undefined);
    const onKey = (e: KeyboardEvent) => {
      // A modal dialog (the shortcuts, a message's source) answers its own keys, including one
      // that closed it: the dialog may be gone by the time the key reaches the page (its
      // handler's re-render runs first), and the page would open it again (`?`, Shift+V).
      if (document.querySelector('dialog[open]') || (e.target as Element | null)?.closest?.('dialog')) return;
      // Zulip's keys with Ctrl (Cmd on macOS), which work while typing too.
      const command = (e.ctrlKey || e.metaKey) && !(e.ctrlKey && e.metaKey) && !e.altKey && !e.shiftKey;
      if (command) {
        const key = e.key.toLowerCase();
        if (key === 'k') focusSearchBox();
        else if (key === 's') {
          const selected = selectedMessage();
          if (!selected) return;
          toggleStar(selected);
        } else if (e.ctrlKey && (e.code === 'BracketLeft' || key === '[')) escape(e, true);
        else if (key === '.') {
          if (!goToComposeDestination()) return;
        } else return;
        e.preventDefault();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'Escape') {
        escape(e, false);
        return;
      }
      const typing = isTyping(e.target);
      if (e.key === 'ArrowLeft' && !e.shiftKey && view.value.kind === 'narrow' && !anythingOpen() && (!typing || inEmptyComposeBox(e.target))) {
        if (editLastOwnMessage()) e.preventDefault();
        return;
      }
      if (typing) return;
      const selected = selectedMessage();
      switch (e.key) {
        case 'c':
          composeHere('channel');
          break;
        case 'x':
          composeHere('dm');
          break;
        case '/':
          focusSearchBox();
          break;
        case 'n':
          nextUnreadNarrow();
          break;
        case 'N':
          nextUnreadNarrow('followed');
          break;
        case 'p':
          nextUnreadNarrow('dm');
          break;
        case 'I':
          goTo('#inbox');
          break;
        case 't':
          goTo('#recent');
          break;
        case 'a':
          goTo('#feed');
          break;
        case '*':
          goToNarrow([{ operator: 'is', operand: 'starred' }]);
          break;
        case 'P':
          goToNarrow([{ operator: 'is', operand: 'dm' }]);
          break;
        case 'd':
          toggleDrafts();
          break;
        case 'w':
          openPeople();
          break;
        case 'q':
          openChannelFilter();
          break;
        case 'g':
          openMenu();
          break;
        case 'A':
        case 'D':
          if (!cycleChannel(e.key === 'A' ? -1 : 1)) return;
          break;
        case 'j':
        case 'ArrowDown':
          if (!moveRowFocus(1)) moveSelection(1);
          break;
        case 'k':
        case 'ArrowUp':
          if (!moveRowFocus(-1)) moveSelection(-1);
          break;
        case 'End':
        case 'G':
          moveSelection(Number.MAX_SAFE_INTEGER);
          break;
        case ' ':
          // Space presses a focused button or link; elsewhere in a message view it pages, Shift+Space back up.
          if (view.value.kind !== 'narrow' || (e.target as HTMLElement | null)?.closest?.('button, a, summary, [role="button"]')) return;
          messageKey(e.shiftKey ? 'PageUp' : 'PageDown', selected);
          break;
        case 'r':
        case 'Enter':
          // Enter on a button or link presses it; it is not a reply.
          if (e.key === 'Enter' && (e.target as HTMLElement | null)?.closest?.('button, a')) return;
          if (selected) replyTo(selected);
          // A message view with nothing to reply to (an empty topic): write to it, as Zulip does.
          else if (view.value.kind === 'narrow' && feed.value.messages.length === 0) composeHere('channel');
          else return;
          break;
        case 'M':
          // In the Inbox and Recent conversations: the focused topic's row.
          if (view.value.kind === 'inbox' || view.value.kind === 'recent') {
            if (!toggleFocusedTopicMute()) return;
          } else if (!messageKey(e.key, selected)) return;
          break;
        default:
          if (!messageKey(e.key, selected)) return;
      }
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

const THEMES: Theme[] = ['auto', 'light', 'dark'];

/** The logged-in app: header with search, left sidebar, the centre view, people on the right. */
export function Shell() {
  const [ready, setReady] = useState(false);
  const [failure, setFailure] = useState('');
  const [menuOpen, setMenuOpen] = useState(false);
  const [sidebarOpen, setSidebarOpen] = useState(false);
  // At phone width the people are a panel of their own, opened from the top bar.
  const [peopleOpen, setPeopleOpen] = useState(false);
  const menuRef = useRef<HTMLUListElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);

  // An opened menu takes the focus, on its first item, as menus do.
  useLayoutEffect(() => {
    if (menuOpen) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [menuOpen]);

  useEffect(() => {
    // The view's messages are asked for as soon as the state is in, before the first render of
    // the app, so the two overlap.
    startEvents(() => {
      followHash();
      setReady(true);
    }).catch((err: unknown) => setFailure((err as Error).message));
  }, []);

  useEffect(() => {
    if (!ready) return;
    // Going anywhere (a card's "Send direct message", say) also closes the phone's panels.
    const onHashChange = () => {
      followHash();
      setPeopleOpen(false);
      setSidebarOpen(false);
    };
    const onClick = (event: MouseEvent) => navigateOnClick(event, onHashChange);
    window.addEventListener('hashchange', onHashChange);
    document.addEventListener('pointerdown', prefetchOnPress, { capture: true, passive: true });
    document.addEventListener('click', onClick);
    return () => {
      window.removeEventListener('hashchange', onHashChange);
      document.removeEventListener('pointerdown', prefetchOnPress, { capture: true });
      document.removeEventListener('click', onClick);
    };
  }, [ready]);

  const unreadTotal = unreadCounts.value.total;
  const title = `${unreadTotal ? `(${unreadTotal}) ` : ''}${viewTitle()} · ${realm.value.name}`;
  useEffect(() => {
    document.title = title;
  }, [title]);

  useKeyboard({
    closeOverlays: () => {
      setMenuOpen(false);
      setSidebarOpen(false);
      setPeopleOpen(false);
    },
    openPeople: () => {
      // At phone width the people are a panel of their own; its filter is there once it is drawn.
      const filter = () => document.querySelector<HTMLInputElement>('.people-filter');
      if (filter()?.checkVisibility()) filter()?.focus();
      else {
        setPeopleOpen(true);
        setSidebarOpen(false);
        requestAnimationFrame(() => filter()?.focus());
      }
    },
    openChannelFilter: () => {
      // At phone width (where the panel has its toggle) the channels are a panel of their own.
      if (document.querySelector('.sidebar-toggle')?.checkVisibility()) {
        setSidebarOpen(true);
        setPeopleOpen(false);
      }
      focusChannelFilter();
    },
    openMenu: () => setMenuOpen(true),
  });

  if (failure) {
    return (
      <main class="center-page">
        <p role="alert">Cannot load Stoa: {failure}</p>
        <button type="button" onClick={() => location.reload()}>
          Try again
        </button>
      </main>
    );
  }
  if (!ready) return <div class="loading-page" aria-busy="true" aria-label="Loading" />;

  const logout = async () => {
    try {
      await post('/accounts/logout');
    } catch (err) {
      reportError(err);
      return;
    }
    location.assign('/login');
  };

  const current = view.value;
  const me = users.value.get(session.value?.user_id ?? 0);
  return (
    <div class={`app${sidebarOpen ? ' sidebar-open' : ''}${peopleOpen ? ' people-open' : ''}`}>
      <header class="top-bar">
        <button type="button" class="sidebar-toggle" aria-label="Show channels" aria-expanded={sidebarOpen} onClick={() => {
            setSidebarOpen(!sidebarOpen);
            setPeopleOpen(false);
          }}>
          <Icon name="menu" size={20} />
        </button>
        <a class="realm-name" href={homeHash()}>
          {/* An uploaded icon shows beside the name; the default one would only repeat it. */}
          {realmSettings.value.realm_icon_source === 'U' && <img class="realm-icon" src={realmSettings.value.realm_icon_url as string} alt="" width={24} height={24} />}
          {realm.value.name}
        </a>
        <SearchBox />
        {!connected.value && (
          <span class="offline" role="status">
            Reconnecting…
          </span>
        )}
        <button
          type="button"
          class="people-toggle"
          aria-label="Show people"
          aria-expanded={peopleOpen}
          onClick={() => {
            setPeopleOpen(!peopleOpen);
            setSidebarOpen(false);
          }}
        >
          <Icon name="people" size={20} />
        </button>
        <div class="menu">
          <button
            ref={menuButtonRef}
            type="button"
            class="menu-button"
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            aria-controls="personal-menu"
            aria-label="Personal menu"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <Avatar class="avatar small" url={avatarUrlOf(me)} size={28} />
          </button>
          {menuOpen && (
            <ul
              id="personal-menu"
              class="menu-list"
              role="menu"
              aria-label="Personal menu"
              ref={menuRef}
              onClick={() => setMenuOpen(false)}
              onKeyDown={(e) => menuKey(e, menuRef.current, () => {
                setMenuOpen(false);
                menuButtonRef.current?.focus();
              })}
            >
              <li role="none" class="menu-who">
                {me?.full_name}
                <br />
                <small>{session.value?.email}</small>
                {me && <StatusLine userId={me.user_id} />}
              </li>
              <li role="none">
                <button type="button" role="menuitem" onClick={() => openStatusDialog(true)}>
                  Set a status
                </button>
              </li>
              <li role="none">
                <button
                  type="button"
                  role="menuitem"
                  onClick={() => patch('/json/settings', { presence_enabled: !presenceEnabled.value }).catch(reportError)}
                >
                  {presenceEnabled.value ? 'Go invisible' : 'Turn off invisible mode'}
                </button>
              </li>
              <li role="none">
                <a role="menuitem" href="#settings/profile">
                  Personal settings
                </a>
              </li>
              {/* Members see these pages too, read-only. */}
              {[
                  ['#organization', 'Organization settings'],
                  ['#organization/default-channels-list', 'Default channels'],
                ].map(([href, label]) => (
                  <li role="none" key={href}>
                    <a role="menuitem" href={href}>
                      {label}
                    </a>
                  </li>
                ))}
              <li role="none">
                <a role="menuitem" href="#channels">
                  Channels
                </a>
              </li>
              <li role="none">
                <button
                  type="button"
                  role="menuitem"
                  onClick={() => {
                    chooseTheme(THEMES[(THEMES.indexOf(theme.value) + 1) % THEMES.length]).catch(reportError);
                  }}
                >
                  Theme: {theme.value === 'auto' ? 'system' : theme.value}
                </button>
              </li>
              <li role="none">
                <button type="button" role="menuitem" onClick={() => (helpShown.value = 'keys')}>
                  Keyboard shortcuts
                </button>
              </li>
              <li role="none">
                <button type="button" role="menuitem" onClick={() => (helpShown.value = 'formatting')}>
                  Message formatting
                </button>
              </li>
              <li role="none">
                <button type="button" role="menuitem" onClick={logout}>
                  Log out
                </button>
              </li>
            </ul>
          )}
        </div>
      </header>
      <Sidebar onNavigate={() => setSidebarOpen(false)} />
      <main class="middle" aria-label={viewTitle()}>
        {current.kind === 'inbox' && <Inbox />}
        {current.kind === 'recent' && <Recent />}
        {current.kind === 'channels' && (current.channelId === undefined ? <ChannelBrowser /> : <ChannelSettings channelId={current.channelId} tab={current.tab ?? 'general'} />)}
        {current.kind === 'drafts' && <Drafts />}
        {current.kind === 'scheduled' && <ScheduledMessages />}
        {current.kind === 'settings' && <Settings section={current.section} />}
        {current.kind === 'narrow' && (
          <>
            <NarrowHeader terms={feedTerms.value} />
            <MessageList />
            <TypingNotice />
          </>
        )}
        {(current.kind === 'narrow' || current.kind === 'inbox' || current.kind === 'recent') && <Compose />}
      </main>
      <People onNavigate={() => setPeopleOpen(false)} />
      <Toasts />
      <ConfirmDialog />
      {helpShown.value && <KeyboardHelp />}
      {messageDialog.value && <MessageDialog />}
      <PeopleOverlays />
    </div>
  );
}


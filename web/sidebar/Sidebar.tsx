import { Icon } from '../ui/icons';
import { signal } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';
import { withKey } from '../ui/keys';
import { feedTerms } from '../messages/feed';
import { textOn } from '../messages/MessageList';
import { loadTopics } from '../live';
import { goTo, goToNarrow, hashNames, narrowChannel, narrowDm, view } from '../app/nav';
import { narrowHash } from '../app/narrow';
import { channelSettingsHash } from '../channels/state';
import { reminders, scheduledMessages } from '../compose/scheduled';
import { channelsInSidebarOrder, drafts, recentDms, session, topics, unreadCounts, userName, dmKey } from '../state';
import { mutedUsers } from '../people/state';
import { PopupMenu } from '../ui/PopupMenu';
import { markAllRead, markChannelRead } from './markRead';
import { TopicList, UnreadCount as Count } from './TopicList';

/**
 * The channels' filter above the sidebar's channels, as Zulip's (`q`, or the magnifier beside
 * "Channels"): shown while it holds text or the focus; a new `focus` count asks it to take the
 * focus.
 */
export const channelFilter = signal({ shown: false, text: '', focus: 0 });

/** `q`: shows the channels' filter and puts the cursor in it. */
export function focusChannelFilter(): void {
  channelFilter.value = { ...channelFilter.value, shown: true, focus: channelFilter.value.focus + 1 };
}

function ChannelFilter() {
  const input = useRef<HTMLInputElement>(null);
  const { text, focus } = channelFilter.value;
  useEffect(() => {
    if (focus > 0) input.current?.focus();
  }, [focus]);
  const hide = () => (channelFilter.value = { ...channelFilter.value, shown: false, text: '' });
  return (
    <input
      ref={input}
      type="search"
      class="channel-filter"
      placeholder="Filter channels"
      aria-label="Filter channels"
      value={text}
      onInput={(e) => (channelFilter.value = { ...channelFilter.value, text: e.currentTarget.value })}
      onBlur={() => {
        if (!channelFilter.value.text) hide();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          hide();
          input.current?.blur();
        } else if (e.key === 'Enter') {
          // The first channel left: opened, as a click would.
          const first = input.current?.closest('nav')?.querySelector<HTMLAnchorElement>('.channels .sidebar-row a');
          if (first) {
            e.preventDefault();
            first.click();
          }
        }
      }}
    />
  );
}

/** The left column: views, channels (with the open channel's topics) and direct messages. */
export function Sidebar({ onNavigate }: { onNavigate: () => void }) {
  const counts = unreadCounts.value;
  const current = view.value;
  const terms = current.kind === 'narrow' ? feedTerms.value : [];
  const open = current.kind === 'narrow' ? narrowChannel(terms) : undefined;
  const openDm = current.kind === 'narrow' ? narrowDm(terms) : undefined;
  const self = session.value?.user_id ?? 0;
  const isView = (operand: string) => terms.length === 1 && terms[0].operator === 'is' && terms[0].operand === operand;
  // "more topics" shows only the open channel, with all its topics; another channel ends it.
  const [zoomed, setZoomed] = useState(false);
  useEffect(() => setZoomed(false), [open?.channelId]);

  useEffect(() => {
    if (open && !topics.value.has(open.channelId)) void loadTopics(open.channelId).catch(() => undefined);
  }, [open?.channelId]);

  const wanted = channelFilter.value.text.trim().toLowerCase();
  const subs = channelsInSidebarOrder().filter((sub) => !wanted || sub.name.toLowerCase().includes(wanted));
  const nav = (action: () => void) => (event: Event) => {
    event.preventDefault();
    action();
    onNavigate();
  };

  return (
    <nav class="left-sidebar" aria-label="Views, channels and direct messages">
      <h2 class="sidebar-heading">
        <span>Views</span>
        <PopupMenu label="Views menu" class="heading-action" items={[{ label: 'Mark all messages as read', action: () => void markAllRead() }]} />
      </h2>
      <ul class="views">
        <li class={current.kind === 'inbox' ? 'active' : ''}>
          <a href="#inbox" onClick={nav(() => goTo('#inbox'))}>
            Inbox <Count n={counts.total} label="messages" />
          </a>
        </li>
        <li class={current.kind === 'recent' ? 'active' : ''}>
          <a href="#recent" onClick={nav(() => goTo('#recent'))}>
            Recent conversations
          </a>
        </li>
        <li class={current.kind === 'narrow' && terms.length === 0 ? 'active' : ''}>
          <a href="#feed" onClick={nav(() => goToNarrow([]))}>
            Combined feed
          </a>
        </li>
        <li class={isView('mentioned') ? 'active' : ''}>
          <a href="#narrow/is/mentioned" onClick={nav(() => goToNarrow([{ operator: 'is', operand: 'mentioned' }]))}>
            Mentions <Count n={counts.mentions} label="mentions" />
          </a>
        </li>
        <li class={isView('starred') ? 'active' : ''}>
          <a href="#narrow/is/starred" onClick={nav(() => goToNarrow([{ operator: 'is', operand: 'starred' }]))}>
            Starred
          </a>
        </li>
        <li class={current.kind === 'drafts' ? 'active' : ''}>
          <a href="#drafts" onClick={nav(() => goTo('#drafts'))}>
            Drafts{' '}
            {drafts.value.size > 0 && (
              <span class="plain-count" aria-label={`${drafts.value.size} ${drafts.value.size === 1 ? 'draft' : 'drafts'}`}>
                {drafts.value.size}
              </span>
            )}
          </a>
        </li>
        {(scheduledMessages.value.size > 0 || reminders.value.size > 0) && (
          <li class={current.kind === 'scheduled' ? 'active' : ''}>
            <a href="#scheduled" onClick={nav(() => goTo('#scheduled'))}>
              Scheduled messages{' '}
              <span class="plain-count" aria-label={`${scheduledMessages.value.size + reminders.value.size} scheduled`}>
                {scheduledMessages.value.size + reminders.value.size}
              </span>
            </a>
          </li>
        )}
      </ul>

      <h2 class="sidebar-heading">
        <span>Channels</span>
        <button type="button" class="heading-action" aria-label="Filter channels" title={withKey('Filter channels', 'q')} aria-expanded={channelFilter.value.shown} onClick={focusChannelFilter}>
          <Icon name="search" size={14} />
        </button>
        <a href="#channels" class="heading-action" aria-label="Browse channels" title="Browse channels" onClick={nav(() => goTo('#channels'))}>
          +
        </a>
      </h2>
      {channelFilter.value.shown && <ChannelFilter />}
      <ul class="channels">
        {subs.map((sub) => {
          const isOpen = open?.channelId === sub.stream_id;
          if (zoomed && !isOpen) return null;
          return (
            <li key={sub.stream_id} class={['sidebar-channel', isOpen && open?.topic === undefined ? 'active' : '', sub.is_muted ? 'muted' : ''].join(' ').trim()}>
              <div class="sidebar-row">
                <a
                  href={narrowHash([{ operator: 'channel', operand: String(sub.stream_id) }], hashNames)}
                  onClick={onNavigate}
                  aria-current={isOpen ? 'page' : undefined}
                >
                  <span class="channel-swatch" style={{ backgroundColor: sub.color, color: textOn(sub.color) }} aria-hidden="true">
                    {sub.invite_only ? <Icon name="lock" size={12} /> : '#'}
                  </span>
                  <span class="name">{sub.name}</span>
                  {sub.is_muted && <span class="visually-hidden"> (muted)</span>}
                  <Count n={counts.channels.get(sub.stream_id)} label={`messages in ${sub.name}`} />
                </a>
                <PopupMenu
                  label={`Channel menu for ${sub.name}`}
                  class="row-menu"
                  items={[
                    { label: 'Mark all messages as read', action: () => void markChannelRead(sub.stream_id) },
                    {
                      label: 'Channel settings',
                      action: () => {
                        goTo(channelSettingsHash(sub.stream_id, sub.name));
                        onNavigate();
                      },
                    },
                  ]}
                />
              </div>
              {isOpen && <TopicList channelId={sub.stream_id} channelName={sub.name} openTopic={open?.topic} zoomed={zoomed} onZoom={setZoomed} onNavigate={onNavigate} />}
            </li>
          );
        })}
        {subs.length === 0 && <li class="empty">{wanted ? 'No channels match.' : 'No channels yet.'}</li>}
      </ul>

      <h2 class="sidebar-heading">
        <a href="#narrow/is/dm" onClick={nav(() => goToNarrow([{ operator: 'is', operand: 'dm' }]))}>
          Direct messages
        </a>
      </h2>
      <ul class="dms">
        {recentDms.value
          // Conversations with muted people only are left out, as in Zulip.
          .filter((c) => !c.userIds.some((id) => id !== self) || c.userIds.some((id) => id !== self && !mutedUsers.value.has(id)))
          .slice(0, 10)
          .map((conversation) => {
          const key = dmKey(conversation.userIds, self);
          const others = conversation.userIds.filter((id) => id !== self);
          const label = others.length === 0 ? `${userName(self)} (you)` : others.map(userName).join(', ');
          const active = openDm !== undefined && dmKey(openDm, self) === key;
          return (
            <li key={key} class={active ? 'active' : ''}>
              <a
                href={narrowHash([{ operator: 'dm', operand: (others.length ? others : [self]).join(',') }], hashNames)}
                onClick={onNavigate}
              >
                <span class="name">{label}</span>
                <Count n={counts.dms.get(key)} label={`messages from ${label}`} />
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

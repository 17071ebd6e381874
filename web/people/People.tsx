import { useEffect, useRef, useState } from 'preact/hooks';
import { goToNarrow } from '../app/nav';
import { presences, session, users } from '../state';
import { mutedUsers, nameOrder, showUserCard, shownPresence } from './state';
import { StatusLine } from './StatusLine';

const ORDER = { active: 0, idle: 1, offline: 2 };

/**
 * People drawn at first, and added each time the list is scrolled to its end: an organization
 * of a thousand would otherwise draw a thousand rows at every change of presence, as Zulip's
 * list avoids too.
 */
const BATCH = 100;

/** The right column: people, with whether they are active now. */
export function People({ onNavigate }: { onNavigate: () => void }) {
  // Presence fades with time, so the list is redrawn every half minute.
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 30_000);
    return () => clearInterval(timer);
  }, []);
  void presences.value;
  const [filter, setFilter] = useState('');
  const [drawn, setDrawn] = useState(BATCH);
  const end = useRef<HTMLLIElement>(null);
  const self = session.value?.user_id;
  const people = [...users.value.values()]
    // Muted people are left out, as in Zulip.
    .filter((u) => u.is_active && !u.is_bot && !mutedUsers.value.has(u.user_id) && u.full_name.toLowerCase().includes(filter.toLowerCase()))
    .map((u) => ({ user: u, presence: shownPresence(u.user_id, self) }))
    .sort((a, b) => ORDER[a.presence] - ORDER[b.presence] || nameOrder.compare(a.user.full_name, b.user.full_name));
  const more = people.length > drawn;
  useEffect(() => {
    if (!more || !end.current) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setDrawn((n) => n + BATCH);
    });
    seen.observe(end.current);
    return () => seen.disconnect();
  }, [more, drawn]);
  return (
    <aside class="right-sidebar" aria-label="People">
      <h2 class="sidebar-heading">People</h2>
      <input type="search" class="people-filter" placeholder="Filter people" aria-label="Filter people" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      <ul class="people">
        {people.slice(0, drawn).map(({ user, presence }) => (
          <li key={user.user_id} class="person">
            <button type="button" class="link-button" onClick={() => {
                goToNarrow([{ operator: 'dm', operand: String(user.user_id) }]);
                onNavigate();
              }} title={`Send a direct message to ${user.full_name}`}>
              <span class={`presence presence-${presence}`} role="img" aria-label={presence} />
              <span class="name">
                {user.full_name}
                {user.user_id === self ? ' (you)' : ''}
              </span>
              <StatusLine userId={user.user_id} emojiOnly />
            </button>
            <button type="button" class="person-card-button" aria-label={`User card of ${user.full_name}`} title="User card" onClick={(e) => showUserCard(user.user_id, e.currentTarget)} />
          </li>
        ))}
        {more && <li ref={end} class="people-more" aria-hidden="true" />}
      </ul>
    </aside>
  );
}

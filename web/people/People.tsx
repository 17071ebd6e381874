import { useEffect, useState } from 'preact/hooks';
import { goToNarrow } from '../app/nav';
import { presences, session, users } from '../state';
import { mutedUsers, showUserCard, shownPresence } from './state';
import { StatusLine } from './StatusLine';

const ORDER = { active: 0, idle: 1, offline: 2 };


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
  const self = session.value?.user_id;
  const people = [...users.value.values()]
    // Muted people are left out, as in Zulip.
    .filter((u) => u.is_active && !u.is_bot && !mutedUsers.value.has(u.user_id) && u.full_name.toLowerCase().includes(filter.toLowerCase()))
    .map((u) => ({ user: u, presence: shownPresence(u.user_id, self) }))
    .sort((a, b) => ORDER[a.presence] - ORDER[b.presence] || a.user.full_name.localeCompare(b.user.full_name));
  return (
    <aside class="right-sidebar" aria-label="People">
      <h2 class="sidebar-heading">People</h2>
      <input type="search" class="people-filter" placeholder="Filter people" aria-label="Filter people" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      <ul class="people">
        {people.map(({ user, presence }) => (
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
      </ul>
    </aside>
  );
}

import { avatarUrlOf } from './avatar-url';
import { useState } from 'preact/hooks';
import { users } from '../state';
import { reportError } from '../ui/Toasts';
import { Avatar } from './Avatar';
import { mutedUsers } from './state';
import { setMuted } from './UserCard';

/** Personal settings' list of muted people, with when each was muted and a button to unmute. */
export function MutedUsers() {
  const [filter, setFilter] = useState('');
  const rows = [...mutedUsers.value]
    .map(([id, timestamp]) => ({ user: users.value.get(id), timestamp }))
    .filter((row) => row.user && row.user.full_name.toLowerCase().includes(filter.toLowerCase()))
    .sort((a, b) => a.user!.full_name.localeCompare(b.user!.full_name));
  return (
    <section class="muted-users" aria-labelledby="muted-users-title">
      <h2 id="muted-users-title">Muted users</h2>
      <p class="settings-hint">Their messages are hidden from you, and they are left out of the people list. They are not told.</p>
      {mutedUsers.value.size > 0 && (
        <input type="search" aria-label="Filter muted users" placeholder="Filter muted users" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      )}
      {mutedUsers.value.size === 0 ? (
        <p class="empty">You have not muted anyone.</p>
      ) : (
        <table class="muted-users-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Muted since</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ user, timestamp }) => (
              <tr key={user!.user_id}>
                <td>
                  <Avatar class="avatar small" url={avatarUrlOf(user!)} size={24} /> {user!.full_name}
                </td>
                <td>{new Date(timestamp * 1000).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })}</td>
                <td>
                  <button type="button" aria-label={`Unmute ${user!.full_name}`} onClick={() => setMuted(user!, false).catch(reportError)}>
                    Unmute
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

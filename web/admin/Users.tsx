import { useState } from 'preact/hooks';
import { del, patch, post } from '../api';
import { realm, session, users } from '../state';
import { reportError } from '../ui/Toasts';

const ROLES: Array<[number, string]> = [
  [100, 'Owner'],
  [200, 'Administrator'],
  [300, 'Moderator'],
  [400, 'Member'],
  [600, 'Guest'],
];

/** The organization's people: each one's role, and deactivating or reactivating them. */
export function Users() {
  // Deactivating is asked first, in the row (no browser dialog).
  const [confirming, setConfirming] = useState<number | null>(null);
  const self = session.value?.user_id;
  const people = [...users.value.values()].filter((u) => !u.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <table class="users-table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Email</th>
          <th scope="col">Role</th>
          <th scope="col">Account</th>
        </tr>
      </thead>
      <tbody>
        {people.map((user) => (
          <tr key={user.user_id}>
            <td>{user.full_name}</td>
            <td>{user.email}</td>
            <td>
              <select
                aria-label={`Role of ${user.full_name}`}
                value={user.role}
                disabled={user.user_id === self || (user.role === 100 && !realm.value.isOwner)}
                onChange={(e) => patch(`/json/users/${user.user_id}`, { role: Number(e.currentTarget.value) }).catch(reportError)}
              >
                {ROLES.filter(([role]) => role !== 100 || realm.value.isOwner).map(([role, label]) => (
                  <option key={role} value={role}>
                    {label}
                  </option>
                ))}
              </select>
            </td>
            <td>
              {user.user_id === self ? (
                'You'
              ) : user.is_active && confirming === user.user_id ? (
                <span role="group" aria-label={`Deactivate ${user.full_name}?`}>
                  <button
                    type="button"
                    class="danger"
                    onClick={() => {
                      setConfirming(null);
                      del(`/json/users/${user.user_id}`).catch(reportError);
                    }}
                  >
                    Yes, deactivate
                  </button>{' '}
                  <button type="button" onClick={() => setConfirming(null)}>
                    Cancel
                  </button>
                </span>
              ) : user.is_active ? (
                <button type="button" aria-label={`Deactivate ${user.full_name}`} onClick={() => setConfirming(user.user_id)}>
                  Deactivate
                </button>
              ) : (
                <button type="button" aria-label={`Reactivate ${user.full_name}`} onClick={() => post(`/json/users/${user.user_id}/reactivate`).catch(reportError)}>
                  Reactivate
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

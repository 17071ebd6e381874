import { avatarUrlOf } from '../people/avatar-url';
import { useState } from 'preact/hooks';
import { del, patch, post } from '../api';
import { Avatar } from '../people/Avatar';
import { assignableRoles } from '../people/details';
import { showUserCard } from '../people/state';
import { presenceOf, presences, realm, session, users } from '../state';
import type { User } from '../types';
import { reportError } from '../ui/Toasts';

const OWNER = 100;
/** Every role by its name; an administrator sees the owner's too, without being able to give it. */
const ROLES = assignableRoles(true);

/** The address administrators see: the real one where the organization shows it to them. */
function emailOf(user: User): string {
  return user.delivery_email || user.email;
}

/** "Active now", "5 minutes ago", "3 days ago", or "Never", from the person's presence. */
function lastActive(user: User, now = Date.now() / 1000): string {
  const presence = presences.value.get(user.user_id);
  if (!presence) return 'Never';
  if (presenceOf(user.user_id, now) === 'active') return 'Active now';
  const seconds = now - Math.max(presence.active, presence.idle);
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  if (seconds < 3600) return format.format(-Math.max(1, Math.round(seconds / 60)), 'minute');
  if (seconds < 86_400) return format.format(-Math.round(seconds / 3600), 'hour');
  return format.format(-Math.round(seconds / 86_400), 'day');
}

function matches(user: User, filter: string): boolean {
  const wanted = filter.trim().toLowerCase();
  return !wanted || user.full_name.toLowerCase().includes(wanted) || emailOf(user).toLowerCase().includes(wanted);
}

/** People (not bots) of the organization, active or not, by name. */
function people(active: boolean): User[] {
  return [...users.value.values()].filter((u) => !u.is_bot && u.is_active === active).sort((a, b) => a.full_name.localeCompare(b.full_name));
}

/** A search box over a list of people, by name or email. */
function PeopleFilter({ label, value, onValue }: { label: string; value: string; onValue: (value: string) => void }) {
  return <input type="search" class="people-filter" aria-label={label} placeholder={label} value={value} onInput={(e) => onValue(e.currentTarget.value)} />;
}

/** The person's name, which opens their card, with their avatar and email below. */
function PersonCell({ user }: { user: User }) {
  return (
    <div class="person-cell">
      <Avatar class="avatar small" url={avatarUrlOf(user)} size={32} />
      <div>
        <button type="button" class="link-button" aria-haspopup="dialog" onClick={(e) => showUserCard(user.user_id, e.currentTarget)}>
          {user.full_name}
        </button>
        <div class="person-email">{emailOf(user)}</div>
      </div>
    </div>
  );
}

/** The organization's active people: filter, role, last activity, email change and deactivation. */
export function Users() {
  const [filter, setFilter] = useState('');
  const shown = people(true).filter((u) => matches(u, filter));
  return (
    <div class="people-admin">
      <PeopleFilter label="Filter users" value={filter} onValue={setFilter} />
      <ul class="people-admin-list" aria-label="Users">
        {shown.map((user) => (
          <UserRow key={user.user_id} user={user} />
        ))}
      </ul>
      {shown.length === 0 && <p class="empty">Nobody matches.</p>}
    </div>
  );
}

function UserRow({ user }: { user: User }) {
  // Deactivating is asked first, in the row (no browser dialog).
  const [confirming, setConfirming] = useState(false);
  const [editingEmail, setEditingEmail] = useState(false);
  const self = user.user_id === session.value?.user_id;
  const byOwner = realm.value.isOwner;
  // Only owners make, unmake or deactivate owners, as in Zulip.
  const ownerOnly = user.role === OWNER && !byOwner;
  return (
    <li class="people-admin-row">
      <PersonCell user={user} />
      <div class="people-admin-controls">
        <select
          class="people-admin-role"
          aria-label={`Role of ${user.full_name}`}
          value={user.role}
          disabled={self || ownerOnly}
          onChange={(e) => patch(`/json/users/${user.user_id}`, { role: Number(e.currentTarget.value) }).catch(reportError)}
        >
          {ROLES.map(([role, label]) => (
            <option key={role} value={role} disabled={role === OWNER && !byOwner}>
              {label}
            </option>
          ))}
        </select>
        <span class="people-admin-active">
          <span class="visually-hidden">Last active: </span>
          {lastActive(user)}
        </span>
        <div class="people-admin-actions">
          {self ? (
            <span>You</span>
          ) : confirming ? (
            <span role="group" aria-label={`Deactivate ${user.full_name}?`}>
              <button
                type="button"
                class="danger"
                onClick={() => {
                  setConfirming(false);
                  del(`/json/users/${user.user_id}`).catch(reportError);
                }}
              >
                Yes, deactivate
              </button>{' '}
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </span>
          ) : (
            <>
              <button type="button" aria-label={`Change email of ${user.full_name}`} onClick={() => setEditingEmail(true)}>
                Change email
              </button>{' '}
              <button type="button" aria-label={`Deactivate ${user.full_name}`} onClick={() => setConfirming(true)} disabled={ownerOnly}>
                Deactivate
              </button>
            </>
          )}
        </div>
      </div>
      {editingEmail && <EmailForm user={user} onDone={() => setEditingEmail(false)} />}
    </li>
  );
}

/**
 * Another person's new address (Zulip's `new_email`, level 313): the server allows it to
 * administrators who hold the special permission to change people's emails, and says so otherwise.
 */
function EmailForm({ user, onDone }: { user: User; onDone: () => void }) {
  const [email, setEmail] = useState(emailOf(user));
  const [error, setError] = useState('');
  return (
    <form
      class="people-admin-email"
      aria-label={`New email for ${user.full_name}`}
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          await patch(`/json/users/${user.user_id}`, { new_email: email.trim() });
          onDone();
        } catch (err) {
          setError((err as Error).message);
        }
      }}
    >
      <label>
        New email
        <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </label>
      {error && <p class="form-error">{error}</p>}
      <div class="button-row">
        <button type="submit" class="primary">
          Save email
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The organization's deactivated people, each with a button to reactivate them. */
export function DeactivatedUsers() {
  const [filter, setFilter] = useState('');
  const all = people(false);
  const shown = all.filter((u) => matches(u, filter));
  if (all.length === 0) return <p class="empty">Nobody has been deactivated.</p>;
  return (
    <div class="people-admin">
      <PeopleFilter label="Filter deactivated users" value={filter} onValue={setFilter} />
      <ul class="people-admin-list" aria-label="Deactivated users">
        {shown.map((user) => (
          <li key={user.user_id} class="people-admin-row">
            <PersonCell user={user} />
            <div class="people-admin-actions">
              <button type="button" aria-label={`Reactivate ${user.full_name}`} onClick={() => post(`/json/users/${user.user_id}/reactivate`).catch(reportError)}>
                Reactivate
              </button>
            </div>
          </li>
        ))}
      </ul>
      {shown.length === 0 && <p class="empty">Nobody matches.</p>}
    </div>
  );
}

import { avatarUrlOf } from './avatar-url';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { del, patch, post } from '../api';
import { goToNarrow } from '../app/nav';
import { realm, session, users } from '../state';
import type { User } from '../types';
import { confirmAction } from '../ui/Confirm';
import { reportError } from '../ui/Toasts';
import { Avatar } from './Avatar';
import { assignableRoles, PersonDetails } from './details';
import { closeUserCard, isMuted, openCard, openStatusDialog, profileFields, showProfile } from './state';
import { StatusLine } from './StatusLine';

/** Below this width the card is a sheet at the bottom of the screen rather than a popover. */
const PHONE_WIDTH = 760;

/** Mutes or unmutes someone (muting asks first, as Zulip does). */
export async function setMuted(user: User, muted: boolean): Promise<void> {
  if (muted && !(await confirmAction(`Mute ${user.full_name}?`, 'Their messages will be hidden from you, and they will not be told.', 'Mute'))) return;
  const path = `/json/users/me/muted_users/${user.user_id}`;
  await (muted ? post(path) : del(path));
}

/** The administrator's part of the card: the person's role, and deactivating them. */
function AdminActions({ user }: { user: User }) {
  const [role, setRole] = useState(user.role);
  const byOwner = realm.value.isOwner;
  // Only owners change an owner's role or deactivate an owner, as in Zulip.
  if (user.is_bot || (user.role === 100 && !byOwner)) return null;
  const deactivate = async () => {
    if (!(await confirmAction(`Deactivate ${user.full_name}?`, 'They will be logged out at once and can no longer log in. An administrator can reactivate them later.', 'Deactivate'))) return;
    try {
      await del(`/json/users/${user.user_id}`);
      closeUserCard();
    } catch (err) {
      reportError(err);
    }
  };
  return (
    <div class="user-card-admin">
      <form
        class="user-card-role"
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            await patch(`/json/users/${user.user_id}`, { role });
          } catch (err) {
            reportError(err);
          }
        }}
      >
        <label>
          Change role
          <select value={role} onChange={(e) => setRole(Number(e.currentTarget.value))}>
            {assignableRoles(byOwner).map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={role === user.role}>
          Save role
        </button>
      </form>
      {user.user_id !== session.value?.user_id && user.is_active && (
        <button type="button" class="danger" onClick={deactivate}>
          Deactivate user
        </button>
      )}
    </div>
  );
}

/**
 * A person's card, opened from their name or picture on a message, a mention or the people
 * list: who they are, their status and local time, and what can be done with them. A popover
 * beside what opened it at desktop width, a sheet at the bottom on phones; Escape or a click
 * outside closes it and the focus returns to what opened it.
 */
export function UserCard() {
  const card = openCard.value;
  const dialog = useRef<HTMLDialogElement>(null);
  const [phone] = useState(() => window.innerWidth <= PHONE_WIDTH);
  const user = card ? users.value.get(card.userId) : undefined;

  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element || !card) return;
    if (!element.open) element.showModal();
    if (phone) return;
    // Beside the element it was opened from, kept inside the window.
    const from = card.anchor?.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    const left = from ? (from.right + 8 + box.width < window.innerWidth ? from.right + 8 : Math.max(8, from.left - box.width - 8)) : (window.innerWidth - box.width) / 2;
    const top = from ? Math.min(Math.max(8, from.top), window.innerHeight - box.height - 8) : (window.innerHeight - box.height) / 2;
    element.style.left = `${Math.round(left)}px`;
    element.style.top = `${Math.round(Math.max(8, top))}px`;
  }, [card?.userId, card?.anchor]);

  if (!card || !user) return null;
  const self = user.user_id === session.value?.user_id;
  const muted = isMuted(user.user_id);
  const go = (action: () => void) => () => {
    openCard.value = null;
    action();
  };
  return (
    <dialog
      ref={dialog}
      class={`user-card${phone ? ' user-card-sheet' : ''}`}
      aria-labelledby="user-card-name"
      onCancel={(e) => {
        e.preventDefault();
        closeUserCard();
      }}
      // A click on the backdrop (the dialog itself, outside its content) closes it.
      onClick={(e) => {
        if (e.target === dialog.current) closeUserCard();
      }}
    >
      <div class="user-card-body">
        <button type="button" class="user-card-close" aria-label="Close" onClick={closeUserCard}>
          ×
        </button>
        <Avatar class="avatar user-card-avatar" url={avatarUrlOf(user)} size={phone ? 72 : 96} alt="" />
        <h2 id="user-card-name">
          {user.full_name}
          {self && <span class="user-card-you"> (you)</span>}
        </h2>
        <StatusLine userId={user.user_id} />
        <PersonDetails user={user} fields={profileFields.value} full={false} />
        <ul class="user-card-actions">
          <li>
            <button type="button" class="link-button" onClick={() => showProfile(user.user_id)}>
              View full profile
            </button>
          </li>
          {self ? (
            <li>
              <button type="button" class="link-button" onClick={go(() => openStatusDialog(true))}>
                Set a status
              </button>
            </li>
          ) : (
            <li>
              <button type="button" class="link-button" onClick={go(() => goToNarrow([{ operator: 'dm', operand: String(user.user_id) }]))}>
                Send direct message
              </button>
            </li>
          )}
          <li>
            <button type="button" class="link-button" onClick={go(() => goToNarrow([{ operator: 'sender', operand: String(user.user_id) }]))}>
              View messages sent
            </button>
          </li>
          {!self && !user.is_bot && (
            <li>
              <button
                type="button"
                class="link-button"
                onClick={() =>
                  setMuted(user, !muted)
                    .then(() => (openCard.value = null))
                    .catch(reportError)
                }
              >
                {muted ? 'Unmute user' : 'Mute user'}
              </button>
            </li>
          )}
        </ul>
        {realm.value.isAdmin && <AdminActions key={`${user.user_id}:${user.role}`} user={user} />}
      </div>
    </dialog>
  );
}

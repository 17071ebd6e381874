import { useEffect, useRef } from 'preact/hooks';
import { goToNarrow } from '../app/nav';
import { session, users } from '../state';
import { Avatar } from './Avatar';
import { localTime, presenceText, ProfileFieldList, roleName } from './details';
import { closeProfile, openProfile, profileFields } from './state';
import { StatusLine } from './StatusLine';

/**
 * A person's full profile (Zulip's "View profile"): everything the card shows, when they
 * joined, their time zone and every custom profile field they filled in. A modal panel; on
 * phones it fills the screen.
 */
export function Profile() {
  const userId = openProfile.value;
  const dialog = useRef<HTMLDialogElement>(null);
  const before = useRef<Element | null>(null);
  useEffect(() => {
    if (userId === null) return;
    before.current = document.activeElement;
    if (!dialog.current?.open) dialog.current?.showModal();
    return () => (before.current as HTMLElement | null)?.focus?.();
  }, [userId]);
  const user = userId === null ? undefined : users.value.get(userId);
  if (!user) return null;
  const time = localTime(user);
  const joined = user.date_joined ? new Date(user.date_joined) : undefined;
  return (
    <dialog
      ref={dialog}
      class="modal user-profile"
      aria-labelledby="user-profile-name"
      onCancel={(e) => {
        e.preventDefault();
        closeProfile();
      }}
    >
      <div class="user-profile-head">
        <Avatar class="avatar user-profile-avatar" url={user.avatar_url} size={120} alt="" />
        <div>
          <h2 id="user-profile-name">
            {user.full_name}
            {user.user_id === session.value?.user_id && ' (you)'}
          </h2>
          <StatusLine userId={user.user_id} />
          {!user.is_active && <p class="user-profile-deactivated">This user has been deactivated.</p>}
        </div>
      </div>
      <dl class="profile-details">
        <div class="profile-row">
          <dt>Role</dt>
          <dd>{roleName(user)}</dd>
        </div>
        {user.delivery_email && (
          <div class="profile-row">
            <dt>Email</dt>
            <dd>
              <a href={`mailto:${user.delivery_email}`}>{user.delivery_email}</a>
            </dd>
          </div>
        )}
        <div class="profile-row">
          <dt>User ID</dt>
          <dd>{user.user_id}</dd>
        </div>
        {joined && !Number.isNaN(joined.getTime()) && (
          <div class="profile-row">
            <dt>Joined</dt>
            <dd>{joined.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })}</dd>
          </div>
        )}
        {!user.is_bot && (
          <div class="profile-row">
            <dt>Presence</dt>
            <dd>{presenceText(user)}</dd>
          </div>
        )}
        {time && (
          <div class="profile-row">
            <dt>Local time</dt>
            <dd>
              {time} ({user.timezone})
            </dd>
          </div>
        )}
        <ProfileFieldList user={user} fields={profileFields.value} summaryOnly={false} />
      </dl>
      <div class="modal-buttons">
        <button
          type="button"
          onClick={() => {
            closeProfile();
            goToNarrow([{ operator: 'sender', operand: String(user.user_id) }]);
          }}
        >
          View messages sent
        </button>
        <button type="button" class="primary" onClick={closeProfile}>
          Close
        </button>
      </div>
    </dialog>
  );
}

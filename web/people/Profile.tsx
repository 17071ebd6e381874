import { avatarUrlOf } from './avatar-url';
import { goToNarrow } from '../app/nav';
import { session, users } from '../state';
import { Modal } from '../ui/Modal';
import { Avatar } from './Avatar';
import { PersonDetails } from './details';
import { closeProfile, openProfile, profileFields } from './state';
import { StatusLine } from './StatusLine';

/**
 * A person's full profile (Zulip's "View profile"): everything the card shows, when they
 * joined, their time zone and every custom profile field they filled in. A modal panel; on
 * phones it fills the screen.
 */
export function Profile() {
  const userId = openProfile.value;
  const user = userId === null ? undefined : users.value.get(userId);
  if (!user) return null;
  return (
    <Modal
      title={`${user.full_name}${user.user_id === session.value?.user_id ? ' (you)' : ''}`}
      class="user-profile"
      onClose={closeProfile}
      buttons={
        <button
          type="button"
          onClick={() => {
            closeProfile();
            goToNarrow([{ operator: 'sender', operand: String(user.user_id) }]);
          }}
        >
          View messages sent
        </button>
      }
    >
      <div class="user-profile-head">
        <Avatar class="avatar user-profile-avatar" url={avatarUrlOf(user)} size={120} alt="" />
        <div>
          <StatusLine userId={user.user_id} />
          {!user.is_active && <p class="user-profile-deactivated">This user has been deactivated.</p>}
        </div>
      </div>
      <PersonDetails user={user} fields={profileFields.value} full />
    </Modal>
  );
}

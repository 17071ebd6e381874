import { lazyComponent } from '../ui/lazy';
import { openCard, openProfile, statusDialogOpen } from './state';

const UserCard = lazyComponent(() => import('./dialogs').then((m) => m.UserCard));
const Profile = lazyComponent(() => import('./dialogs').then((m) => m.Profile));
const StatusDialog = lazyComponent(() => import('./dialogs').then((m) => m.StatusDialog));

/** The people's dialogs (user card, full profile, status), whose code is fetched when one first opens. */
export function PeopleOverlays() {
  return (
    <>
      {openCard.value && <UserCard />}
      {openProfile.value !== null && <Profile />}
      {statusDialogOpen.value && <StatusDialog />}
    </>
  );
}

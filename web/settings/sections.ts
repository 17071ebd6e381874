import type { ComponentType } from 'preact';
import { lazyComponent } from '../ui/lazy';

/**
 * One page of the settings: its address (`#settings/<id>` or `#organization/<id>`, the names
 * Zulip's web app uses), its label in the settings' menu, and its screen, whose code is fetched
 * when the page is first opened.
 */
export interface SettingsSection {
  id: string;
  label: string;
  scope: 'personal' | 'organization';
  screen: ComponentType;
}

export const SECTIONS: SettingsSection[] = [
  { id: 'profile', label: 'Profile', scope: 'personal', screen: lazyComponent(() => import('./Profile').then((m) => m.Profile)) },
  { id: 'preferences', label: 'Preferences', scope: 'personal', screen: lazyComponent(() => import('./Preferences').then((m) => m.Preferences)) },
  { id: 'notifications', label: 'Notifications', scope: 'personal', screen: lazyComponent(() => import('./Notifications').then((m) => m.Notifications)) },
  { id: 'alert-words', label: 'Alert words', scope: 'personal', screen: lazyComponent(() => import('./AlertWords').then((m) => m.AlertWords)) },
  { id: 'uploaded-files', label: 'Uploaded files', scope: 'personal', screen: lazyComponent(() => import('./UploadedFiles').then((m) => m.UploadedFiles)) },
  { id: 'muted-users', label: 'Muted users', scope: 'personal', screen: lazyComponent(() => import('../people/dialogs').then((m) => m.MutedUsers)) },
  {
    id: 'organization-profile',
    label: 'Organization profile',
    scope: 'organization',
    screen: lazyComponent(() => import('../admin/OrganizationProfile').then((m) => m.OrganizationProfile)),
  },
  { id: 'users', label: 'Users', scope: 'organization', screen: lazyComponent(() => import('../admin/Users').then((m) => m.Users)) },
  { id: 'invites-list-admin', label: 'Invitations', scope: 'organization', screen: lazyComponent(() => import('../admin/Invitations').then((m) => m.Invitations)) },
  {
    id: 'default-channels-list',
    label: 'Default channels',
    scope: 'organization',
    screen: lazyComponent(() => import('../channels/screens').then((m) => m.DefaultChannels)),
  },
];

/** Where `#settings` and `#organization` alone lead. */
export const FIRST_SECTION = { personal: 'profile', organization: 'organization-profile' } as const;

export function sectionHash(section: SettingsSection): string {
  return `#${section.scope === 'personal' ? 'settings' : 'organization'}/${section.id}`;
}

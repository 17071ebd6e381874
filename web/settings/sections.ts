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
  { id: 'account-and-privacy', label: 'Account and privacy', scope: 'personal', screen: lazyComponent(() => import('./Account').then((m) => m.Account)) },
  { id: 'muted-users', label: 'Muted users', scope: 'personal', screen: lazyComponent(() => import('../people/dialogs').then((m) => m.MutedUsers)) },
  {
    id: 'organization-profile',
    label: 'Organization profile',
    scope: 'organization',
    screen: lazyComponent(() => import('../admin/OrganizationProfile').then((m) => m.OrganizationProfile)),
  },
  { id: 'users', label: 'Users', scope: 'organization', screen: lazyComponent(() => import('../admin/Users').then((m) => m.Users)) },
  {
    id: 'deactivated-users-admin',
    label: 'Deactivated users',
    scope: 'organization',
    screen: lazyComponent(() => import('../admin/Users').then((m) => m.DeactivatedUsers)),
  },
  { id: 'invites-list-admin', label: 'Invitations', scope: 'organization', screen: lazyComponent(() => import('../admin/Invitations').then((m) => m.Invitations)) },
  {
    id: 'default-channels-list',
    label: 'Default channels',
    scope: 'organization',
    screen: lazyComponent(() => import('../channels/screens').then((m) => m.DefaultChannels)),
  },
  { id: 'data-exports-admin', label: 'Data exports', scope: 'organization', screen: lazyComponent(() => import('../admin/DataExports').then((m) => m.DataExports)) },
];

/** Where `#settings` and `#organization` alone lead. */
export const FIRST_SECTION = { personal: 'profile', organization: 'organization-profile' } as const;

export function sectionHash(section: SettingsSection): string {
  return `#${section.scope === 'personal' ? 'settings' : 'organization'}/${section.id}`;
}

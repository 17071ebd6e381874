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
  /** An organization page every member may open (it shows them what they may see or do). */
  forMembers?: boolean;
  /** An organization page members see read-only (its controls disabled), as Zulip shows it to them. */
  readOnlyForMembers?: boolean;
  screen: ComponentType;
}

export const SECTIONS: SettingsSection[] = [
  { id: 'profile', label: 'Profile', scope: 'personal', screen: lazyComponent(() => import('./Profile').then((m) => m.Profile)) },
  { id: 'account-and-privacy', label: 'Account and privacy', scope: 'personal', screen: lazyComponent(() => import('./Account').then((m) => m.Account)) },
  { id: 'preferences', label: 'Preferences', scope: 'personal', screen: lazyComponent(() => import('./Preferences').then((m) => m.Preferences)) },
  { id: 'notifications', label: 'Notifications', scope: 'personal', screen: lazyComponent(() => import('./Notifications').then((m) => m.Notifications)) },
  { id: 'your-bots', label: 'Your bots', scope: 'personal', screen: lazyComponent(() => import('../bots/Bots').then((m) => m.YourBots)) },
  { id: 'alert-words', label: 'Alert words', scope: 'personal', screen: lazyComponent(() => import('./AlertWords').then((m) => m.AlertWords)) },
  { id: 'uploaded-files', label: 'Uploaded files', scope: 'personal', screen: lazyComponent(() => import('./UploadedFiles').then((m) => m.UploadedFiles)) },
  { id: 'muted-users', label: 'Muted users', scope: 'personal', screen: lazyComponent(() => import('../people/dialogs').then((m) => m.MutedUsers)) },
  {
    id: 'organization-profile',
    label: 'Organization profile',
    scope: 'organization',
    readOnlyForMembers: true,
    screen: lazyComponent(() => import('../admin/OrganizationProfile').then((m) => m.OrganizationProfile)),
  },
  {
    id: 'organization-settings',
    label: 'Organization settings',
    scope: 'organization',
    readOnlyForMembers: true,
    screen: lazyComponent(() => import('../admin/RealmSettings').then((m) => m.OrganizationSettings)),
  },
  {
    id: 'organization-permissions',
    label: 'Organization permissions',
    scope: 'organization',
    readOnlyForMembers: true,
    screen: lazyComponent(() => import('../admin/RealmSettings').then((m) => m.OrganizationPermissions)),
  },
  { id: 'emoji-settings', label: 'Custom emoji', scope: 'organization', readOnlyForMembers: true, screen: lazyComponent(() => import('../admin/CustomEmoji').then((m) => m.CustomEmoji)) },
  { id: 'linkifier-settings', label: 'Linkifiers', scope: 'organization', readOnlyForMembers: true, screen: lazyComponent(() => import('../admin/Linkifiers').then((m) => m.Linkifiers)) },
  {
    id: 'playground-settings',
    label: 'Code playgrounds',
    scope: 'organization',
    screen: lazyComponent(() => import('../admin/Playgrounds').then((m) => m.Playgrounds)),
  },
  { id: 'users', label: 'Users', scope: 'organization', readOnlyForMembers: true, screen: lazyComponent(() => import('../admin/Users').then((m) => m.Users)) },
  {
    id: 'profile-field-settings',
    label: 'Custom profile fields',
    scope: 'organization',
    screen: lazyComponent(() => import('../admin/ProfileFields').then((m) => m.ProfileFields)),
  },
  {
    id: 'deactivated-users-admin',
    label: 'Deactivated users',
    scope: 'organization',
    screen: lazyComponent(() => import('../admin/Users').then((m) => m.DeactivatedUsers)),
  },
  { id: 'invites-list-admin', label: 'Invitations', scope: 'organization', screen: lazyComponent(() => import('../admin/Invitations').then((m) => m.Invitations)) },
  { id: 'bot-list-admin', label: 'Bots', scope: 'organization', readOnlyForMembers: true, screen: lazyComponent(() => import('../bots/Bots').then((m) => m.AllBots)) },
  {
    id: 'user-groups-admin',
    label: 'User groups',
    scope: 'organization',
    forMembers: true,
    screen: lazyComponent(() => import('../groups/UserGroups').then((m) => m.UserGroups)),
  },
  {
    id: 'default-channels-list',
    label: 'Default channels',
    scope: 'organization',
    readOnlyForMembers: true,
    screen: lazyComponent(() => import('../channels/screens').then((m) => m.DefaultChannels)),
  },
  { id: 'data-exports-admin', label: 'Data exports', scope: 'organization', screen: lazyComponent(() => import('../admin/DataExports').then((m) => m.DataExports)) },
];

/** Where `#settings` and `#organization` alone lead. */
export const FIRST_SECTION = { personal: 'profile', organization: 'organization-profile' } as const;

export function sectionHash(section: SettingsSection): string {
  return `#${section.scope === 'personal' ? 'settings' : 'organization'}/${section.id}`;
}

import { signal } from '@preact/signals';

/**
 * Counts the server's `invites_changed` events (someone made, used, resent or revoked an
 * invitation): the invitations page fetches its list again whenever this changes.
 */
export const invitesChanged = signal(0);

import type { Channel } from '../types';

/** Who can access a channel, as Zulip's forms offer it. */
export type Privacy = 'web-public' | 'public' | 'private-shared' | 'private-protected';

export function privacyOf(channel: Channel): Privacy {
  if (channel.is_web_public) return 'web-public';
  if (!channel.invite_only) return 'public';
  return channel.history_public_to_subscribers ? 'private-shared' : 'private-protected';
}

export const PRIVACY: Array<{ value: Privacy; label: string; hint: string }> = [
  { value: 'web-public', label: 'Web-public', hint: 'Anyone on the internet can read it without an account; members can join.' },
  { value: 'public', label: 'Public', hint: 'Members of the organization can join and read its whole history.' },
  { value: 'private-shared', label: 'Private, shared history', hint: 'Only subscribers; people added later can read what was said before.' },
  { value: 'private-protected', label: 'Private, protected history', hint: 'Only subscribers; people added later read from when they joined.' },
];

/** A privacy as `PATCH /streams/{id}` takes it. */
export function privacyParams(privacy: Privacy): Record<string, boolean> {
  return {
    is_web_public: privacy === 'web-public',
    is_private: privacy.startsWith('private'),
    history_public_to_subscribers: privacy !== 'private-protected',
  };
}

/** A privacy as a new channel's `POST /users/me/subscriptions` takes it: the same, with `invite_only` for `is_private`. */
export function creationPrivacyParams(privacy: Privacy): Record<string, boolean> {
  const { is_private, ...rest } = privacyParams(privacy);
  return { ...rest, invite_only: is_private };
}

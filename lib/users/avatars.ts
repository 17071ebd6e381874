import { createHash } from 'node:crypto';
import type { UserRow } from './queries';
import { canSeeDeliveryEmail, deliveryEmailVisibleToAll } from './email-visibility';

/** Where an uploaded avatar is served from, and the picture of anyone without one when gravatar is off. */
export const USER_AVATARS_PATH = '/user_avatars';
export const DEFAULT_AVATAR_PATH = '/static/images/default-avatar.png';

/** Zulip's sizes: the avatar shown beside messages, and the larger one on profile cards. */
export const AVATAR_SIZE = 100;
export const MEDIUM_AVATAR_SIZE = 500;

/**
 * Avatar URLs. An uploaded avatar (source 'U') or a generated one ('J') is served by Stoa; any other is provider-hosted
 * (gravatar) unless the server runs with --no-gravatar, when everyone without an upload gets
 * Stoa's default picture and no client is sent to the Internet for one.
 */
export class Avatars {
  /** By user row: rows are kept unchanged until the user changes, so each URL is made once. */
  private readonly urls = new WeakMap<UserRow, string>();

  constructor(
    readonly gravatar: boolean,
    private readonly realmId: () => number,
  ) {}

  /** The file name of a user's uploaded avatar: not their ID, so users cannot be counted from it. */
  fileName(userId: number, medium: boolean): string {
    const hash = createHash('sha256').update(`stoa-avatar:${this.realmId()}:${userId}`).digest('hex').slice(0, 40);
    return `${this.realmId()}/${hash}${medium ? '-medium' : ''}.png`;
  }

  url(user: UserRow): string {
    let url = this.urls.get(user);
    if (url === undefined) {
      url = this.make(user, false);
      this.urls.set(user, url);
    }
    return url;
  }

  mediumUrl(user: UserRow): string {
    return this.make(user, true);
  }

  /**
   * null tells a client that asked for client_gravatar to compute the URL itself, which it can
   * do only for a provider-hosted avatar whose owner's real email it may see.
   */
  urlFor(viewer: UserRow | null, target: UserRow, clientGravatar: boolean): string | null {
    return this.clientComputes(() => viewer, target, clientGravatar) ? null : this.url(target);
  }

  /**
   * Whether urlFor is null: cheaper to ask. The viewer is asked for only when the answer
   * depends on them; a null viewer is a spectator, who sees only what everyone may.
   */
  clientComputes(viewer: () => UserRow | null, target: UserRow, clientGravatar: boolean): boolean {
    if (!clientGravatar || !this.gravatar || target.avatar_source !== 'G') return false;
    if (deliveryEmailVisibleToAll(target)) return true;
    const who = viewer();
    return who !== null && canSeeDeliveryEmail(who, target);
  }

  private make(user: UserRow, medium: boolean): string {
    // A generated avatar is stored as an uploaded one is.
    if (user.avatar_source === 'U' || user.avatar_source === 'J') return `${USER_AVATARS_PATH}/${this.fileName(user.id, medium)}?version=${user.avatar_version}`;
    return this.providerHosted(user.delivery_email, user.avatar_version, medium);
  }

  /** The provider-hosted avatar of an address (a gravatar identicon), or Stoa's picture without gravatar. */
  providerHosted(email: string, version: number, medium: boolean): string {
    if (!this.gravatar) return DEFAULT_AVATAR_PATH;
    const hash = createHash('md5').update(email.toLowerCase()).digest('hex');
    return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${version}${medium ? '&s=500' : ''}`;
  }
}

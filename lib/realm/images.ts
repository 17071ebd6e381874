import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { NextFunction, Request, Response } from 'express';
import { sendEvent, write } from '../events/send';
import { ApiError } from '../http/errors';
import type { Stoa } from '../stoa';
import { DEFAULT_AVATAR_PATH, USER_AVATARS_PATH } from '../users/avatars';

/**
 * The organization's pictures: its square icon and its wide logo, light and dark ("night").
 * Each is either uploaded ('U') or the default (the icon's provider-hosted identicon 'G', the
 * logos' Zulip logo 'D'). Which one, and the version of the uploaded file (so that its URL
 * changes with every upload), are kept among the organization's stored settings.
 */
export type RealmImage = 'icon' | 'logo' | 'night_logo';

/** Zulip's default organization logo, which clients know how to show. */
const DEFAULT_LOGO_URL = '/static/images/logo/zulip-org-logo.svg?version=0';

const DEFAULT_SOURCE: Record<RealmImage, 'G' | 'D'> = { icon: 'G', logo: 'D', night_logo: 'D' };
export const REALM_IMAGES: readonly RealmImage[] = ['icon', 'logo', 'night_logo'];

function stored(stoa: Stoa, key: string): unknown {
  const value = stoa.realm.setting(key);
  return value === undefined ? undefined : JSON.parse(value);
}

export function realmImageSource(stoa: Stoa, image: RealmImage): string {
  return (stored(stoa, `realm_${image}_source`) as string | undefined) ?? DEFAULT_SOURCE[image];
}

function realmImageVersion(stoa: Stoa, image: RealmImage): number {
  return (stored(stoa, `realm_${image}_version`) as number | undefined) ?? 0;
}

/** The file an uploaded picture is kept in, among the avatars. */
export function realmImageFile(stoa: Stoa, image: RealmImage): string {
  return `${stoa.realm.get()!.id}/realm/${image}.png`;
}

/** An organization without an uploaded icon gets a provider-hosted identicon, as on Zulip. */
function defaultIconUrl(stoa: Stoa): string {
  if (!stoa.config.gravatar) return DEFAULT_AVATAR_PATH;
  const hash = createHash('md5').update(`realm:${stoa.site}`).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon`;
}

export function realmImageUrl(stoa: Stoa, image: RealmImage): string {
  if (realmImageSource(stoa, image) === 'U') {
    return `${USER_AVATARS_PATH}/${realmImageFile(stoa, image)}?version=${realmImageVersion(stoa, image)}`;
  }
  return image === 'icon' ? defaultIconUrl(stoa) : DEFAULT_LOGO_URL;
}

export function realmIconUrl(stoa: Stoa): string {
  return realmImageUrl(stoa, 'icon');
}

/** Register's keys for the pictures: realm_icon_url, realm_icon_source and so on. */
export function realmImagesState(stoa: Stoa): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (const image of REALM_IMAGES) {
    state[`realm_${image}_url`] = realmImageUrl(stoa, image);
    state[`realm_${image}_source`] = realmImageSource(stoa, image);
  }
  return state;
}

/**
 * Switches a picture to the uploaded file just stored (`uploaded`, with a new version) or back
 * to the default, and tells everyone in the organization, as Zulip's update_dict does.
 */
export function changeRealmImage(stoa: Stoa, image: RealmImage, uploaded: boolean): void {
  write(stoa, () => {
    stoa.realm.storeSetting(`realm_${image}_source`, uploaded ? 'U' : DEFAULT_SOURCE[image]);
    if (uploaded) stoa.realm.storeSetting(`realm_${image}_version`, realmImageVersion(stoa, image) + 1);
    const data = { [`${image}_url`]: realmImageUrl(stoa, image), [`${image}_source`]: realmImageSource(stoa, image) };
    sendEvent(stoa, { type: 'realm', op: 'update_dict', property: image, data }, stoa.users.activeIds());
  });
}

/** GET /user_avatars/{realm_id}/realm/{icon,logo,night_logo}.png: public, as avatars are. */
export function serveRealmImage(stoa: Stoa) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const image = REALM_IMAGES.find((name) => req.params.file === `${name}.png`);
    if (!image || req.params.realm_id !== String(stoa.realm.get()!.id) || realmImageSource(stoa, image) !== 'U') {
      return next(new ApiError('BAD_REQUEST', 'No such image', 404));
    }
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('Cache-Control', 'public, max-age=31536000');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const stream = createReadStream(stoa.uploads.avatarPath(realmImageFile(stoa, image)));
    stream.on('error', () => {
      if (res.headersSent) return void res.destroy();
      res.removeHeader('Cache-Control');
      next(new ApiError('BAD_REQUEST', 'No such image', 404));
    });
    stream.pipe(res);
  };
}

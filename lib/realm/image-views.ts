import type { Request } from 'express';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { ApiError, badRequest } from '../http/errors';
import { redirectWithQuery } from '../http/respond';
import { squareImage, wideImage } from '../uploads/images';
import { checkFileSize, discardFiles, fileReceiver } from '../uploads/receive';
import { changeRealmImage, realmImageFile, realmImageUrl, type RealmImage } from './images';
import { REALM_SERVER_FACTS } from './settings';
import { requireAdministrator } from '../users/access';

/**
 * POST, DELETE and GET /realm/icon and /realm/logo (with `night` for the dark logo):
 * administrators upload or reset the organization's pictures; anyone signed in is
 * redirected to the current one.
 */

const MAX_ICON_MIB = REALM_SERVER_FACTS.max_icon_file_size_mib as number;
const MAX_LOGO_MIB = REALM_SERVER_FACTS.max_logo_file_size_mib as number;
/** The icon is a square of avatar size; a logo fits in this box, as on Zulip. */
const ICON_SIZE = 100;
const LOGO_BOX = { width: 800, height: 100 };
const NIGHT = { night: { type: 'boolean' } } as const;

function badImage() {
  return new ApiError('BAD_IMAGE', 'Could not decode image; did you upload an image file?');
}

const exactlyOne = (what: 'icon' | 'logo') => () => badRequest(`You must upload exactly one ${what}.`);

const logoOf = (night: boolean): RealmImage => (night ? 'night_logo' : 'logo');

export const uploadRealmIconView = endpoint({
  params: NO_PARAMS,
  fileReceiver: (stoa) => fileReceiver(stoa, MAX_ICON_MIB, exactlyOne('icon')),
  authorize: requireAdministrator,
  view: async ({ stoa, req }) => {
    try {
      const files = (req as Request).files ?? [];
      if (files.length !== 1) throw exactlyOne('icon')();
      checkFileSize(files[0], MAX_ICON_MIB);
      const png = await squareImage(files[0].path, ICON_SIZE);
      if (!png) throw badImage();
      await stoa.uploads.storeAvatar(realmImageFile(stoa, 'icon'), png);
      changeRealmImage(stoa, 'icon', true);
      return { icon_url: realmImageUrl(stoa, 'icon') };
    } finally {
      await discardFiles(req as Request);
    }
  },
});

export const uploadRealmLogoView = endpoint<{ night: boolean }>({
  params: { properties: NIGHT, required: ['night'] },
  fileReceiver: (stoa) => fileReceiver(stoa, MAX_LOGO_MIB, exactlyOne('logo')),
  authorize: requireAdministrator,
  view: async ({ stoa, params, req }) => {
    try {
      const files = (req as Request).files ?? [];
      if (files.length !== 1) throw exactlyOne('logo')();
      checkFileSize(files[0], MAX_LOGO_MIB);
      const png = await wideImage(files[0].path, LOGO_BOX.width, LOGO_BOX.height);
      if (!png) throw badImage();
      const image = logoOf(params.night);
      await stoa.uploads.storeAvatar(realmImageFile(stoa, image), png);
      changeRealmImage(stoa, image, true);
      return {};
    } finally {
      await discardFiles(req as Request);
    }
  },
});

/** The file stays where it is: a client may still show the old URL until it hears of the change. */
export const deleteRealmIconView = endpoint({
  params: NO_PARAMS,
  authorize: requireAdministrator,
  view: ({ stoa }) => {
    changeRealmImage(stoa, 'icon', false);
    return { icon_url: realmImageUrl(stoa, 'icon') };
  },
});

export const deleteRealmLogoView = endpoint<{ night: boolean }>({
  params: { properties: NIGHT, required: ['night'] },
  authorize: requireAdministrator,
  view: ({ stoa, params }) => {
    changeRealmImage(stoa, logoOf(params.night), false);
    return {};
  },
});

export const getRealmIconView = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, req, res }) => {
    redirectWithQuery(res, realmImageUrl(stoa, 'icon'), req.url);
    return {};
  },
});

export const getRealmLogoView = endpoint<{ night: boolean }>({
  params: { properties: NIGHT, required: ['night'] },
  view: ({ stoa, params, req, res }) => {
    redirectWithQuery(res, realmImageUrl(stoa, logoOf(params.night)), req.url);
    return {};
  },
});

import { createReadStream } from 'node:fs';
import type { NextFunction, Request, Response } from 'express';
import type { Stoa } from '../stoa';
import { checkSpectatorAccess } from '../channels/access';
import { ApiError, badRequest, unauthorized } from '../http/errors';
import type { FileReceiver, ReceivedFile } from '../http/params';
import { endpoint, NO_PARAMS, spectatorEndpoint } from '../http/endpoint';
import { redirectWithQuery } from '../http/respond';
import { REALM_SERVER_FACTS } from '../realm/settings';
import { realmSetting } from '../realm/settings-store';
import { renderSvgToPng, squareImage } from '../uploads/images';
import { checkFileSize, discardFiles, fileReceiver } from '../uploads/receive';
import { INACCESSIBLE_USER_AVATAR_PATH, canAccessUser } from './access';
import { changeAvatar } from './actions';
import { AVATAR_SIZE, MEDIUM_AVATAR_SIZE } from './avatars';
import { Role, type UserRow } from './queries';

const MAX_AVATAR_MIB = REALM_SERVER_FACTS.max_avatar_file_size_mib as number;

function exactlyOne() {
  return badRequest('You must upload exactly one avatar.');
}

/** Avatars arrive like uploads, up to max_avatar_file_size_mib; a second file is Zulip's "exactly one". */
export function avatarReceiver(stoa: Stoa, tooMany = exactlyOne): FileReceiver {
  return fileReceiver(stoa, MAX_AVATAR_MIB, tooMany);
}

export interface AvatarImages {
  small: Buffer;
  medium: Buffer;
}

/** The avatar's pictures (the small and the medium square) made from an uploaded image, or Zulip's error. */
export async function avatarImages(file: ReceivedFile): Promise<AvatarImages> {
  checkFileSize(file, MAX_AVATAR_MIB);
  const [small, medium] = await Promise.all([squareImage(file.path, AVATAR_SIZE), squareImage(file.path, MEDIUM_AVATAR_SIZE)]);
  if (!small || !medium) throw badRequest('Could not decode image; did you upload an image file?');
  return { small, medium };
}

/** Puts a user's avatar pictures in place and switches the user to them, telling everyone. */
export async function useAvatar(stoa: Stoa, userId: number, images: AvatarImages): Promise<UserRow> {
  await stoa.uploads.storeAvatar(stoa.avatars.fileName(userId, false), images.small);
  await stoa.uploads.storeAvatar(stoa.avatars.fileName(userId, true), images.medium);
  return changeAvatar(stoa, userId, 'U');
}

/**
 * Runs a bot request with the avatar it brought (none, or one image), made before anything
 * changes, and removes the uploaded file afterwards whatever happens.
 */
export async function withBotAvatar<T>(req: Request, run: (avatar: AvatarImages | undefined) => Promise<T>): Promise<T> {
  try {
    const files = req.files ?? [];
    return await run(files.length === 0 ? undefined : await avatarImages(files[0]));
  } finally {
    await discardFiles(req);
  }
}


export function checkAvatarChangesAllowed(stoa: Stoa, user: UserRow): void {
  if (realmSetting(stoa, 'realm_avatar_changes_disabled') === true && user.role > Role.ADMINISTRATOR) {
    throw badRequest('Avatar changes are disabled in this organization.');
  }
}

/** POST /users/me/avatar: one image, made into the user's avatar for everyone to see. */
export const uploadOwnAvatarView = endpoint({
  params: NO_PARAMS,
  fileReceiver: avatarReceiver,
  view: async ({ stoa, user, req }) => {
    try {
      checkAvatarChangesAllowed(stoa, user);
      const files = (req as Request).files ?? [];
      if (files.length !== 1) throw exactlyOne();
      const images = await avatarImages(files[0]);
      return { avatar_url: stoa.avatars.url(await useAvatar(stoa, user.id, images)) };
    } finally {
      await discardFiles(req as Request);
    }
  },
});

/** Avatars are public, as on Zulip; each URL names a version, so browsers may keep them long. */
export function serveAvatar(stoa: Stoa) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const file = `${req.params.realm_id}/${req.params.file}`;
    if (!/^\d+\/[0-9a-f]{40}(-medium)?\.png$/.test(file)) return next(new ApiError('BAD_REQUEST', 'No such avatar', 404));
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('Cache-Control', 'public, max-age=31536000');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const stream = createReadStream(stoa.uploads.avatarPath(file));
    stream.on('error', () => {
      if (res.headersSent) return void res.destroy();
      res.removeHeader('Cache-Control');
      next(new ApiError('BAD_REQUEST', 'No such avatar', 404));
    });
    stream.pipe(res);
  };
}

/** Stoa's own picture for anyone without an avatar when gravatar is off: a grey figure. */
const DEFAULT_AVATAR = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
  <rect width="100" height="100" fill="#d4d4d8"/>
  <circle cx="50" cy="38" r="18" fill="#a1a1aa"/>
  <path d="M16 96c2-20 16-32 34-32s32 12 34 32z" fill="#a1a1aa"/>
</svg>`;

/** The picture of someone the viewer may not see (can_access_all_users_group): a question mark. */
const INACCESSIBLE_USER_AVATAR = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
  <rect width="100" height="100" fill="#e4e4e7"/>
  <path d="M36 38a14 14 0 1 1 20 12.6c-4 2-6 5-6 9.4v4" fill="none" stroke="#a1a1aa" stroke-width="9" stroke-linecap="round"/>
  <circle cx="50" cy="80" r="5.5" fill="#a1a1aa"/>
</svg>`;

/** Serves a fixed picture, drawn once from its SVG and kept. */
function servePicture(svg: string) {
  let png: Promise<Buffer> | undefined;
  return (_req: Request, res: Response, next: NextFunction): void => {
    png ??= renderSvgToPng(svg);
    png.then(
      (bytes) => {
        res.setHeader('Content-Type', 'image/png');
        res.setHeader('Cache-Control', 'public, max-age=86400');
        res.end(bytes);
      },
      (err: unknown) => {
        png = undefined;
        next(err);
      },
    );
  };
}

/**
 * Where GET /avatar/{email_or_id} (and .../medium) sends a client that was not given someone's
 * avatar URL, as on Zulip. Members name anyone by email or ID; spectators (while spectator
 * access is on) by ID only. Someone unknown gets the identicon of what was asked for. The
 * request's query string is passed on.
 */
function avatarTarget(stoa: Stoa, viewer: UserRow | undefined, emailOrId: string, medium: boolean): string {
  const isId = /^\d+$/.test(emailOrId);
  if (!viewer) {
    checkSpectatorAccess(stoa);
    if (!isId) throw unauthorized();
  }
  const target = isId ? stoa.users.byId(Number(emailOrId)) : stoa.users.byAnyEmail(emailOrId);
  // A guest who may not see someone gets the picture of an unknown user, as on Zulip.
  const hidden = target !== undefined && viewer !== undefined && !canAccessUser(stoa, viewer, target);
  if (hidden) return INACCESSIBLE_USER_AVATAR_PATH;
  if (!target) return stoa.avatars.providerHosted(emailOrId, 1, medium);
  return medium ? stoa.avatars.mediumUrl(target) : stoa.avatars.url(target);
}

/** GET /avatar/{email_or_id} (and .../medium) outside the API, for browsers and clients alike. */
export function redirectToAvatar(stoa: Stoa, medium: boolean) {
  return (req: Request, res: Response, next: NextFunction): void => {
    try {
      redirectWithQuery(res, avatarTarget(stoa, req.user, String(req.params.email_or_id), medium), req.originalUrl);
    } catch (err) {
      next(err);
    }
  };
}

/** The same redirect under /api/v1 and /json, where Zulip's clients find it too. */
function avatarRedirectEndpoint(medium: boolean) {
  return spectatorEndpoint<{ email_or_id: string }>({
    params: { properties: { email_or_id: { type: 'string' } }, required: ['email_or_id'] },
    view: ({ stoa, user, params, req, res }) => {
      redirectWithQuery(res, avatarTarget(stoa, user, params.email_or_id, medium), req.url);
      return {};
    },
  });
}
export const avatarRedirectView = avatarRedirectEndpoint(false);
export const mediumAvatarRedirectView = avatarRedirectEndpoint(true);

export const serveDefaultAvatar = servePicture(DEFAULT_AVATAR);
export const serveInaccessibleUserAvatar = servePicture(INACCESSIBLE_USER_AVATAR);

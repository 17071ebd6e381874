import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Sharp, SharpOptions } from 'sharp';

/**
 * Images, through sharp (libvips): what an upload really is, and its thumbnails. sharp is
 * loaded on first use, so a server that never sees an image never pays for it.
 */

type SharpFactory = (input?: string | Buffer, options?: SharpOptions) => Sharp;
let sharpModule: SharpFactory | undefined;
function sharp(): SharpFactory {
  sharpModule ??= require('sharp') as SharpFactory;
  return sharpModule;
}

/** Formats a browser shows inline, by the name sharp gives them. */
const WEB_IMAGE_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};

export interface ImageFacts {
  contentType: string;
  width: number;
  height: number;
  animated: boolean;
}

/** Larger images are refused by the decoder, so that one upload cannot take the server's memory. */
const MAX_INPUT_PIXELS = 100_000_000;

/** What an image file really is, whatever its name says, or null when it is not a web image. */
export async function probeImage(input: string | Buffer): Promise<ImageFacts | null> {
  try {
    const meta = await sharp()(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    const contentType = meta.format ? WEB_IMAGE_TYPES[meta.format] : undefined;
    if (!contentType || !meta.width || !meta.height) return null;
    const frames = meta.pages ?? 1;
    return { contentType, width: meta.width, height: meta.pageHeight ?? meta.height, animated: frames > 1 };
  } catch {
    return null;
  }
}

/** One size and format uploaded images are made smaller into (register's server_thumbnail_formats). */
export interface ThumbnailFormat {
  name: string;
  max_width: number;
  max_height: number;
  format: 'webp';
  animated: boolean;
}

/** Zulip's default formats: one still, and one that keeps an animated image moving. */
export const THUMBNAIL_FORMATS: readonly ThumbnailFormat[] = [
  { name: '840x560-anim.webp', max_width: 840, max_height: 560, format: 'webp', animated: true },
  { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
];

/** The format messages show an image in: the moving one for a moving image. */
export function previewFormat(animated: boolean): ThumbnailFormat {
  return THUMBNAIL_FORMATS.find((format) => format.animated === animated)!;
}

/**
 * Makes a thumbnail of a stored image at `target`, if there is none yet. Written beside its
 * place and renamed into it, so that a half-written thumbnail is never served.
 */
export async function makeThumbnail(source: string, target: string, format: ThumbnailFormat): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.${randomBytes(6).toString('hex')}.partial`;
  try {
    await sharp()(source, { animated: format.animated, limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(format.max_width, format.max_height, { fit: 'inside', withoutEnlargement: true })
      .webp()
      .toFile(partial);
    await rename(partial, target);
  } finally {
    await rm(partial, { force: true });
  }
}

/** A PNG of an SVG drawing of our own (never a user's: SVG may reference other files). */
export function renderSvgToPng(svg: string): Promise<Buffer> {
  return sharp()(Buffer.from(svg)).png().toBuffer();
}

/** A square PNG of an image, cropped to fill it, as avatars are shown. Null when it is not an image. */
export async function squareImage(input: string | Buffer, size: number): Promise<Buffer | null> {
  try {
    return await sharp()(input, { limitInputPixels: MAX_INPUT_PIXELS }).rotate().resize(size, size, { fit: 'cover' }).png().toBuffer();
  } catch {
    return null;
  }
}

/** A PNG of an image made to fit a box (never enlarged), as organization logos are shown. Null when it is not an image. */
export async function wideImage(input: string | Buffer, width: number, height: number): Promise<Buffer | null> {
  try {
    return await sharp()(input, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(width, height, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch {
    return null;
  }
}

/** Custom emoji are made no larger than this square, as on Zulip. */
export const EMOJI_SIZE = 64;

/** The formats a custom emoji may be, by sharp's name, with the extension its file gets. */
const EMOJI_FORMATS: Record<string, string> = { png: 'png', jpeg: 'jpg', gif: 'gif', webp: 'webp' };

export interface EmojiImages {
  /** The emoji as shown, in its own format, moving if it moved. */
  image: Buffer;
  extension: string;
  /** Its first frame as a PNG, for an animated emoji only. */
  still: Buffer | null;
}

/**
 * A custom emoji's images from an uploaded file: made to fit the emoji square (smaller ones are
 * left their size) and kept in their format, animation included. Null when the file is not an
 * image of a format an emoji may be.
 */
export async function makeEmojiImages(input: string): Promise<EmojiImages | null> {
  let format: string | undefined;
  let animated: boolean;
  try {
    const meta = await sharp()(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    format = meta.format;
    animated = (meta.pages ?? 1) > 1;
  } catch {
    return null;
  }
  const extension = format === undefined ? undefined : EMOJI_FORMATS[format];
  if (extension === undefined) return null;
  const fit = { fit: 'inside', withoutEnlargement: true } as const;
  try {
    // A still image is turned upright first; the frames of an animation carry no orientation.
    const source = sharp()(input, { animated, limitInputPixels: MAX_INPUT_PIXELS });
    const image = await (animated ? source : source.rotate())
      .resize(EMOJI_SIZE, EMOJI_SIZE, fit)
      .toFormat(format as 'png' | 'jpeg' | 'gif' | 'webp')
      .toBuffer();
    const still = animated
      ? await sharp()(input, { limitInputPixels: MAX_INPUT_PIXELS }).resize(EMOJI_SIZE, EMOJI_SIZE, fit).png().toBuffer()
      : null;
    return { image, extension, still };
  } catch {
    // The header read but the pixels did not: a damaged file.
    return null;
  }
}

import { signal } from '@preact/signals';

/**
 * The image viewer's state: the images of the open view (every message's image previews, in
 * order) and which one is shown. The viewer itself (Lightbox.tsx) is loaded when first opened.
 */

export interface ViewedImage {
  /** What is shown: the original where it is on this server, else the preview. */
  src: string;
  /** The original, to open in a tab of its own. */
  original: string;
  title: string;
}

export const imageViewer = signal<{ images: ViewedImage[]; index: number } | null>(null);

/** Where the focus was before the viewer opened, to give it back on closing. */
let returnFocus: HTMLElement | null = null;

function describe(img: HTMLImageElement): ViewedImage {
  const link = img.closest('a');
  const href = link?.href ?? img.src;
  const sameOrigin = new URL(href, location.href).origin === location.origin;
  return { src: sameOrigin ? href : img.src, original: href, title: link?.title || img.alt || href.split('/').pop() || 'Image' };
}

/** Opens the viewer on an image preview of the feed; previous and next go through the feed's others. */
export function openImageViewer(img: HTMLImageElement): void {
  const all = [...document.querySelectorAll<HTMLImageElement>('.message-scroller .message_inline_image img')];
  const index = Math.max(0, all.indexOf(img));
  returnFocus = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : (img.closest<HTMLElement>('.message-row') ?? null);
  imageViewer.value = { images: all.map(describe), index };
}

export function closeImageViewer(): void {
  imageViewer.value = null;
  if (returnFocus?.isConnected) returnFocus.focus();
  returnFocus = null;
}

export function stepImageViewer(step: number): void {
  const current = imageViewer.value;
  if (!current) return;
  const index = current.index + step;
  if (index < 0 || index >= current.images.length) return;
  imageViewer.value = { ...current, index };
}

/** A click on an image preview in a message opens it here instead of in a new tab. Returns whether it was one. */
export function openClickedImage(event: MouseEvent): boolean {
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return false;
  const preview = (event.target as HTMLElement).closest('.message_inline_image');
  const img = preview?.querySelector('img');
  if (!img) return false;
  event.preventDefault();
  openImageViewer(img);
  return true;
}

/** `v`: the selected message's first image. */
export function viewSelectedImage(): boolean {
  const img = document.querySelector<HTMLImageElement>('.message-row.selected .message_inline_image img');
  if (!img) return false;
  openImageViewer(img);
  return true;
}

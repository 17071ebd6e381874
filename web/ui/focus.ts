/**
 * Gives the focus back to where it was before a dialog opened, once it has closed. Effects'
 * cleanups run a moment after the dialog is gone, so a key pressed in between (`/` straight
 * after closing the shortcuts) may already have put the focus somewhere: it stays there.
 */
export function restoreFocus(before: Element | null): void {
  const now = document.activeElement;
  if (now && now !== document.body && now.isConnected) return;
  (before as HTMLElement | null)?.focus?.();
}

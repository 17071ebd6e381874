import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { Icon } from './icons';

/** Keys in a menu: arrows, Home and End move between its items; Escape and Tab close it. */
export function menuKey(e: KeyboardEvent, menu: HTMLElement | null, close: () => void): void {
  if (!menu) return;
  const items = [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')];
  const at = items.indexOf(document.activeElement as HTMLElement);
  const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 };
  if (e.key in moves) {
    e.preventDefault();
    items[(moves[e.key] + items.length) % items.length]?.focus();
  } else if (e.key === 'Escape') {
    e.preventDefault();
    e.stopPropagation();
    close();
  } else if (e.key === 'Tab') {
    close();
  }
}

/**
 * Opens the menu upwards when it would be cut off below (by the scrolling area it is in, or the
 * window) and there is more room above: a message's menu at the bottom of the feed.
 */
function placeMenu(list: HTMLElement): void {
  // A sheet fixed to the screen (a message's menu on a phone) is placed by the stylesheet.
  if (getComputedStyle(list).position === 'fixed') return;
  let bottom = window.innerHeight;
  let top = 0;
  for (let el = list.parentElement; el; el = el.parentElement) {
    const overflow = getComputedStyle(el).overflowY;
    if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') {
      const box = el.getBoundingClientRect();
      bottom = Math.min(bottom, box.bottom);
      top = Math.max(top, box.top);
      break;
    }
  }
  const menuBox = list.getBoundingClientRect();
  const anchor = list.parentElement!.getBoundingClientRect();
  const roomAbove = anchor.top - top;
  list.classList.toggle('opens-up', menuBox.bottom > bottom && roomAbove > bottom - anchor.bottom);
}

export interface MenuItem {
  label: string;
  action: () => void;
}

/**
 * A button opening a small menu of actions (the ⋮ of a sidebar row or a message). The menu takes
 * the focus on its first item; Escape, Tab, a choice or a click elsewhere close it, and the
 * focus goes back to the button.
 */
export function PopupMenu({ label, hint, items, class: className = '', children, open: openFromOutside, onOpenChange }: {
  label: string;
  /** The tooltip, when it says more than the label (a key). */
  hint?: string;
  items: MenuItem[];
  class?: string;
  children?: ComponentChildren;
  /** Lets a keyboard shortcut open the menu. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const [openHere, setOpenHere] = useState(false);
  const open = openFromOutside ?? openHere;
  const setOpen = (next: boolean) => {
    setOpenHere(next);
    onOpenChange?.(next);
  };
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  // The focus moves in before the menu is painted: a key pressed as soon as it shows (Escape,
  // an arrow) reaches the menu, not what had the focus before.
  useLayoutEffect(() => {
    if (!open || !menu.current) return;
    placeMenu(menu.current);
    menu.current.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <span class={`popup-menu ${className}`.trim()}>
      <button
        ref={button}
        type="button"
        class="popup-menu-button"
        aria-label={label}
        title={hint ?? label}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={(e) => {
          e.stopPropagation();
          setOpen(!open);
        }}
      >
        {children ?? <Icon name="more" filled />}
      </button>
      {open && (
        <ul class="menu-list popup-menu-list" role="menu" aria-label={label} ref={menu} onKeyDown={(e) => menuKey(e, menu.current, close)}>
          {items.map((item) => (
            <li role="none" key={item.label}>
              <button
                type="button"
                role="menuitem"
                onClick={(e) => {
                  e.stopPropagation();
                  close();
                  item.action();
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}

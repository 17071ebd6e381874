import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { presentNavigationView, type NavigationViewRow } from './queries';

export function addNavigationView(stoa: Stoa, userId: number, fragment: string, isPinned: boolean, name: string | null): void {
  write(stoa, () => {
    stoa.navigationViews.insert(userId, fragment, isPinned, name);
    const view = presentNavigationView(stoa.navigationViews.byFragment(userId, fragment)!);
    sendEvent(stoa, { type: 'navigation_view', op: 'add', navigation_view: view }, [userId]);
  });
}

/** Changes what is given; the event names only that. */
export function updateNavigationView(stoa: Stoa, view: NavigationViewRow, changes: { is_pinned?: boolean; name?: string }): void {
  write(stoa, () => {
    stoa.navigationViews.update(view.id, changes.is_pinned ?? view.is_pinned === 1, changes.name ?? view.name);
    sendEvent(stoa, { type: 'navigation_view', op: 'update', fragment: view.fragment, data: changes }, [view.user_id]);
  });
}

export function removeNavigationView(stoa: Stoa, view: NavigationViewRow): void {
  write(stoa, () => {
    stoa.navigationViews.remove(view.id);
    sendEvent(stoa, { type: 'navigation_view', op: 'remove', fragment: view.fragment }, [view.user_id]);
  });
}

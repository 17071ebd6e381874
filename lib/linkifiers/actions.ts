import type { EventQueue } from '../events/queues';
import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';

/**
 * Everyone gets the whole new list. Clients without the linkifier_url_template capability
 * cannot read URL templates, so they get no linkifiers at all, as on Zulip.
 */
function announce(stoa: Stoa): void {
  const event = { type: 'realm_linkifiers', realm_linkifiers: stoa.linkifiers.realmLinkifiers() };
  const forQueue = (queue: EventQueue) => (queue.settings.capabilities.linkifier_url_template ? event : null);
  sendEvent(stoa, forQueue, stoa.users.activeIds());
}

export function addLinkifier(stoa: Stoa, pattern: string, urlTemplate: string): number {
  return write(stoa, () => {
    const id = stoa.linkifiers.insert(pattern, urlTemplate);
    announce(stoa);
    return id;
  });
}

export function updateLinkifier(stoa: Stoa, id: number, pattern: string, urlTemplate: string): void {
  write(stoa, () => {
    stoa.linkifiers.update(id, pattern, urlTemplate);
    announce(stoa);
  });
}

export function removeLinkifier(stoa: Stoa, id: number): void {
  write(stoa, () => {
    stoa.linkifiers.remove(id);
    announce(stoa);
  });
}

/** Puts every linkifier at its place in `orderedIds`, which names each exactly once. */
export function reorderLinkifiers(stoa: Stoa, orderedIds: readonly number[]): void {
  write(stoa, () => {
    orderedIds.forEach((id, position) => stoa.linkifiers.setPosition(id, position));
    announce(stoa);
  });
}

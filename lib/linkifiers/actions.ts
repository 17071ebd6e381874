import type { EventQueue } from '../events/queues';
import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import type { LinkifierFields } from './queries';

/**
 * Everyone gets the whole new list. Clients without the linkifier_url_template capability
 * cannot read URL templates, so they get no linkifiers at all, as on Zulip.
 */
function announce(stoa: Stoa): void {
  const event = { type: 'realm_linkifiers', realm_linkifiers: stoa.linkifiers.realmLinkifiers() };
  const forQueue = (queue: EventQueue) => (queue.settings.capabilities.linkifier_url_template ? event : null);
  sendEvent(stoa, forQueue, stoa.users.activeIds());
}

export function addLinkifier(stoa: Stoa, fields: LinkifierFields): number {
  return write(stoa, () => {
    const id = stoa.linkifiers.insert(fields);
    announce(stoa);
    return id;
  });
}

export function updateLinkifier(stoa: Stoa, id: number, fields: LinkifierFields): void {
  write(stoa, () => {
    stoa.linkifiers.update(id, fields);
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

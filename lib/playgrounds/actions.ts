import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { presentPlayground } from './queries';

/** Everyone in the organization gets the whole new list. */
function announce(stoa: Stoa): void {
  const event = { type: 'realm_playgrounds', realm_playgrounds: stoa.playgrounds.all().map(presentPlayground) };
  sendEvent(stoa, event, stoa.users.activeIds());
}

export function addPlayground(stoa: Stoa, name: string, language: string, urlTemplate: string): number {
  return write(stoa, () => {
    const id = stoa.playgrounds.insert(name, language, urlTemplate);
    announce(stoa);
    return id;
  });
}

export function removePlayground(stoa: Stoa, id: number): void {
  write(stoa, () => {
    stoa.playgrounds.remove(id);
    announce(stoa);
  });
}

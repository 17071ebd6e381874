import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { realmEmojiDict } from './present';
import type { NewRealmEmoji } from './queries';

/** Everyone gets the whole new list, as on Zulip. */
function announce(stoa: Stoa): void {
  sendEvent(stoa, { type: 'realm_emoji', op: 'update', realm_emoji: realmEmojiDict(stoa) }, stoa.users.activeIds());
}

/** Records an emoji whose images are already stored; answers its ID. */
export function addRealmEmoji(stoa: Stoa, emoji: NewRealmEmoji): number {
  return write(stoa, () => {
    const id = stoa.realmEmoji.insert(emoji);
    announce(stoa);
    return id;
  });
}

/** Deactivates an emoji: its row and images stay for what already shows it. */
export function deactivateRealmEmoji(stoa: Stoa, id: number): void {
  write(stoa, () => {
    stoa.realmEmoji.deactivate(id);
    announce(stoa);
  });
}

import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';

function notify(stoa: Stoa, userId: number): string[] {
  const words = stoa.alertWords.forUser(userId);
  sendEvent(stoa, { type: 'alert_words', alert_words: words }, [userId]);
  return words;
}

/** Adds words (ignoring ones the user has in any case) and returns the user's whole list. */
export function addAlertWords(stoa: Stoa, userId: number, words: readonly string[]): string[] {
  return write(stoa, () => {
    for (const word of words) stoa.alertWords.insert(userId, word);
    return notify(stoa, userId);
  });
}

/** Removes words, matched without regard to case, and returns what remains. */
export function removeAlertWords(stoa: Stoa, userId: number, words: readonly string[]): string[] {
  return write(stoa, () => {
    for (const word of words) stoa.alertWords.remove(userId, word);
    return notify(stoa, userId);
  });
}

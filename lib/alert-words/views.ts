import type { StateContext } from '../events/state-context';
import { badRequest } from '../http/errors';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { addAlertWords, removeAlertWords } from './actions';
import { foldCase } from './queries';

/** Zulip's longest alert word. */
const MAX_ALERT_WORD_LENGTH = 100;
/**
 * Zulip sets no bound on how many alert words one user keeps; every message is searched for
 * the words of everyone who receives it, so Stoa keeps each user to this many.
 */
export const MAX_ALERT_WORDS = 1000;

const WORDS = {
  properties: { alert_words: { type: 'array', items: { type: 'string', maxLength: MAX_ALERT_WORD_LENGTH } } },
  required: ['alert_words'],
} as const;

/** Surrounding spaces are not part of a word, and a blank word is no word. */
function cleanWords(words: readonly string[]): string[] {
  return words.map((word) => word.trim()).filter((word) => word !== '');
}

export const getAlertWords = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => ({ alert_words: stoa.alertWords.forUser(user.id) }),
});

export const addAlertWordsView = endpoint<{ alert_words: string[] }>({
  params: WORDS,
  view: ({ stoa, user, params }) => {
    const words = cleanWords(params.alert_words);
    const kept = new Set(stoa.alertWords.forUser(user.id).map(foldCase));
    for (const word of words) kept.add(foldCase(word));
    if (kept.size > MAX_ALERT_WORDS) throw badRequest(`You can have at most ${MAX_ALERT_WORDS} alert words.`);
    return { alert_words: addAlertWords(stoa, user.id, words) };
  },
});

export const removeAlertWordsView = endpoint<{ alert_words: string[] }>({
  params: WORDS,
  view: ({ stoa, user, params }) => ({
    alert_words: removeAlertWords(stoa, user.id, cleanWords(params.alert_words)),
  }),
});

/** Register state for fetch type `alert_words`. */
export function alertWordsState({ stoa, user }: StateContext): Record<string, unknown> {
  return { alert_words: stoa.alertWords.forUser(user.id) };
}

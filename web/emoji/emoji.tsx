import { signal } from '@preact/signals';
import { realm, realmEmoji } from '../state';
import type { Reaction } from '../types';

/** The emoji table from the server (`server_emoji_data_url`), loaded when first needed. */

export interface EmojiChoice {
  name: string;
  /** Unicode code point(s) like "1f642", or a custom emoji's ID. */
  code: string;
  type: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
  /** The picture of a custom emoji. */
  url?: string;
}

export const emojiTable = signal<EmojiChoice[] | null>(null);

/** Whether Unicode emoji show as their names (`emojiset` "text"); other sets show the device's own emoji. */
export const plainTextEmoji = signal(false);
let loading: Promise<void> | undefined;

/** Starts loading the emoji table; `emojiTable` fills in when it arrives. */
export function loadEmoji(): Promise<void> {
  const url = realm.value.emojiDataUrl;
  if (!url) return Promise.resolve();
  // A static file, not an API answer: it has no "result" field for api.get to check.
  loading ??= fetch(new URL(url, location.href).pathname, { credentials: 'same-origin' })
    .then((response) => {
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      return response.json() as Promise<{ code_to_names?: Record<string, string[]> }>;
    })
    .then(
      (data) => {
        const choices: EmojiChoice[] = [];
        for (const [code, names] of Object.entries(data.code_to_names ?? {})) {
          for (const name of names) choices.push({ name, code, type: 'unicode_emoji' });
        }
        emojiTable.value = choices;
      },
      () => {
        loading = undefined;
      },
    );
  return loading;
}

/** The text of a Unicode emoji from its code points ("1f468-200d-1f4bb"). */
export function unicodeEmoji(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((part) => parseInt(part, 16)));
  } catch {
    return '';
  }
}

/** Every emoji one can pick: the organization's custom ones, then Unicode ones. */
export function allEmoji(): EmojiChoice[] {
  const custom: EmojiChoice[] = [...realmEmoji.value.values()]
    .filter((e) => !e.deactivated)
    .map((e) => ({ name: e.name, code: e.id, type: 'realm_emoji', url: e.source_url }));
  return [...custom, { name: 'zulip', code: 'zulip', type: 'zulip_extra_emoji', url: '/static/generated/emoji/images/emoji/unicode/zulip.png' }, ...(emojiTable.value ?? [])];
}

/** Zulip's popular emoji, offered first: +1, tada, smile, heart, working_on_it, octopus. */
export const POPULAR_EMOJI_CODES = ['1f44d', '1f389', '1f642', '2764', '1f6e0', '1f419'];

const emojiKey = (e: Pick<EmojiChoice, 'type' | 'code'>) => `${e.type}:${e.code}`;

/** Whether some word of the name (words joined by "_") starts with the query, as Zulip's typeahead matches. */
function matchesWord(name: string, query: string): boolean {
  return name.startsWith(query) || name.split('_').some((word) => word.startsWith(query));
}

/**
 * Emoji matching the query, ranked as Zulip ranks them: the exact name, then popular emoji, then
 * the organization's own, then names starting with the query, then names with a word starting
 * with it; one entry per emoji (its best-matching name), at most `limit`.
 */
export function searchEmoji(query: string, limit = 8): EmojiChoice[] {
  const q = query.toLowerCase().trim().replace(/ /g, '_');
  const popular = new Set(POPULAR_EMOJI_CODES);
  const rank = (e: EmojiChoice) => {
    if (e.name === q) return 0;
    if (e.type === 'unicode_emoji' && popular.has(e.code)) return 1;
    if (e.type !== 'unicode_emoji') return 2;
    return e.name.startsWith(q) ? 3 : 4;
  };
  const ranked = allEmoji()
    .filter((e) => matchesWord(e.name, q))
    .map((e, order) => ({ e, order, rank: rank(e) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order);
  const seen = new Set<string>();
  const result: EmojiChoice[] = [];
  for (const { e } of ranked) {
    if (seen.has(emojiKey(e))) continue;
    seen.add(emojiKey(e));
    result.push(e);
    if (result.length >= limit) break;
  }
  return result;
}

/** The emoji one picked lately, newest first, kept in this browser as Zulip's web app keeps them. */
const RECENT_KEY = 'stoa-recent-emoji';
const RECENT_LIMIT = 24;

function readRecent(): EmojiChoice[] {
  try {
    const stored = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(stored) ? (stored as EmojiChoice[]).filter((e) => e && typeof e.name === 'string' && typeof e.code === 'string') : [];
  } catch {
    return [];
  }
}

export const recentEmoji = signal<EmojiChoice[]>(readRecent());

/** Remembers an emoji as just used (picked, reacted with, or taken from the typeahead). */
export function noteEmojiUsed(emoji: EmojiChoice): void {
  const { name, code, type, url } = emoji;
  const next = [{ name, code, type, url }, ...recentEmoji.value.filter((e) => emojiKey(e) !== emojiKey(emoji))].slice(0, RECENT_LIMIT);
  recentEmoji.value = next;
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(next));
  } catch {
    // Storage full or refused: the list still holds for this page.
  }
}

/** Unicode's categories of emoji ("Smileys & Emotion", ...), each a list of codes, loaded with the picker. */
export const emojiCatalog = signal<Record<string, string[]> | null>(null);
let loadingCatalog: Promise<void> | undefined;

export function loadEmojiCatalog(): Promise<void> {
  loadingCatalog ??= import('./catalog.json').then(
    (module) => {
      emojiCatalog.value = module.default as Record<string, string[]>;
    },
    () => {
      loadingCatalog = undefined;
    },
  );
  return loadingCatalog;
}

/** How a reaction's emoji is drawn: text for Unicode emoji, a picture for the others. */
export function EmojiGlyph({ emoji }: { emoji: Pick<Reaction, 'emoji_code' | 'emoji_name' | 'reaction_type'> }) {
  if (emoji.reaction_type === 'unicode_emoji') {
    return <span class="emoji-glyph">{plainTextEmoji.value ? `:${emoji.emoji_name}:` : unicodeEmoji(emoji.emoji_code)}</span>;
  }
  const url =
    emoji.reaction_type === 'realm_emoji'
      ? realmEmoji.value.get(emoji.emoji_code)?.source_url
      : '/static/generated/emoji/images/emoji/unicode/zulip.png';
  return <img class="emoji-glyph" src={url} alt={`:${emoji.emoji_name}:`} />;
}

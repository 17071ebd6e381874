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

/** Emoji whose name starts with (then contains) the query, at most `limit`. */
export function searchEmoji(query: string, limit = 8): EmojiChoice[] {
  const q = query.toLowerCase();
  const all = allEmoji();
  const starts = all.filter((e) => e.name.startsWith(q));
  const contains = all.filter((e) => !e.name.startsWith(q) && e.name.includes(q));
  const seen = new Set<string>();
  const result: EmojiChoice[] = [];
  for (const e of [...starts, ...contains]) {
    const key = `${e.type}:${e.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(e);
    if (result.length >= limit) break;
  }
  return result;
}

/** How a reaction's emoji is drawn: text for Unicode emoji, a picture for the others. */
export function EmojiGlyph({ emoji }: { emoji: Pick<Reaction, 'emoji_code' | 'emoji_name' | 'reaction_type'> }) {
  if (emoji.reaction_type === 'unicode_emoji') return <span class="emoji-glyph">{unicodeEmoji(emoji.emoji_code)}</span>;
  const url =
    emoji.reaction_type === 'realm_emoji'
      ? realmEmoji.value.get(emoji.emoji_code)?.source_url
      : '/static/generated/emoji/images/emoji/unicode/zulip.png';
  return <img class="emoji-glyph" src={url} alt={`:${emoji.emoji_name}:`} />;
}

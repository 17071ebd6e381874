/**
 * Unicode emoji by name and by code, from lib/emoji/names.json (made by
 * scripts/generate-emoji-names.ts from Zulip's table of emoji names). Codes are Zulip's:
 * lowercase hex code points joined by "-", without variation selectors (U+FE0F).
 */

/** Zulip's own emoji, for reactions only: `zulip_extra_emoji`. */
export const ZULIP_EXTRA_EMOJI = { name: 'zulip', code: 'zulip' } as const;

const VARIATION_SELECTOR = 0xfe0f;

type EmojiNames = Readonly<Record<string, readonly string[]>>;
let tables: { namesByCode: EmojiNames; codeByName: Map<string, string>; nameByCode: Map<string, string> } | undefined;

/**
 * The table and its two indexes, read when an emoji is first looked up: about 1,900 emoji and
 * 4,000 names, whose parsing and indexing were a noticeable part of every start.
 */
function emojiTables(): NonNullable<typeof tables> {
  if (!tables) {
    const namesByCode = require('../emoji/names.json') as EmojiNames;
    const codeByName = new Map<string, string>();
    const nameByCode = new Map<string, string>();
    for (const [code, names] of Object.entries(namesByCode)) {
      nameByCode.set(code, names[0]);
      for (const name of names) codeByName.set(name, code);
    }
    tables = { namesByCode, codeByName, nameByCode };
  }
  return tables;
}

/** Each emoji's names, canonical name first, by code: the `code_to_names` clients download. */
export function emojiNamesByCode(): EmojiNames {
  return emojiTables().namesByCode;
}

/** The code of a Unicode emoji by any of its names, or null. */
export function emojiCodeByName(name: string): string | null {
  return emojiTables().codeByName.get(name) ?? null;
}

/** The canonical name of a Unicode emoji code, or null when no such emoji is offered. */
export function emojiNameByCode(code: string): string | null {
  return emojiTables().nameByCode.get(code) ?? null;
}

export function isEmojiName(name: string): boolean {
  return emojiTables().codeByName.has(name);
}

/** Zulip's code for an emoji character sequence as typed, or null if it is not an offered emoji. */
export function emojiCodeForText(text: string): string | null {
  const codePoints: string[] = [];
  for (const char of text) {
    const c = char.codePointAt(0)!;
    if (c !== VARIATION_SELECTOR) codePoints.push(c.toString(16).padStart(4, '0'));
  }
  const code = codePoints.join('-');
  return emojiTables().nameByCode.has(code) ? code : null;
}

/** Emoticons and the emoji they become when a user asks for translation (Zulip's list). */
export const EMOTICONS: ReadonlyArray<readonly [emoticon: string, code: string]> = [
  [':)', '1f642'],
  ['(:', '1f642'],
  [':(', '1f641'],
  ['<3', '2764'],
  [':|', '1f610'],
  [':/', '1f615'],
  [';)', '1f609'],
  [':D', '1f600'],
  [':o', '1f62e'],
  [':O', '1f62e'],
  [':p', '1f61b'],
  [':P', '1f61b'],
];

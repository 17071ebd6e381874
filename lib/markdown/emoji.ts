/**
 * Unicode emoji by name and by code, from the emoji-datasource package (iamcal's emoji data,
 * the same upstream Zulip builds its emoji set from). Codes are Zulip's: lowercase hex code
 * points joined by "-", with variation selectors (U+FE0F) removed.
 */

interface DatasourceEntry {
  unified: string;
  short_name: string;
  short_names: string[];
  category: string;
  has_img_google: boolean;
  has_img_twitter: boolean;
}

/** Zulip's own emoji, for reactions only: `zulip_extra_emoji`. */
export const ZULIP_EXTRA_EMOJI = { name: 'zulip', code: 'zulip' } as const;

const VARIATION_SELECTOR = 0xfe0f;
/** Gendered and family sequences join these people and signs; Zulip offers none of those variants. */
const PERSON_OR_GENDER = new Set([0x1f466, 0x1f467, 0x1f468, 0x1f469, 0x1f9d1, 0x2640, 0x2642]);
const ZERO_WIDTH_JOINER = 0x200d;

function isOffered(entry: DatasourceEntry, codePoints: number[]): boolean {
  // Skin tone and hair components are modifiers, not emoji one can pick.
  if (entry.category === 'Component') return false;
  // Zulip offers only emoji every one of its emoji sets can draw.
  if (!entry.has_img_google || !entry.has_img_twitter) return false;
  if (codePoints.includes(ZERO_WIDTH_JOINER) && codePoints.some((c) => PERSON_OR_GENDER.has(c))) return false;
  return true;
}

/**
 * The tables are built when first asked for: the data is a few thousand entries that start-up
 * would otherwise parse and walk before the server could listen.
 */
let tables: { codeByName: Map<string, string>; nameByCode: Map<string, string> } | undefined;

function emojiTables(): NonNullable<typeof tables> {
  if (tables) return tables;
  const codeByName = new Map<string, string>();
  const nameByCode = new Map<string, string>();
  for (const entry of require('emoji-datasource/emoji.json') as DatasourceEntry[]) {
    const codePoints = entry.unified
      .split('-')
      .map((hex) => parseInt(hex, 16))
      .filter((c) => c !== VARIATION_SELECTOR);
    if (!isOffered(entry, codePoints)) continue;
    const code = codePoints.map((c) => c.toString(16).padStart(4, '0')).join('-');
    nameByCode.set(code, entry.short_name);
    for (const name of entry.short_names) if (!codeByName.has(name)) codeByName.set(name, code);
  }
  return (tables = { codeByName, nameByCode });
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

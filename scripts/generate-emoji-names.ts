/**
 * Writes lib/emoji/names.json, Stoa's table of Unicode emoji: each emoji's code (lowercase hex
 * code points joined by "-", without U+FE0F) and its names, canonical name first.
 *
 * The names are Zulip's, from Zulip's table of emoji names (a JSON file of code -> canonical
 * name and aliases, given as the first argument). Zulip renames many emoji of the Unicode data
 * (its `smile` is 1f642) and leaves some out on purpose (most clocks), so its table decides
 * both the names and which emoji exist. Emoji newer than that table come from the
 * emoji-datasource package, under that package's names where Zulip does not use them already.
 *
 * Run: npx tsx scripts/generate-emoji-names.ts path/to/emoji-names.json
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import emojiData from 'emoji-datasource/emoji.json';

/** The newest Unicode emoji version Zulip's table knows; only later emoji are taken from the data. */
const ZULIP_TABLE_EMOJI_VERSION = 15.1;

interface ZulipEntry {
  canonical_name: string;
  aliases: string[];
}

interface DatasourceEntry {
  unified: string;
  short_names: string[];
  category: string;
  added_in: string;
  has_img_google: boolean;
  has_img_twitter: boolean;
}

const VARIATION_SELECTOR = 'fe0f';

function codeOf(unified: string): string {
  return unified
    .toLowerCase()
    .split('-')
    .filter((part) => part !== VARIATION_SELECTOR)
    .join('-');
}

/** The text of lib/emoji/names.json made from Zulip's table at `source`, and how many emoji it has. */
export function emojiNamesTable(source: string): { text: string; count: number; added: number } {
  const zulip = (JSON.parse(readFileSync(source, 'utf8')) as { emoji: Record<string, ZulipEntry> }).emoji;
  const table = new Map<string, string[]>();
  const taken = new Set<string>();
  for (const [code, entry] of Object.entries(zulip)) {
    const names = [entry.canonical_name, ...entry.aliases];
    table.set(codeOf(code), names);
    for (const name of names) taken.add(name);
  }
  let added = 0;
  for (const entry of emojiData as DatasourceEntry[]) {
    const code = codeOf(entry.unified);
    if (table.has(code) || Number(entry.added_in) <= ZULIP_TABLE_EMOJI_VERSION) continue;
    // Skin tones and hair styles are modifiers, not emoji; every image set must draw the rest.
    if (entry.category === 'Component' || !entry.has_img_google || !entry.has_img_twitter) continue;
    const names = entry.short_names.map((name) => name.replace(/-/g, '_')).filter((name) => !taken.has(name));
    if (names.length === 0) continue;
    table.set(code, names);
    for (const name of names) taken.add(name);
    added += 1;
  }
  const codes = [...table.keys()].sort();
  // One emoji a line, so that a regenerated table reads as a short diff.
  const lines = codes.map((code) => `${JSON.stringify(code)}:${JSON.stringify(table.get(code))}`);
  return { text: `{\n${lines.join(',\n')}\n}\n`, count: codes.length, added };
}

export const EMOJI_NAMES_FILE = path.resolve(__dirname, '..', 'lib', 'emoji', 'names.json');

if (require.main === module) {
  const source = process.argv[2];
  if (!source) {
    console.error('usage: tsx scripts/generate-emoji-names.ts path/to/emoji-names.json');
    process.exit(2);
  }
  const { text, count, added } = emojiNamesTable(source);
  writeFileSync(EMOJI_NAMES_FILE, text);
  console.log(`wrote ${count} emoji (${added} newer than Zulip's table) to ${path.relative(process.cwd(), EMOJI_NAMES_FILE)}`);
}

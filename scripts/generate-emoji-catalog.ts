import { writeFileSync } from 'node:fs';
import path from 'node:path';
import emojiData from 'emoji-datasource/emoji.json';
import { EMOJI_NAMES_FILE } from './generate-emoji-names';

/**
 * Writes web/emoji/catalog.json: the emoji of lib/emoji/names.json by Unicode category
 * ("Smileys & Emotion", "People & Body", ...), each in Unicode's order, as the web client's emoji picker shows
 * them. Categories and order come from the emoji-datasource package.
 *
 * Run: npx tsx scripts/generate-emoji-catalog.ts
 */

interface DatasourceEntry {
  unified: string;
  category: string;
  sort_order: number;
}

function codeOf(unified: string): string {
  return unified
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

export function emojiCatalog(names: Record<string, string[]>): Record<string, string[]> {
  const entries = (emojiData as DatasourceEntry[])
    .filter((entry) => entry.category !== 'Component' && codeOf(entry.unified) in names)
    .sort((a, b) => a.sort_order - b.sort_order);
  const catalog: Record<string, string[]> = {};
  for (const entry of entries) (catalog[entry.category] ??= []).push(codeOf(entry.unified));
  return catalog;
}

export const EMOJI_CATALOG_FILE = path.resolve(__dirname, '..', 'web', 'emoji', 'catalog.json');

if (require.main === module) {
  const names = require(EMOJI_NAMES_FILE) as Record<string, string[]>;
  const catalog = emojiCatalog(names);
  // One category a line.
  const lines = Object.entries(catalog).map(([category, codes]) => `${JSON.stringify(category)}:${JSON.stringify(codes)}`);
  writeFileSync(EMOJI_CATALOG_FILE, `{\n${lines.join(',\n')}\n}\n`);
  const count = Object.values(catalog).reduce((n, codes) => n + codes.length, 0);
  console.log(`wrote ${count} emoji in ${lines.length} categories to ${path.relative(process.cwd(), EMOJI_CATALOG_FILE)}`);
}

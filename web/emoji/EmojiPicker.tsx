import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon } from '../ui/icons';
import {
  allEmoji,
  emojiCatalog,
  emojiTable,
  loadEmoji,
  loadEmojiCatalog,
  noteEmojiUsed,
  POPULAR_EMOJI_CODES,
  recentEmoji,
  searchEmoji,
  unicodeEmoji,
  type EmojiChoice,
} from './emoji';

interface Section {
  name: string;
  /** The category bar's icon for it. */
  icon: string;
  emoji: EmojiChoice[];
}

/** The category bar's icon of each of Zulip's categories, in Zulip's order (icons, not emoji: the bar stays readable without an emoji font). */
const CATEGORY_ICONS: Array<[string, string]> = [
  ['Smileys & Emotion', 'smile'],
  ['People & Body', 'person'],
  ['Animals & Nature', 'leaf'],
  ['Food & Drink', 'food'],
  ['Activities', 'ball'],
  ['Travel & Places', 'car'],
  ['Objects', 'bulb'],
  ['Symbols', 'heart'],
  ['Flags', 'flag'],
];

/** Popular, recently used, Unicode's categories, then the organization's custom emoji. */
function sections(): Section[] {
  const table = emojiTable.value ?? [];
  // The canonical (first) name of each Unicode emoji.
  const byCode = new Map<string, EmojiChoice>();
  for (const e of table) if (!byCode.has(e.code)) byCode.set(e.code, e);
  const fromCodes = (codes: string[]) => codes.map((code) => byCode.get(code)).filter((e): e is EmojiChoice => e !== undefined);
  const result: Section[] = [{ name: 'Popular', icon: 'star', emoji: fromCodes(POPULAR_EMOJI_CODES) }];
  if (recentEmoji.value.length) result.push({ name: 'Recently used', icon: 'clock', emoji: recentEmoji.value });
  const catalog = emojiCatalog.value ?? {};
  for (const [name, icon] of CATEGORY_ICONS) {
    const emoji = fromCodes(catalog[name] ?? []);
    if (emoji.length) result.push({ name, icon, emoji });
  }
  const custom = allEmoji().filter((e) => e.type !== 'unicode_emoji');
  result.push({ name: 'Custom', icon: 'cog', emoji: custom });
  return result;
}

function EmojiButton({ emoji, onPick, first }: { emoji: EmojiChoice; onPick: (emoji: EmojiChoice) => void; first: boolean }) {
  return (
    <button type="button" class="emoji-choice" tabIndex={first ? 0 : -1} title={`:${emoji.name}:`} aria-label={emoji.name} onClick={() => onPick(emoji)}>
      {emoji.type === 'unicode_emoji' ? unicodeEmoji(emoji.code) : <img src={emoji.url} alt="" />}
    </button>
  );
}

/** How many emoji a row of the grid holds (the arrow keys move by rows). */
const PER_ROW = 8;

/**
 * Zulip's emoji picker: a search box, a bar of categories, and the emoji by category (popular
 * and recently used first); typing searches every name, ranked as the typeahead ranks them.
 */
export function EmojiPicker({ onPick, onClose }: { onPick: (emoji: EmojiChoice) => void; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    void loadEmoji();
    void loadEmojiCatalog();
    // Opened from a message near the bottom of the list, it would hang below the list's edge:
    // the list scrolls so that the whole picker is in sight.
    root.current?.scrollIntoView({ block: 'nearest' });
    input.current?.focus({ preventScroll: true });
  }, []);
  const pick = (emoji: EmojiChoice) => {
    noteEmojiUsed(emoji);
    onPick(emoji);
  };
  const searching = query.trim() !== '';
  const found = searching ? searchEmoji(query, 80) : [];
  const all = searching ? [] : sections();
  const loading = !emojiTable.value;

  /** Arrow keys move between the emoji of the grid (a row is PER_ROW of them). */
  const onGridKey = (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: PER_ROW, ArrowUp: -PER_ROW };
    if (!(e.key in moves)) return;
    const buttons = [...(grid.current?.querySelectorAll<HTMLButtonElement>('.emoji-choice') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    e.preventDefault();
    const next = at + moves[e.key];
    if (next < 0) return input.current?.focus();
    buttons[Math.min(next, buttons.length - 1)]?.focus();
  };

  return (
    <div
      ref={root}
      class="emoji-picker"
      role="dialog"
      aria-label="Choose an emoji"
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <input
        ref={input}
        type="search"
        placeholder="Search emoji"
        aria-label="Search emoji"
        value={query}
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && found[0]) {
            e.preventDefault();
            pick(found[0]);
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            grid.current?.querySelector<HTMLElement>('.emoji-choice')?.focus();
          }
        }}
      />
      {!searching && (
        <div class="emoji-categories" role="toolbar" aria-label="Emoji categories">
          {all.map((section) => (
            <button
              type="button"
              key={section.name}
              aria-label={section.name}
              title={section.name}
              onClick={() => grid.current?.querySelector(`[data-section="${section.name}"]`)?.scrollIntoView({ block: 'start' })}
            >
              <Icon name={section.icon} size={18} />
            </button>
          ))}
        </div>
      )}
      <div class="emoji-grid" ref={grid} onKeyDown={onGridKey}>
        {searching ? (
          <div class="emoji-section" role="group" aria-label="Search results">
            {found.map((emoji, index) => (
              <EmojiButton key={`${emoji.type}:${emoji.code}`} emoji={emoji} onPick={pick} first={index === 0} />
            ))}
          </div>
        ) : (
          all.map((section, sectionIndex) => (
            <div key={section.name} class="emoji-section" role="group" aria-label={section.name} data-section={section.name}>
              <p class="emoji-section-title" aria-hidden="true">
                {section.name}
              </p>
              {section.emoji.map((emoji, index) => (
                <EmojiButton key={`${emoji.type}:${emoji.code}`} emoji={emoji} onPick={pick} first={sectionIndex === 0 && index === 0} />
              ))}
            </div>
          ))
        )}
        {searching && found.length === 0 && <p>{loading ? 'Loading…' : 'No emoji found.'}</p>}
      </div>
    </div>
  );
}

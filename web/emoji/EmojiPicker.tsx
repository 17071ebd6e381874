import { useEffect, useRef, useState } from 'preact/hooks';
import { emojiTable, loadEmoji, searchEmoji, unicodeEmoji, type EmojiChoice } from './emoji';

/** A search box over the server's emoji and the organization's custom ones. */
export function EmojiPicker({ onPick, onClose }: { onPick: (emoji: EmojiChoice) => void; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    void loadEmoji();
    input.current?.focus();
  }, []);
  void emojiTable.value;
  const choices = searchEmoji(query, 60);
  return (
    <div
      class="emoji-picker"
      role="dialog"
      aria-label="Choose an emoji"
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
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
          if (e.key === 'Enter' && choices[0]) {
            e.preventDefault();
            onPick(choices[0]);
          }
        }}
      />
      <div class="emoji-grid">
        {choices.map((emoji) => (
          <button type="button" key={`${emoji.type}:${emoji.code}:${emoji.name}`} title={`:${emoji.name}:`} aria-label={emoji.name} onClick={() => onPick(emoji)}>
            {emoji.type === 'unicode_emoji' ? unicodeEmoji(emoji.code) : <img src={emoji.url} alt="" />}
          </button>
        ))}
        {choices.length === 0 && <p>{emojiTable.value ? 'No emoji found.' : 'Loading…'}</p>}
      </div>
    </div>
  );
}

import { useRef, useState } from 'preact/hooks';
import { post } from '../api';
import { EmojiPicker } from '../emoji/EmojiPicker';
import { EmojiGlyph, type EmojiChoice } from '../emoji/emoji';
import { session } from '../state';
import { Modal } from '../ui/Modal';
import { reportError } from '../ui/Toasts';
import { openStatusDialog, statusDialogOpen, userStatuses } from './state';

/** Zulip's longest status text. */
const MAX_LENGTH = 60;

interface StatusEmoji {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

/** Ready-made statuses to pick with one click, as Zulip offers some. */
const SUGGESTIONS: Array<StatusEmoji & { text: string }> = [
  { emoji_name: 'calendar', emoji_code: '1f4c5', reaction_type: 'unicode_emoji', text: 'In a meeting' },
  { emoji_name: 'bus', emoji_code: '1f68c', reaction_type: 'unicode_emoji', text: 'Commuting' },
  { emoji_name: 'coffee', emoji_code: '2615', reaction_type: 'unicode_emoji', text: 'On a break' },
  { emoji_name: 'sick', emoji_code: '1f912', reaction_type: 'unicode_emoji', text: 'Out sick' },
  { emoji_name: 'palm_tree', emoji_code: '1f334', reaction_type: 'unicode_emoji', text: 'On vacation' },
  { emoji_name: 'house', emoji_code: '1f3e0', reaction_type: 'unicode_emoji', text: 'Working from home' },
];

function saveStatus(emoji: StatusEmoji | null, text: string): Promise<unknown> {
  return post('/json/users/me/status', {
    status_text: text.trim(),
    emoji_name: emoji?.emoji_name ?? '',
    ...(emoji ? { emoji_code: emoji.emoji_code, reaction_type: emoji.reaction_type } : {}),
  });
}

/** Setting one's status: an emoji and a short text, from the personal menu; or clearing it. */
export function StatusDialog() {
  const open = statusDialogOpen.value;
  const current = userStatuses.value.get(session.value?.user_id ?? 0);
  const [emoji, setEmoji] = useState<StatusEmoji | null>(current?.emoji_name ? { emoji_name: current.emoji_name, emoji_code: current.emoji_code ?? '', reaction_type: current.reaction_type ?? 'unicode_emoji' } : null);
  const [text, setText] = useState(current?.status_text ?? '');
  const [picking, setPicking] = useState(false);
  const emojiButton = useRef<HTMLButtonElement>(null);
  if (!open) return null;
  const close = () => openStatusDialog(false);
  const submit = async (chosen: StatusEmoji | null, chosenText: string) => {
    try {
      await saveStatus(chosen, chosenText);
      close();
    } catch (err) {
      reportError(err);
    }
  };
  const had = Boolean(current?.emoji_name || current?.status_text);
  return (
    <Modal
      title="Set a status"
      class="status-dialog"
      // Escape (or the close button) while choosing an emoji closes the picker first.
      onClose={() => (picking ? setPicking(false) : close())}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit(emoji, text);
        }}
      >
        <div class="status-input">
          <button
            ref={emojiButton}
            type="button"
            class="status-emoji-button"
            aria-label={emoji ? `Status emoji: ${emoji.emoji_name}. Change it` : 'Choose a status emoji'}
            aria-expanded={picking}
            onClick={() => setPicking(!picking)}
          >
            {emoji ? <EmojiGlyph emoji={emoji} /> : '🙂'}
          </button>
          <input
            type="text"
            aria-label="Status text"
            placeholder="What are you up to?"
            maxLength={MAX_LENGTH}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
          {(emoji || text) && (
            <button
              type="button"
              class="status-reset"
              aria-label="Remove emoji and text"
              onClick={() => {
                setEmoji(null);
                setText('');
              }}
            >
              ×
            </button>
          )}
        </div>
        {picking && (
          <EmojiPicker
            onPick={(picked: EmojiChoice) => {
              setEmoji({ emoji_name: picked.name, emoji_code: picked.code, reaction_type: picked.type });
              setPicking(false);
              emojiButton.current?.focus();
            }}
            onClose={() => {
              setPicking(false);
              emojiButton.current?.focus();
            }}
          />
        )}
        <ul class="status-suggestions" aria-label="Suggestions">
          {SUGGESTIONS.map((s) => (
            <li key={s.text}>
              <button
                type="button"
                class="link-button"
                onClick={() => {
                  setEmoji(s);
                  setText(s.text);
                }}
              >
                <EmojiGlyph emoji={s} /> {s.text}
              </button>
            </li>
          ))}
        </ul>
        <div class="modal-buttons">
          {had && (
            <button type="button" onClick={() => void submit(null, '')}>
              Clear status
            </button>
          )}
          <button type="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" class="primary">
            Save
          </button>
        </div>
      </form>
    </Modal>
  );
}

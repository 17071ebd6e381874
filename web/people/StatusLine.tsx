import { EmojiGlyph } from '../emoji/emoji';
import { userStatuses } from './state';

/**
 * A person's status emoji and text, as Zulip shows them beside the name and on the card;
 * `emojiOnly` where there is room for the emoji alone (its text is then its tooltip).
 */
export function StatusLine({ userId, emojiOnly = false }: { userId: number; emojiOnly?: boolean }) {
  const status = userStatuses.value.get(userId);
  if (!status?.emoji_name && (emojiOnly || !status?.status_text)) return null;
  return (
    <span class="status-line" title={emojiOnly ? status.status_text : undefined}>
      {status.emoji_name && <EmojiGlyph emoji={{ emoji_name: status.emoji_name, emoji_code: status.emoji_code ?? '', reaction_type: status.reaction_type ?? 'unicode_emoji' }} />}
      {status.status_text && !emojiOnly && <span class="status-text">{status.status_text}</span>}
    </span>
  );
}


import { useState } from 'preact/hooks';
import { del, post } from '../api';
import { alertWords } from '../messages/alertWords';
import { reportError } from '../ui/Toasts';

/**
 * Personal settings' alert words: words or phrases that make a message notify as a mention does
 * and show highlighted in it. The list follows the server's `alert_words` events.
 */
export function AlertWords() {
  const [word, setWord] = useState('');
  const add = async (event: Event) => {
    event.preventDefault();
    const wanted = word.trim();
    if (!wanted) return;
    try {
      await post('/json/users/me/alert_words', { alert_words: [wanted] });
      setWord('');
    } catch (err) {
      reportError(err);
    }
  };
  const words = [...alertWords.value].sort((a, b) => a.localeCompare(b));
  return (
    <div class="alert-words">
      <p class="hint">Messages containing one of these words or phrases (in any case) notify you as a mention does, and show it highlighted.</p>
      <form class="inline-form" onSubmit={add}>
        <label>
          New alert word
          <input type="text" maxLength={100} value={word} onInput={(e) => setWord(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary" disabled={!word.trim()}>
          Add
        </button>
      </form>
      {words.length === 0 ? (
        <p>You have no alert words.</p>
      ) : (
        <ul class="settings-list" aria-label="Your alert words">
          {words.map((w) => (
            <li key={w}>
              <span class="alert-word">{w}</span>
              <button type="button" aria-label={`Remove ${w}`} onClick={() => del('/json/users/me/alert_words', { alert_words: [w] }).catch(reportError)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

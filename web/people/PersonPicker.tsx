import { useState } from 'preact/hooks';
import { users } from '../state';
import type { User } from '../types';
import { showNotice } from '../ui/Toasts';

/** The picker's styles and those of the chosen people's chips, added once when first used. */
const CSS = `
.picker { display: flex; gap: 6px; align-items: flex-end; flex-wrap: wrap; }
.picker label { flex: 1 1 200px; }
.chips { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 6px; }
.chips li { display: flex; align-items: center; gap: 4px; padding: 2px 4px 2px 10px; border-radius: 14px; background: var(--bg-soft); border: 1px solid var(--border); }
.chips button { border: none; background: none; padding: 0 6px; }
`;

function addPickerStyles(): void {
  if (document.querySelector('style[data-area="person-picker"]')) return;
  const style = document.createElement('style');
  style.dataset.area = 'person-picker';
  style.textContent = CSS;
  document.head.append(style);
}

addPickerStyles();

/** People to choose from by name: a text box offering the organization's active people. */
export function PersonPicker({ label, exclude, onPick }: { label: string; exclude: readonly number[]; onPick: (user: User) => void }) {
  const [text, setText] = useState('');
  const listId = `people-${label.replace(/\W+/g, '-')}`;
  const candidates = [...users.value.values()].filter((u) => u.is_active && !u.is_bot && !exclude.includes(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name));
  const pick = (event: Event) => {
    event.preventDefault();
    const typed = text.trim().toLowerCase();
    const matches = candidates.filter((u) => `${u.full_name} <${u.email}>`.toLowerCase().includes(typed));
    const chosen = candidates.find((u) => `${u.full_name} <${u.email}>`.toLowerCase() === typed) ?? (typed && matches.length === 1 ? matches[0] : undefined);
    if (!chosen) return showNotice(`No one matches “${text}”: choose a person from the list.`);
    setText('');
    onPick(chosen);
  };
  return (
    <div class="picker">
      <label>
        {label}
        <input list={listId} value={text} placeholder="Name or email" onInput={(e) => setText(e.currentTarget.value)} onKeyDown={(e) => e.key === 'Enter' && pick(e)} />
      </label>
      <datalist id={listId}>
        {candidates.map((u) => (
          <option key={u.user_id} value={`${u.full_name} <${u.email}>`} />
        ))}
      </datalist>
      <button type="button" onClick={pick}>
        Add
      </button>
    </div>
  );
}

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { reportError } from '../ui/Toasts';

/** A time of one's own for a scheduled message or a reminder: a date and time field and its button. */
export function CustomTimeForm({ label, onPick, field = 'Send at', submit = 'Schedule', children }: {
  label: string;
  onPick: (time: Date) => void;
  field?: string;
  submit?: string;
  children?: ComponentChildren;
}) {
  const [value, setValue] = useState('');
  return (
    <form
      class="custom-time"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        const time = new Date(value);
        if (!value || Number.isNaN(time.getTime()) || time.getTime() <= Date.now()) return reportError(new Error('Choose a time in the future.'));
        onPick(time);
      }}
    >
      <label>
        {field}
        <input type="datetime-local" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
      </label>
      <button type="submit" class="primary">
        {submit}
      </button>
      {children}
    </form>
  );
}

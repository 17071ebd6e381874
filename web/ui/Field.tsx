interface FieldProps {
  label: string;
  value: string;
  onValue: (value: string) => void;
  type?: 'text' | 'email' | 'password';
  name?: string;
  autoComplete?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
}

/** A labelled text input whose value lives in the caller's state. */
export function Field({ label, value, onValue, type = 'text', ...input }: FieldProps) {
  return (
    <label>
      {label}
      {/* Preact's types tell inputs apart by a literal type; each of these takes the same attributes. */}
      <input type={type as 'text'} {...input} value={value} onInput={(e) => onValue(e.currentTarget.value)} />
    </label>
  );
}

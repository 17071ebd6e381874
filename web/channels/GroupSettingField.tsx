import type { GroupSettingValue } from '../types';
import { describeGroupSetting } from './permissions';

/** One group setting: a choice of groups where it may be changed, its value in words where not. */
export function GroupSettingField({ label, value, choices, editable, onChange }: {
  label: string;
  value: GroupSettingValue | undefined;
  choices: Array<{ id: number; label: string }>;
  editable: boolean;
  onChange: (to: GroupSettingValue) => void;
}) {
  if (!editable) {
    return (
      <p class="setting-readonly">
        <span>{label}</span> <strong>{describeGroupSetting(value)}</strong>
      </p>
    );
  }
  // A value of people named one by one stays a choice of its own until a group is chosen.
  const custom = typeof value !== 'number';
  return (
    <label>
      {label}
      <select value={custom ? 'custom' : String(value)} onChange={(e) => e.currentTarget.value !== 'custom' && onChange(Number(e.currentTarget.value))}>
        {custom && <option value="custom">{describeGroupSetting(value)}</option>}
        {choices.map((choice) => (
          <option key={choice.id} value={String(choice.id)}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}

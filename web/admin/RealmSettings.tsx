import { useState } from 'preact/hooks';
import { patch, type Params } from '../api';
import { describeGroupSetting, groupChoices } from '../channels/permissions';
import { realmSettings } from '../channels/state';
import { channels, realm } from '../state';
import type { GroupSettingValue } from '../types';
import { errorText, FormError, SavedNote, useSavedNote } from './forms';
import { addOrganizationStyles } from './organization-styles';
import { ORGANIZATION_PERMISSIONS, ORGANIZATION_SETTINGS, OWNERS_ONLY, type RealmSettingGroup, type RealmSettingItem } from './realm-setting-lists';

addOrganizationStyles();

/** `#organization/organization-settings`: automated messages, retention, compose and feed. */
export function OrganizationSettings() {
  return <RealmSettingsPage groups={ORGANIZATION_SETTINGS} />;
}

/** `#organization/organization-permissions`: who may do what, and for how long. */
export function OrganizationPermissions() {
  return <RealmSettingsPage groups={ORGANIZATION_PERMISSIONS} />;
}

function RealmSettingsPage({ groups }: { groups: RealmSettingGroup[] }) {
  return (
    <div class="org-page">
      {groups.map((g) => (
        <SettingsGroup key={g.title} group={g} />
      ))}
    </div>
  );
}

/**
 * One section of settings, saved together as in Zulip: the changes wait for "Save changes" (or
 * "Discard"); meanwhile the other fields follow the organization's values as events bring them.
 */
function SettingsGroup({ group }: { group: RealmSettingGroup }) {
  const [draft, setDraft] = useState<Record<string, unknown>>({});
  const [note, say] = useSavedNote();
  const [error, setError] = useState('');
  const live = realmSettings.value;
  const items = group.items.filter((item) => item.key in live);
  if (items.length === 0) return null;
  const changed = Object.keys(draft).filter((key) => !sameValue(draft[key], live[key]));
  const id = `org-settings-${group.title.toLowerCase().replace(/\W+/g, '-')}`;
  const save = async (event: Event) => {
    event.preventDefault();
    setError('');
    const params: Params = {};
    for (const key of changed) {
      const item = items.find((i) => i.key === key)!;
      params[key.replace(/^realm_/, '')] = requestValue(item, draft[key], live[key]);
    }
    try {
      await patch('/json/realm', params);
      setDraft({});
      say('Saved.');
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <form onSubmit={save} aria-labelledby={id}>
      <fieldset>
        <legend id={id}>{group.title}</legend>
        {items.map((item) => (
          <SettingField
            key={item.key}
            item={item}
            value={item.key in draft ? draft[item.key] : live[item.key]}
            onValue={(value) => setDraft({ ...draft, [item.key]: value })}
          />
        ))}
        <FormError text={error} />
        <div class="row">
          {changed.length > 0 && (
            <>
              <button type="submit" class="primary">
                Save changes
              </button>
              <button
                type="button"
                onClick={() => {
                  setDraft({});
                  setError('');
                }}
              >
                Discard
              </button>
            </>
          )}
          <SavedNote text={note} />
        </div>
      </fieldset>
    </form>
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A setting's value as PATCH /realm takes it. */
function requestValue(item: RealmSettingItem, value: unknown, current: unknown): unknown {
  if (item.kind === 'group') return { new: value, old: current };
  if (item.kind === 'time-limit' && value === null) return 'unlimited';
  if (item.kind === 'days' && item.forever && value === -1) return 'unlimited';
  return value;
}

const LIMIT_PRESETS: Array<[number | null, string]> = [
  [null, 'Any time'],
  [120, '2 minutes'],
  [600, '10 minutes'],
  [3600, '1 hour'],
  [86400, '1 day'],
  [7 * 86400, '1 week'],
];

const LANGUAGES = ['en', 'de', 'es', 'fr', 'it', 'ja', 'ko', 'nl', 'pl', 'pt', 'ru', 'sv', 'tr', 'uk', 'zh-hans', 'ar', 'hi', 'id'];

function languageLabel(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code.replace('_', '-')) ?? code;
  } catch {
    return code;
  }
}

/** One setting's control; for settings only owners may change, a disabled one for administrators. */
function SettingField({ item, value, onValue }: { item: RealmSettingItem; value: unknown; onValue: (value: unknown) => void }) {
  const ownersOnly = OWNERS_ONLY.has(item.key);
  const disabled = ownersOnly && !realm.value.isOwner;
  const label = (
    <>
      {item.label}
      {ownersOnly && <span class="owner-only"> (owners only)</span>}
    </>
  );
  const hint = item.hint && <p class="hint">{item.hint}</p>;
  switch (item.kind) {
    case 'bool':
      return (
        <div>
          <label class="inline">
            <input type="checkbox" checked={Boolean(value)} disabled={disabled} onChange={(e) => onValue(e.currentTarget.checked)} /> {label}
          </label>
          {hint}
        </div>
      );
    case 'choice': {
      const numeric = typeof item.options[0]?.[0] === 'number';
      return (
        <label>
          {label}
          <select value={String(value)} disabled={disabled} onChange={(e) => onValue(numeric ? Number(e.currentTarget.value) : e.currentTarget.value)}>
            {item.options.map(([option, text]) => (
              <option key={option} value={String(option)}>
                {text}
              </option>
            ))}
          </select>
          {hint}
        </label>
      );
    }
    case 'language': {
      const codes = LANGUAGES.includes(value as string) ? LANGUAGES : [value as string, ...LANGUAGES];
      return (
        <label>
          {label}
          <select value={value as string} disabled={disabled} onChange={(e) => onValue(e.currentTarget.value)}>
            {codes.map((code) => (
              <option key={code} value={code}>
                {languageLabel(code)}
              </option>
            ))}
          </select>
        </label>
      );
    }
    case 'channel': {
      const choices = [...channels.value.values()].filter((c) => !c.is_archived).sort((a, b) => a.name.localeCompare(b.name));
      return (
        <label>
          {label}
          <select value={String(value)} disabled={disabled} onChange={(e) => onValue(Number(e.currentTarget.value))}>
            <option value="-1">Disabled</option>
            {choices.map((c) => (
              <option key={c.stream_id} value={String(c.stream_id)}>
                #{c.name}
              </option>
            ))}
          </select>
          {hint}
        </label>
      );
    }
    case 'group': {
      const choices = groupChoices(item.key.replace(/^realm_/, ''), 'realm');
      // A value of people named one by one stays a choice of its own until a group is chosen.
      const custom = typeof value !== 'number';
      return (
        <label>
          {label}
          <select value={custom ? 'custom' : String(value)} disabled={disabled} onChange={(e) => e.currentTarget.value !== 'custom' && onValue(Number(e.currentTarget.value))}>
            {custom && <option value="custom">{describeGroupSetting(value as GroupSettingValue | undefined)}</option>}
            {choices.map((choice) => (
              <option key={choice.id} value={String(choice.id)}>
                {choice.label}
              </option>
            ))}
          </select>
          {hint}
        </label>
      );
    }
    case 'time-limit':
      return <TimeLimitField label={label} name={item.label} value={value as number | null} disabled={disabled} onValue={onValue} />;
    case 'days': {
      const forever = item.forever !== undefined && value === -1;
      return (
        <div class="row">
          {item.forever && (
            <label>
              {label}
              <select value={forever ? 'forever' : 'days'} disabled={disabled} onChange={(e) => onValue(e.currentTarget.value === 'forever' ? -1 : 30)}>
                <option value="forever">{item.forever}</option>
                <option value="days">A number of days</option>
              </select>
            </label>
          )}
          {!forever && (
            <label>
              {item.forever ? 'Days' : label}
              <input type="number" min={item.forever ? 1 : 0} step={1} value={String(value)} disabled={disabled} onInput={(e) => onValue(Number(e.currentTarget.value))} />
            </label>
          )}
        </div>
      );
    }
  }
}

/** A time limit: a few common ones, or a number of minutes. */
function TimeLimitField({ label, name, value, disabled, onValue }: { label: preact.ComponentChildren; name: string; value: number | null; disabled: boolean; onValue: (value: unknown) => void }) {
  const preset = LIMIT_PRESETS.some(([seconds]) => seconds === value);
  const [custom, setCustom] = useState(!preset);
  const showMinutes = custom || !preset;
  return (
    <div class="row">
      <label>
        {label}
        <select
          value={showMinutes ? 'custom' : String(value)}
          disabled={disabled}
          onChange={(e) => {
            const chosen = e.currentTarget.value;
            setCustom(chosen === 'custom');
            if (chosen !== 'custom') onValue(chosen === 'null' ? null : Number(chosen));
          }}
        >
          {LIMIT_PRESETS.map(([seconds, text]) => (
            <option key={String(seconds)} value={String(seconds)}>
              {text}
            </option>
          ))}
          <option value="custom">A number of minutes</option>
        </select>
      </label>
      {showMinutes && (
        <label>
          Minutes
          <input
            aria-label={`${name}, in minutes`}
            type="number"
            min={1}
            step={1}
            value={value === null ? '' : String(Math.round(value / 60))}
            disabled={disabled}
            onInput={(e) => {
              const minutes = Number(e.currentTarget.value);
              if (minutes > 0) onValue(minutes * 60);
            }}
          />
        </label>
      )}
    </div>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { del, get, post } from '../api';
import { userName } from '../state';
import { confirmAction } from '../ui/Confirm';
import { reportError } from '../ui/Toasts';
import { realmExports, setRealmExports, type RealmExport } from './exports';

/**
 * The kinds of export this server makes. A full export without the members' consent needs an
 * organization setting Stoa never turns on, so it is not offered.
 */
const EXPORT_TYPES: Array<[string, string]> = [
  ['public', 'Public data'],
  ['full_with_consent', 'Public data, and the private data of those who allow it'],
];

function typeLabel(type: string): string {
  return EXPORT_TYPES.find(([name]) => name === type)?.[1] ?? type;
}

function statusOf(item: RealmExport): string {
  if (item.deleted_timestamp !== null) return 'Deleted';
  if (item.failed_timestamp !== null) return 'Failed';
  if (item.pending) return 'Being made…';
  return 'Ready';
}

const when = (seconds: number) => new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The organization's data exports: start one, follow it as it is made, download or delete it. */
export function DataExports() {
  const [type, setType] = useState('public');
  const [consents, setConsents] = useState<{ yes: number; all: number } | null>(null);
  useEffect(() => {
    get<{ exports: RealmExport[] }>('/json/export/realm').then((answer) => setRealmExports(answer.exports), reportError);
    get<{ export_consents: Array<{ consented: boolean }> }>('/json/export/realm/consents').then(
      (answer) => setConsents({ yes: answer.export_consents.filter((c) => c.consented).length, all: answer.export_consents.length }),
      reportError,
    );
  }, []);
  const exports = realmExports.value;
  return (
    <div class="data-exports">
      <p class="settings-hint">An export is a file of the organization's channels, messages, people and settings, which a Zulip server (or Stoa) can import.</p>
      <form
        aria-label="Start a data export"
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            await post('/json/export/realm', { export_type: type });
          } catch (err) {
            reportError(err);
          }
        }}
      >
        <label>
          Export type
          <select value={type} onChange={(e) => setType(e.currentTarget.value)}>
            {EXPORT_TYPES.map(([name, label]) => (
              <option key={name} value={name}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {type === 'full_with_consent' && consents && (
          <p class="settings-hint">
            {consents.yes} of {consents.all} people allow their private data to be exported.
          </p>
        )}
        <button type="submit" class="primary">
          Start export
        </button>
      </form>
      {exports === null ? null : exports.length === 0 ? (
        <p class="empty">No exports yet.</p>
      ) : (
        <ul class="data-export-list" aria-label="Exports">
          {exports.map((item) => (
            <ExportRow key={item.id} item={item} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ExportRow({ item }: { item: RealmExport }) {
  const status = statusOf(item);
  const made = when(item.export_time);
  return (
    <li class="data-export-row">
      <div>
        <strong>{made}</strong>
        <div class="settings-hint">
          {typeLabel(item.export_type)} · by {userName(item.acting_user_id)}
        </div>
      </div>
      <span class={`data-export-status ${status === 'Failed' ? 'failed' : ''}`}>{status}</span>
      <div class="button-row">
        {item.export_url && (
          <a class="button" href={new URL(item.export_url, location.href).pathname} download aria-label={`Download the export of ${made}`}>
            Download
          </a>
        )}
        {status === 'Ready' && (
          <button
            type="button"
            aria-label={`Delete the export of ${made}`}
            onClick={async () => {
              if (!(await confirmAction('Delete this export?', `The file of the export of ${made} will be deleted.`, 'Delete'))) return;
              try {
                await del(`/json/export/realm/${item.id}`);
              } catch (err) {
                reportError(err);
              }
            }}
          >
            Delete
          </button>
        )}
      </div>
    </li>
  );
}

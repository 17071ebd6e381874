import { useEffect, useState } from 'preact/hooks';
import { del, get } from '../api';
import { ActionsHeader } from '../admin/forms';
import { realmSettings } from '../channels/state';
import { confirmAction } from '../ui/Confirm';
import { reportError } from '../ui/Toasts';

/**
 * Personal settings' uploaded files: what the person uploaded, with its date, size and the
 * messages it is in, the space the organization's uploads take against its quota, and a
 * delete (after asking; the messages keep a link that no longer opens).
 */

interface Attachment {
  id: number;
  name: string;
  path_id: string;
  size: number;
  create_time: number;
  message_ids?: number[];
  messages?: Array<{ id: number }>;
}

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** A size as people read it: "912 bytes", "1.4 MB" (steps of 1024). */
function humanSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
  return `${number} ${UNITS[unit]}`;
}

const DATE = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

function messageIds(file: Attachment): number[] {
  return file.message_ids ?? file.messages?.map((m) => m.id) ?? [];
}

export function UploadedFiles() {
  const [files, setFiles] = useState<Attachment[] | null>(null);
  const [used, setUsed] = useState(0);
  const load = () =>
    get<{ attachments: Attachment[]; upload_space_used: number }>('/json/attachments').then((answer) => {
      setFiles([...answer.attachments].sort((a, b) => b.create_time - a.create_time));
      setUsed(answer.upload_space_used);
    }, reportError);
  useEffect(() => void load(), []);
  const remove = async (file: Attachment) => {
    const ok = await confirmAction(`Delete ${file.name}?`, 'The file is deleted for everyone; messages that link to it keep a link that no longer opens.', 'Delete');
    if (!ok) return;
    try {
      await del(`/json/attachments/${file.id}`);
      await load();
    } catch (err) {
      reportError(err);
    }
  };
  const quotaMib = realmSettings.value.realm_upload_quota_mib;
  const quota = typeof quotaMib === 'number' ? quotaMib * 1024 * 1024 : null;
  if (files === null) return <p aria-busy="true">Loading your files…</p>;
  return (
    <div class="uploaded-files">
      <p>
        {quota === null ? (
          <>The organization’s uploads use {humanSize(used)}.</>
        ) : (
          <>
            The organization’s uploads use {humanSize(used)} of {humanSize(quota)}.{' '}
            <meter min={0} max={quota} value={used} aria-label="Upload space used" />
          </>
        )}
      </p>
      {files.length === 0 ? (
        <p>You have not uploaded any files.</p>
      ) : (
        <table class="settings-table files-table">
          <caption class="visually-hidden">Your uploaded files</caption>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Uploaded</th>
              <th scope="col">Size</th>
              <th scope="col">Messages</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {files.map((file) => {
              const ids = messageIds(file);
              return (
                <tr key={file.id}>
                  <th scope="row">
                    <a href={`/user_uploads/${file.path_id.split('/').map(encodeURIComponent).join('/')}`} target="_blank" rel="noopener noreferrer">
                      {file.name}
                    </a>
                  </th>
                  <td>{DATE.format(file.create_time * 1000)}</td>
                  <td>{humanSize(file.size)}</td>
                  <td>
                    {ids.length === 0
                      ? 'None'
                      : ids.map((id, i) => (
                          <span key={id}>
                            {i > 0 && ', '}
                            <a href={`#narrow/id/${id}`}>Message {i + 1}</a>
                          </span>
                        ))}
                  </td>
                  <td>
                    <button type="button" aria-label={`Delete ${file.name}`} onClick={() => void remove(file)}>
                      Delete
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}

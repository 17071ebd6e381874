import { useEffect, useRef, useState } from 'preact/hooks';
import { Modal } from '../ui/Modal';
import { get } from '../api';
import { realmSettings } from '../channels/state';
import { CustomTimeForm } from '../compose/CustomTime';
import { createReminder, describeTime, suggestedTimes } from '../compose/scheduled';
import { reportError, showNotice } from '../ui/Toasts';
import { avatarUrlOf } from '../people/avatar-url';
import { Avatar } from '../people/Avatar';
import { channelName, userName, users } from '../state';
import type { Message } from '../types';
import { messageDialog, rawContent } from './actions';
import { enhanceRenderedContent } from './MessageRow';
import { session } from '../state';

interface Version {
  user_id: number | null;
  timestamp: number;
  topic: string;
  content: string;
  rendered_content: string;
  prev_topic?: string;
  prev_content?: string;
  prev_rendered_content?: string;
  stream?: number;
  prev_stream?: number;
}

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

type HtmlDiff = (before: string, after: string) => string;

/** A move's from and to, the old struck out and the new marked, as Zulip shows them. */
function Change({ what, from, to }: { what: string; from: string; to: string }) {
  return (
    <p class="history-change">
      {what}: <del>{from}</del> → <ins>{to}</ins>
    </p>
  );
}

/**
 * One version of the message: who changed it and when, the channel and topic it moved between,
 * and its content with the words inserted and deleted since the version before marked.
 */
function VersionEntry({ version, first, htmlDiff }: { version: Version; first: boolean; htmlDiff: HtmlDiff }) {
  const content = useRef<HTMLDivElement>(null);
  const contentChanged = first || version.prev_content !== undefined;
  const html = first || version.prev_rendered_content === undefined ? version.rendered_content : htmlDiff(version.prev_rendered_content, version.rendered_content);
  useEffect(() => {
    if (content.current) enhanceRenderedContent(content.current, session.value?.user_id ?? 0);
  }, [version]);
  const topicName = (topic: string) => topic || 'general chat';
  return (
    <li class="history-entry">
      <p class="history-who">
        {first ? 'Sent' : contentChanged ? 'Edited' : 'Moved'} by {version.user_id ? userName(version.user_id) : 'an unknown user'}, <time dateTime={new Date(version.timestamp * 1000).toISOString()}>{WHEN.format(version.timestamp * 1000)}</time>
      </p>
      {version.prev_stream !== undefined && (
        <Change what="Channel" from={`#${channelName(version.prev_stream) ?? version.prev_stream}`} to={`#${channelName(version.stream ?? 0) ?? version.stream}`} />
      )}
      {version.prev_topic !== undefined && <Change what="Topic" from={topicName(version.prev_topic)} to={topicName(version.topic)} />}
      {contentChanged && <div class="message-content rendered_markdown history-content" ref={content} dangerouslySetInnerHTML={{ __html: html }} />}
    </li>
  );
}

const READ_RECEIPTS_REFRESH_MS = 60_000;

/**
 * Who has read the message (`GET /messages/{id}/read_receipts`), by name, asked again every
 * minute while the dialog is open, as Zulip's is. People who chose not to share read receipts
 * are left out by the server.
 */
function ReadReceipts({ message }: { message: Message }) {
  const [readers, setReaders] = useState<number[] | null>(null);
  const [error, setError] = useState('');
  const fromNotificationBot = message.sender_email.startsWith('notification-bot@');
  const enabled = realmSettings.value.realm_enable_read_receipts !== false;
  useEffect(() => {
    if (fromNotificationBot || !enabled) return;
    let stopped = false;
    const fetchReaders = () =>
      get<{ user_ids: number[] }>(`/json/messages/${message.id}/read_receipts`).then(
        (answer) => {
          if (stopped) return;
          setError('');
          setReaders(answer.user_ids);
        },
        (err: Error) => !stopped && setError(`Failed to load read receipts: ${err.message}`),
      );
    void fetchReaders();
    const timer = setInterval(fetchReaders, READ_RECEIPTS_REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [message.id, enabled]);
  if (fromNotificationBot) return <p>Read receipts are not available for Notification Bot messages.</p>;
  if (!enabled) return <p role="alert">Read receipts are disabled for this organization.</p>;
  if (error) return <p role="alert">{error}</p>;
  if (readers === null) return <p>Loading…</p>;
  if (readers.length === 0) return <p>No one has read this message yet.</p>;
  const people = readers.map((id) => ({ id, user: users.value.get(id) })).sort((a, b) => userName(a.id).localeCompare(userName(b.id)));
  return (
    <>
      <p>
        This message has been read by {readers.length} {readers.length === 1 ? 'person' : 'people'}:
      </p>
      <ul class="read-receipts" aria-label="Read by">
        {people.map(({ id, user }) => (
          <li key={id}>
            <Avatar url={user ? avatarUrlOf(user) : null} size={24} />
            <span>{userName(id)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * "Remind me about this" (Zulip 11's reminders): one of Zulip's suggested times, or one's own,
 * and a note if wanted; Notification Bot then sends the person a direct message about it.
 */
function RemindMe({ message, onDone }: { message: Message; onDone: () => void }) {
  const [note, setNote] = useState('');
  const remind = (time: Date) => {
    createReminder(message.id, time, note).then(() => {
      onDone();
      showNotice(`You will be reminded ${describeTime(time).replace(/^(Today|Tomorrow)/, (day) => day.toLowerCase())}.`);
    }, reportError);
  };
  return (
    <div class="remind-me">
      <label class="remind-note">
        Note (optional)
        <textarea rows={2} autoFocus maxLength={MAX_REMINDER_NOTE_LENGTH} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
      </label>
      <div class="reschedule" role="group" aria-label="When">
        {suggestedTimes().map((time) => (
          <button type="button" key={time.getTime()} onClick={() => remind(time)}>
            {describeTime(time)}
          </button>
        ))}
      </div>
      <CustomTimeForm label="A time of your choice" field="Remind me at" submit="Set reminder" onPick={remind} />
    </div>
  );
}

/** Zulip's longest reminder note. */
const MAX_REMINDER_NOTE_LENGTH = 1000;

const DIALOG_TITLES = { source: 'Message source', history: 'Message edit history', receipts: 'Read receipts', remind: 'Remind me about this' };

/** The dialog of one message's Markdown source, edit history (`GET /messages/{id}/history`) or read receipts. */
export function MessageDialog() {
  const shown = messageDialog.value;
  const [source, setSource] = useState<string | null>(null);
  const [history, setHistory] = useState<{ versions: Version[]; htmlDiff: HtmlDiff } | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!shown) return;
    setSource(null);
    setHistory(null);
    setError('');
    const failed = (err: Error) => setError(err.message);
    if (shown.kind === 'source') rawContent(shown.message).then(setSource, failed);
    else if (shown.kind === 'history') {
      // The diff and its library come with the first history opened, not with the page.
      Promise.all([get<{ message_history: Version[] }>(`/json/messages/${shown.message.id}/history`), import('./historyDiff')]).then(
        ([answer, diff]) => setHistory({ versions: answer.message_history, htmlDiff: diff.htmlDiff }),
        failed,
      );
    }
  }, [shown]);
  if (!shown) return null;
  const close = () => {
    // Emptied, so that the next message's dialog does not open on this one's text.
    setSource(null);
    setHistory(null);
    messageDialog.value = null;
  };
  return (
    <Modal
      title={DIALOG_TITLES[shown.kind]}
      class="message-dialog"
      onClose={close}
      // Shift+V, which opens the read receipts, closes them too, as in Zulip.
      onKeyDown={(e) => {
        if (shown.kind === 'receipts' && e.key === 'V' && !e.ctrlKey && !e.metaKey && !e.altKey) close();
      }}
    >
      {shown.kind === 'receipts' && <ReadReceipts message={shown.message} />}
      {shown.kind === 'remind' && <RemindMe message={shown.message} onDone={close} />}
      {error && <p role="alert">{error}</p>}
      {shown.kind === 'source' && source === null && !error && <p>Loading…</p>}
      {source !== null && <pre class="message-source" tabIndex={0} aria-label="Markdown source">{source}</pre>}
      {shown.kind === 'history' && history === null && !error && <p>Loading…</p>}
      {history && (
        <ol class="history-list">
          {history.versions.map((version, i) => (
            <VersionEntry key={i} version={version} first={i === 0} htmlDiff={history.htmlDiff} />
          ))}
        </ol>
      )}
    </Modal>
  );
}

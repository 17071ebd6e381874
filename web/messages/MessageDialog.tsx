import { useEffect, useRef, useState } from 'preact/hooks';
import { Modal } from '../ui/Modal';
import { get } from '../api';
import { channelName, userName } from '../state';
import { messageDialog, rawContent } from './actions';
import { enhanceRenderedContent } from './MessageRow';
import { session } from '../state';

interface Version {
  user_id: number;
  timestamp: number;
  topic: string;
  content: string;
  rendered_content: string;
  prev_topic?: string;
  prev_content?: string;
  stream?: number;
  prev_stream?: number;
}

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One version of the message: what changed (content, topic, channel), who changed it and when. */
function VersionEntry({ version, first }: { version: Version; first: boolean }) {
  const content = useRef<HTMLDivElement>(null);
  const contentChanged = first || version.prev_content !== undefined;
  useEffect(() => {
    if (content.current) enhanceRenderedContent(content.current, session.value?.user_id ?? 0);
  }, [version]);
  return (
    <li class="history-entry">
      <p class="history-who">
        {first ? 'Sent' : contentChanged ? 'Edited' : 'Moved'} by {userName(version.user_id)}, <time dateTime={new Date(version.timestamp * 1000).toISOString()}>{WHEN.format(version.timestamp * 1000)}</time>
      </p>
      {version.prev_stream !== undefined && (
        <p class="history-change">
          Channel: #{channelName(version.prev_stream) ?? version.prev_stream} → #{channelName(version.stream ?? 0) ?? version.stream}
        </p>
      )}
      {version.prev_topic !== undefined && (
        <p class="history-change">
          Topic: {version.prev_topic || 'general chat'} → {version.topic || 'general chat'}
        </p>
      )}
      {contentChanged && <div class="message-content rendered_markdown" ref={content} dangerouslySetInnerHTML={{ __html: version.rendered_content }} />}
    </li>
  );
}

/** The dialog of one message's Markdown source or edit history (`GET /messages/{id}/history`). */
export function MessageDialog() {
  const shown = messageDialog.value;
  const [source, setSource] = useState<string | null>(null);
  const [history, setHistory] = useState<Version[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!shown) return;
    setSource(null);
    setHistory(null);
    setError('');
    const failed = (err: Error) => setError(err.message);
    if (shown.kind === 'source') rawContent(shown.message).then(setSource, failed);
    else get<{ message_history: Version[] }>(`/json/messages/${shown.message.id}/history`).then((answer) => setHistory(answer.message_history), failed);
  }, [shown]);
  if (!shown) return null;
  const close = () => {
    // Emptied, so that the next message's dialog does not open on this one's text.
    setSource(null);
    setHistory(null);
    messageDialog.value = null;
  };
  return (
    <Modal title={shown.kind === 'source' ? 'Message source' : 'Message edit history'} class="message-dialog" onClose={close}>
      {error && <p role="alert">{error}</p>}
      {shown.kind === 'source' && source === null && !error && <p>Loading…</p>}
      {source !== null && <pre class="message-source" tabIndex={0} aria-label="Markdown source">{source}</pre>}
      {shown.kind === 'history' && history === null && !error && <p>Loading…</p>}
      {history && (
        <ol class="history-list">
          {history.map((version, i) => (
            <VersionEntry key={i} version={version} first={i === 0} />
          ))}
        </ol>
      )}
    </Modal>
  );
}

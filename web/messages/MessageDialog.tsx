import { useEffect, useRef, useState } from 'preact/hooks';
import { Modal } from '../ui/Modal';
import { get } from '../api';
import { channelName, userName } from '../state';
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

/** The dialog of one message's Markdown source or edit history (`GET /messages/{id}/history`). */
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
    else {
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
    <Modal title={shown.kind === 'source' ? 'Message source' : 'Message edit history'} class="message-dialog" onClose={close}>
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

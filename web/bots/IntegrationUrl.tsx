import { useEffect, useState } from 'preact/hooks';
import { get } from '../api';
import { subscriptions } from '../state';
import { Modal } from '../ui/Modal';
import { reportError } from '../ui/Toasts';
import { incomingIntegrations, realmUrl } from './state';

/**
 * The integration URL builder of an incoming-webhook bot, as Zulip's: choose one of the
 * server's integrations, where its messages go (a channel, or a direct message to the bot's
 * owner when none), a topic that overrides the integration's own, its URL options, and
 * optionally the events to send; the URL to give the other service comes out, to copy.
 */
export function IntegrationUrlDialog({ botId, botName, onClose }: { botId: number; botName: string; onClose: () => void }) {
  const [apiKey, setApiKey] = useState('');
  const [integrationName, setIntegrationName] = useState('');
  const [channelId, setChannelId] = useState('');
  const [topicWanted, setTopicWanted] = useState(false);
  const [topic, setTopic] = useState('');
  const [options, setOptions] = useState<Record<string, string>>({});
  const [filtering, setFiltering] = useState(false);
  const [events, setEvents] = useState<Set<string>>(new Set());
  const [copied, setCopied] = useState('');
  useEffect(() => {
    get<{ api_key: string }>(`/json/bots/${botId}/api_key`).then((answer) => setApiKey(answer.api_key), reportError);
  }, [botId]);

  const integrations = [...incomingIntegrations.value].sort((a, b) => a.display_name.localeCompare(b.display_name));
  const integration = integrations.find((i) => i.name === integrationName);
  const channels = [...subscriptions.value.values()].sort((a, b) => a.name.localeCompare(b.name));
  const eventTypes = [...new Set(integration?.all_event_types ?? [])].sort();

  const choose = (name: string) => {
    // Another integration starts from a clean slate: its options and events are its own.
    setIntegrationName(name);
    setOptions({});
    setFiltering(false);
    setEvents(new Set());
    setCopied('');
  };

  const params = new URLSearchParams({ api_key: apiKey });
  if (channelId) {
    params.set('stream', channelId);
    if (topicWanted && topic.trim()) params.set('topic', topic.trim());
  }
  for (const [key, value] of Object.entries(options)) if (value) params.set(key, value);
  if (filtering && events.size > 0) params.set('only_events', JSON.stringify([...events].sort()));
  const incomplete = !integration || !apiKey || (topicWanted && !topic.trim()) || (filtering && events.size === 0);
  const url = integration ? `${realmUrl()}/api/v1/external/${integration.name}?${params.toString()}` : '';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('URL copied.');
    } catch {
      // Without clipboard access (an insecure page, a refusal) the URL is selected to copy by hand.
      (document.getElementById('integration-url-output') as HTMLTextAreaElement | null)?.select();
      setCopied('Selected: copy it with Ctrl+C.');
    }
  };

  return (
    <Modal
      title={`Integration URL for ${botName}`}
      class="integration-url-dialog"
      onClose={onClose}
      buttons={
        <>
          <button type="button" onClick={onClose}>
            Close
          </button>
          <button type="button" class="primary" disabled={incomplete} onClick={copy}>
            Copy URL
          </button>
        </>
      }
    >
      <div class="integration-url-form">
        <label>
          Integration
          <select value={integrationName} onChange={(e) => choose(e.currentTarget.value)}>
            <option value="">Choose an integration</option>
            {integrations.map((i) => (
              <option key={i.name} value={i.name}>
                {i.display_name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Where to send its messages
          <select
            value={channelId}
            disabled={!integration}
            onChange={(e) => {
              setChannelId(e.currentTarget.value);
              if (!e.currentTarget.value) setTopicWanted(false);
            }}
          >
            <option value="">Direct message to the bot’s owner</option>
            {channels.map((c) => (
              <option key={c.stream_id} value={String(c.stream_id)}>
                #{c.name}
              </option>
            ))}
          </select>
        </label>
        <label class="inline">
          <input type="checkbox" checked={topicWanted} disabled={!channelId} onChange={(e) => setTopicWanted(e.currentTarget.checked)} />
          Send all its messages to one topic
        </label>
        {topicWanted && (
          <label>
            Topic
            <input value={topic} maxLength={60} onInput={(e) => setTopic(e.currentTarget.value)} />
          </label>
        )}
        {integration?.url_options?.map((option) =>
          option.input_type === 'boolean' ? (
            <label class="inline" key={option.key}>
              <input
                type="checkbox"
                checked={options[option.key] === 'true'}
                onChange={(e) => setOptions({ ...options, [option.key]: e.currentTarget.checked ? 'true' : '' })}
              />
              {option.label}
            </label>
          ) : (
            <label key={option.key}>
              {option.label}
              <input value={options[option.key] ?? ''} onInput={(e) => setOptions({ ...options, [option.key]: e.currentTarget.value })} />
            </label>
          ),
        )}
        {eventTypes.length > 0 && (
          <label class="inline">
            <input type="checkbox" checked={filtering} onChange={(e) => setFiltering(e.currentTarget.checked)} />
            Send only some events
          </label>
        )}
        {filtering && (
          <fieldset class="integration-events">
            <legend>Events to send</legend>
            {eventTypes.map((name) => (
              <label class="inline" key={name}>
                <input
                  type="checkbox"
                  checked={events.has(name)}
                  onChange={(e) => {
                    const next = new Set(events);
                    if (e.currentTarget.checked) next.add(name);
                    else next.delete(name);
                    setEvents(next);
                  }}
                />
                {name}
              </label>
            ))}
          </fieldset>
        )}
        <label>
          URL
          <textarea id="integration-url-output" readOnly rows={4} value={url} placeholder="Choose an integration to get its URL." />
        </label>
        <p role="status" class="hint">
          {copied}
        </p>
      </div>
    </Modal>
  );
}

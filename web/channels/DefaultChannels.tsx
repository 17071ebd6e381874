import { useState } from 'preact/hooks';
import { del, post } from '../api';
import { channels, realm } from '../state';
import { reportError } from '../ui/Toasts';
import { channelSettingsHash, defaultChannelIds } from './state';
import { addChannelStyles } from './styles';

addChannelStyles();

/**
 * The organization's default channels: the ones new people are subscribed to when they join.
 * Administrators add and remove them; private channels cannot be default ones.
 */
export function DefaultChannels() {
  const [adding, setAdding] = useState('');
  const admin = realm.value.isAdmin;
  const defaults = [...defaultChannelIds.value]
    .map((id) => channels.value.get(id))
    .filter((c) => c !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name));
  const addable = [...channels.value.values()]
    .filter((c) => !c.invite_only && !c.is_archived && !defaultChannelIds.value.has(c.stream_id))
    .sort((a, b) => a.name.localeCompare(b.name));
  const add = async (event: Event) => {
    event.preventDefault();
    if (!adding) return;
    try {
      await post('/json/default_streams', { stream_id: Number(adding) });
      setAdding('');
    } catch (err) {
      reportError(err);
    }
  };
  return (
    <div class="channel-settings default-channels">
      <p class="hint">New people joining the organization are subscribed to these channels.</p>
      {admin && (
        <form onSubmit={add} aria-label="Add a default channel">
          <label>
            Channel to add
            <select value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
              <option value="">Choose a public channel</option>
              {addable.map((c) => (
                <option key={c.stream_id} value={String(c.stream_id)}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" class="primary" disabled={!adding}>
            Add
          </button>
        </form>
      )}
      <ul class="item-list" aria-label="Default channels list">
        {defaults.map((c) => (
          <li key={c.stream_id}>
            <span>
              <a href={channelSettingsHash(c.stream_id, c.name)}>#{c.name}</a>
              {c.description && <p class="description">{c.description}</p>}
            </span>
            {admin && (
              <button type="button" aria-label={`Remove ${c.name} from the default channels`} onClick={() => del('/json/default_streams', { stream_id: c.stream_id }).catch(reportError)}>
                Remove
              </button>
            )}
          </li>
        ))}
        {defaults.length === 0 && <li>No default channels: new people start with none.</li>}
      </ul>
    </div>
  );
}

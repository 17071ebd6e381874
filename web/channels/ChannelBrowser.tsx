import { Icon } from '../ui/icons';
import { useEffect, useState } from 'preact/hooks';
import { del, get, post } from '../api';
import { hashNames } from '../app/nav';
import { narrowHash } from '../app/narrow';
import { holdsRealmSetting } from './permissions';
import { channelSettingsHash } from './state';
import type { Channel } from '../types';
import { channels, subscriptions } from '../state';
import { reportError } from '../ui/Toasts';

type Shown = 'subscribed' | 'not-subscribed' | 'all';
const SHOWN: Array<[Shown, string]> = [
  ['subscribed', 'Subscribed'],
  ['not-subscribed', 'Not subscribed'],
  ['all', 'All channels'],
];

/**
 * Every channel one can see, by subscription as Zulip's tabs sort them: subscribe, unsubscribe,
 * mute; and a new channel, behind its button, for those the organization lets create one.
 */
export function ChannelBrowser() {
  const [filter, setFilter] = useState('');
  const [tab, setTab] = useState<Shown>('all');
  const [creating, setCreating] = useState(false);
  const mayCreatePublic = holdsRealmSetting('realm_can_create_public_channel_group');
  const mayCreatePrivate = holdsRealmSetting('realm_can_create_private_channel_group');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [privacy, setPrivacy] = useState<'public' | 'private'>(mayCreatePublic ? 'public' : 'private');
  // Archived channels are not in the app's state; they are asked for when wanted (to unarchive one).
  const [archived, setArchived] = useState<Channel[] | null>(null);
  const [showArchived, setShowArchived] = useState(false);
  useEffect(() => {
    if (!showArchived) return;
    get<{ streams: Channel[] }>('/json/streams', { exclude_archived: false })
      .then((answer) => setArchived(answer.streams.filter((c) => c.is_archived)))
      .catch(reportError);
  }, [showArchived]);
  const shown = showArchived ? (archived ?? []) : [...channels.value.values()].filter((c) => !c.is_archived);
  const list = shown
    .filter((c) => tab === 'all' || showArchived || subscriptions.value.has(c.stream_id) === (tab === 'subscribed'))
    .filter((c) => c.name.toLowerCase().includes(filter.toLowerCase()))
    .sort((a, b) => a.name.localeCompare(b.name));

  const subscribe = (channelName: string) => post('/json/users/me/subscriptions', { subscriptions: [{ name: channelName }] }).catch(reportError);
  const unsubscribe = (channelName: string) => del('/json/users/me/subscriptions', { subscriptions: [channelName] }).catch(reportError);
  // A muted channel stays subscribed but counts only the topics unmuted or followed in it, as in Zulip.
  const setMuted = (streamId: number, muted: boolean) =>
    post('/json/users/me/subscriptions/properties', { subscription_data: [{ stream_id: streamId, property: 'is_muted', value: muted }] }).catch(reportError);
  const create = async (event: Event) => {
    event.preventDefault();
    try {
      await post('/json/users/me/subscriptions', { subscriptions: [{ name, description }], invite_only: privacy === 'private' });
      setName('');
      setDescription('');
      setCreating(false);
    } catch (err) {
      reportError(err);
    }
  };

  return (
    <div class="panel" role="region" aria-label="Channels">
      <div class="view-title-row">
        <h1 class="view-title">Channels</h1>
        {(mayCreatePublic || mayCreatePrivate) && (
          <button type="button" class={creating ? '' : 'primary'} aria-expanded={creating} onClick={() => setCreating(!creating)}>
            {creating ? 'Cancel' : 'Create a channel'}
          </button>
        )}
      </div>
      {creating && (
        <form class="create-channel" onSubmit={create} aria-label="Create a channel">
          <h2>Create a channel</h2>
          <label>
            Name
            <input required autoFocus maxLength={60} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label>
            Description
            <input value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
          </label>
          <fieldset>
            <legend>Who can join</legend>
            {mayCreatePublic && (
              <label class="inline">
                <input type="radio" name="privacy" checked={privacy === 'public'} onChange={() => setPrivacy('public')} /> Public: anyone in the organization
              </label>
            )}
            {mayCreatePrivate && (
              <label class="inline">
                <input type="radio" name="privacy" checked={privacy === 'private'} onChange={() => setPrivacy('private')} /> Private: by invitation
              </label>
            )}
          </fieldset>
          <button type="submit" class="primary">
            Create
          </button>
        </form>
      )}
      <div class="tabs" role="group" aria-label="Which channels">
        {SHOWN.map(([value, label]) => (
          <button key={value} type="button" class="tab-button" aria-pressed={tab === value} disabled={showArchived} onClick={() => setTab(value)}>
            {label}
          </button>
        ))}
      </div>
      <input type="search" placeholder="Filter channels" aria-label="Filter channels" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      <label class="inline">
        <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.currentTarget.checked)} /> Show archived channels instead
      </label>
      <ul class="channel-list">
        {list.map((channel) => {
          const subscription = subscriptions.value.get(channel.stream_id);
          const subscribed = subscription !== undefined;
          const muted = Boolean(subscription?.is_muted);
          return (
            <li key={channel.stream_id}>
              <div>
                <a href={narrowHash([{ operator: 'channel', operand: String(channel.stream_id) }], hashNames)}>
                  {channel.invite_only ? <Icon name="lock" size={14} /> : '#'}
                  {channel.name}
                </a>
                {channel.description && <p class="description">{channel.description}</p>}
              </div>
              <div class="channel-actions">
                <a class="button-link" href={channelSettingsHash(channel.stream_id, channel.name)} aria-label={`Settings of ${channel.name}`}>
                  Settings
                </a>
                {!channel.is_archived && subscribed && (
                  <button type="button" aria-label={`${muted ? 'Unmute' : 'Mute'} ${channel.name}`} onClick={() => setMuted(channel.stream_id, !muted)}>
                    {muted ? 'Unmute' : 'Mute'}
                  </button>
                )}
                {!channel.is_archived && (
                <button type="button" class={subscribed ? '' : 'primary'} onClick={() => (subscribed ? unsubscribe(channel.name) : subscribe(channel.name))}>
                  {subscribed ? 'Unsubscribe' : 'Subscribe'}
                </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

import { Icon } from '../ui/icons';
import { useEffect, useRef, useState } from 'preact/hooks';
import { del, get, post } from '../api';
import { goToNarrow, hashNames } from '../app/nav';
import { narrowHash } from '../app/narrow';
import { holdsRealmSetting, mayMakeWebPublic } from './permissions';
import { creationPrivacyParams, PRIVACY, type Privacy } from './privacy';
import { channelSettingsHash } from './state';
import type { Channel } from '../types';
import { channelByName, channels, session, subscriptions, userName } from '../state';
import { chosenCandidate, newSubscribers, subscriberCandidates } from './candidates';
import { reportError, showNotice } from '../ui/Toasts';
import { addChannelStyles } from './styles';

addChannelStyles();

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
      {creating && <NewChannelForm mayCreatePublic={mayCreatePublic} mayCreatePrivate={mayCreatePrivate} onCreated={() => setCreating(false)} />}
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

/**
 * A new channel: its name (focused as the form opens), description, who can access it, and its
 * first subscribers, oneself to begin with, as Zulip's form has them. Once the channel's
 * subscription reaches the page, a creator among its subscribers is taken to it, as in Zulip.
 */
function NewChannelForm({ mayCreatePublic, mayCreatePrivate, onCreated }: { mayCreatePublic: boolean; mayCreatePrivate: boolean; onCreated: () => void }) {
  const self = session.value?.user_id ?? 0;
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  // What the organization lets this person create, public first, as Zulip's form orders it.
  const offered = PRIVACY.filter(({ value }) => (value === 'web-public' ? mayMakeWebPublic() : value === 'public' ? mayCreatePublic : mayCreatePrivate));
  const [privacy, setPrivacy] = useState<Privacy>(mayCreatePublic ? 'public' : 'private-shared');
  const [chosen, setChosen] = useState<number[]>([self]);
  const [adding, setAdding] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  useEffect(() => nameInput.current?.focus(), []);
  // The creator's subscription comes as an event, after (or before) the request's answer.
  const createdChannel = created === null ? undefined : [...subscriptions.value.values()].find((s) => s.name === created);
  useEffect(() => {
    if (!createdChannel) return;
    onCreated();
    goToNarrow([{ operator: 'channel', operand: String(createdChannel.stream_id) }]);
  }, [createdChannel?.stream_id]);

  const chosenSet = new Set(chosen);
  const candidates = subscriberCandidates(chosenSet);
  const add = () => {
    const candidate = chosenCandidate(adding, candidates);
    if (!candidate) {
      if (adding.trim()) showNotice(`No one matches “${adding}”: choose a person or a group from the list.`);
      return;
    }
    setChosen([...chosen, ...newSubscribers(candidate, chosenSet)]);
    setAdding('');
  };
  const create = async (event: Event) => {
    event.preventDefault();
    const channelName = name.trim();
    // The same request would subscribe to a channel of that name (Zulip's form refuses it too).
    if (channelByName(channelName)) {
      showNotice(`A channel named “${channelName}” already exists.`);
      return;
    }
    try {
      await post('/json/users/me/subscriptions', { subscriptions: [{ name: channelName, description }], ...creationPrivacyParams(privacy), principals: chosen });
      if (chosenSet.has(self)) setCreated(channelName);
      else {
        showNotice(`#${channelName} was created.`);
        onCreated();
      }
    } catch (err) {
      reportError(err);
    }
  };
  return (
    <form class="create-channel" onSubmit={create} aria-label="Create a channel">
      <h2>Create a channel</h2>
      <label>
        Name
        <input ref={nameInput} required maxLength={60} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Description
        <input value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
      <fieldset>
        <legend>Who can access the channel</legend>
        {offered.map((option) => (
          <label class="inline privacy-option" key={option.value}>
            <input type="radio" name="privacy" checked={privacy === option.value} onChange={() => setPrivacy(option.value)} /> {option.label}
            <span class="hint">{option.hint}</span>
          </label>
        ))}
      </fieldset>
      <fieldset class="new-subscribers">
        <legend>Subscribers</legend>
        <ul class="item-list" aria-label="Subscribers to add">
          {chosen.map((userId) => (
            <li key={userId}>
              <span>
                {userName(userId)}
                {userId === self && ' (you)'}
              </span>
              <button type="button" aria-label={`Leave out ${userName(userId)}`} onClick={() => setChosen(chosen.filter((id) => id !== userId))}>
                Leave out
              </button>
            </li>
          ))}
        </ul>
        <div class="add-subscriber">
          <label>
            Add a person or a group
            <input
              list="new-channel-candidates"
              value={adding}
              placeholder="Name, email or group"
              onInput={(e) => setAdding(e.currentTarget.value)}
              onKeyDown={(e) => {
                // Enter here adds the person; the form is sent by its button.
                if (e.key !== 'Enter') return;
                e.preventDefault();
                add();
              }}
            />
          </label>
          <datalist id="new-channel-candidates">
            {candidates.map((c) => (
              <option key={c.text} value={c.text} />
            ))}
          </datalist>
          <button type="button" onClick={add}>
            Add
          </button>
        </div>
      </fieldset>
      <button type="submit" class="primary">
        Create
      </button>
    </form>
  );
}

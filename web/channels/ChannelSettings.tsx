import { avatarUrlOf } from '../people/avatar-url';
import { useEffect, useState } from 'preact/hooks';
import { del, get, patch, post } from '../api';
import { Avatar } from '../people/Avatar';
import { channels, realm, session, subscriptions, updateMap, users } from '../state';
import type { Channel, GroupSettingValue, Subscription } from '../types';
import { confirmAction } from '../ui/Confirm';
import { reportError, showNotice } from '../ui/Toasts';
import {
  canAddSubscribers,
  canAdminister,
  canRemoveSubscribers,
  groupChoices,
  holdsRealmSetting,
  mayMakeWebPublic,
  PERMISSION_SECTIONS,
} from './permissions';
import { GroupSettingField } from './GroupSettingField';
import { notificationSettings, type NotificationSetting } from '../app/notifications';
import { channelSettingsHash, channelSubscribers, defaultChannelIds } from './state';
import { addChannelStyles } from './styles';
import { chosenCandidate, newSubscribers, subscriberCandidates } from './candidates';
import { PRIVACY, privacyOf, privacyParams, type Privacy } from './privacy';
import type { ChannelTab } from './state';

addChannelStyles();

/**
 * The channel as shown: the copy in the app's state (kept live by events) over the one fetched
 * when the screen opened. An archived channel leaves the app's state, so it is fetched again.
 */
function useChannel(channelId: number): { channel: Channel | undefined; missing: string } {
  const live = channels.value.get(channelId);
  const [fetched, setFetched] = useState<Channel | undefined>(undefined);
  const [missing, setMissing] = useState('');
  useEffect(() => {
    if (live) return;
    get<{ stream: Channel }>(`/json/streams/${channelId}`)
      .then((answer) => setFetched(answer.stream))
      .catch((err: Error) => setMissing(err.message));
  }, [channelId, live === undefined]);
  return { channel: live ?? fetched, missing };
}

/** Channel settings: general (name, privacy, permissions, archiving), personal, subscribers. */
export function ChannelSettings({ channelId, tab }: { channelId: number; tab: ChannelTab }) {
  const { channel, missing } = useChannel(channelId);
  if (!channel) {
    return (
      <div class="panel channel-settings" role="region" aria-label="Channel settings">
        <a href="#channels">← All channels</a>
        {missing && <p role="alert">This channel cannot be shown: {missing}</p>}
      </div>
    );
  }
  const sub = subscriptions.value.get(channelId);
  const tabLink = (name: ChannelTab, label: string) => (
    <a href={channelSettingsHash(channelId, channel.name, name)} aria-current={tab === name ? 'page' : undefined}>
      {label}
    </a>
  );
  return (
    <div class="panel channel-settings" role="region" aria-label={`Settings of ${channel.name}`}>
      <a href="#channels" class="back-link">
        ← All channels
      </a>
      <h1 class="view-title">
        <span class="channel-swatch" style={{ backgroundColor: sub?.color ?? 'var(--text-soft)' }} aria-hidden="true">
          {channel.invite_only ? '🔒' : '#'}
        </span>{' '}
        {channel.name}
      </h1>
      {channel.is_archived && (
        <p class="archived-note" role="status">
          This channel is archived: it is read-only and hidden from channel lists.
        </p>
      )}
      <nav class="tabs" aria-label="Channel settings sections">
        {tabLink('general', 'General')}
        {tabLink('personal', 'Personal')}
        {tabLink('subscribers', 'Subscribers')}
      </nav>
      {tab === 'general' && <General channel={channel} />}
      {tab === 'personal' && <Personal channel={channel} sub={sub} />}
      {tab === 'subscribers' && <Subscribers channel={channel} />}
    </div>
  );
}

function General({ channel }: { channel: Channel }) {
  const editable = canAdminister(channel) && !channel.is_archived;
  const [name, setName] = useState(channel.name);
  const [description, setDescription] = useState(channel.description);
  const [privacy, setPrivacy] = useState<Privacy>(privacyOf(channel));
  // What another person changed shows at once, unless this person is changing it too.
  useEffect(() => setName(channel.name), [channel.name]);
  useEffect(() => setDescription(channel.description), [channel.description]);
  useEffect(() => setPrivacy(privacyOf(channel)), [privacyOf(channel)]);
  const [saved, setSaved] = useState('');
  const path = `/json/streams/${channel.stream_id}`;

  const saveDetails = async (event: Event) => {
    event.preventDefault();
    const changes: Record<string, string> = {};
    if (name.trim() !== channel.name) changes.new_name = name.trim();
    if (description !== channel.description) changes.description = description;
    if (Object.keys(changes).length === 0) return;
    try {
      await patch(path, changes);
      setSaved('Name and description saved.');
    } catch (err) {
      reportError(err);
    }
  };
  const savePrivacy = async (event: Event) => {
    event.preventDefault();
    try {
      await patch(path, privacyParams(privacy));
      setSaved('Privacy saved.');
    } catch (err) {
      reportError(err);
    }
  };
  const changeGroupSetting = (setting: string, to: GroupSettingValue) =>
    patch(path, { [setting]: { new: to, old: channel[setting as `can_${string}_group`] } }).catch(reportError);
  const archive = async () => {
    const yes = await confirmAction(
      `Archive ${channel.name}?`,
      'Its messages stay, but nobody can post to it, and it leaves everyone’s channel list. An administrator can unarchive it.',
      'Archive',
    );
    if (yes) await del(path).catch(reportError);
  };
  const unarchive = () => patch(path, { is_archived: false }).catch(reportError);
  const webPublicOffered = mayMakeWebPublic() || channel.is_web_public;
  const isDefault = defaultChannelIds.value.has(channel.stream_id);

  return (
    <>
      {!editable && !channel.is_archived && <p class="hint">Only the channel’s administrators can change these settings.</p>}
      <form class="channel-details" onSubmit={saveDetails}>
        <h2>Name and description</h2>
        <label>
          Channel name
          <input required maxLength={60} value={name} disabled={!editable} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Description
          <textarea rows={3} maxLength={1024} value={description} disabled={!editable} onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
        {editable && (
          <button type="submit" class="primary">
            Save name and description
          </button>
        )}
      </form>
      <form onSubmit={savePrivacy}>
        <fieldset disabled={!editable}>
          <legend>Who can access the channel</legend>
          {PRIVACY.filter((option) => option.value !== 'web-public' || webPublicOffered).map((option) => (
            <label class="inline privacy-option" key={option.value}>
              <input type="radio" name="channel-privacy" checked={privacy === option.value} onChange={() => setPrivacy(option.value)} /> {option.label}
              <span class="hint">{option.hint}</span>
            </label>
          ))}
        </fieldset>
        {editable && privacy !== privacyOf(channel) && (
          <button type="submit" class="primary">
            Save privacy
          </button>
        )}
      </form>
      {realm.value.isAdmin && !channel.is_archived && (
        <label class="inline">
          <input
            type="checkbox"
            checked={isDefault}
            disabled={Boolean(channel.invite_only)}
            onChange={(e) => patch(path, { is_default_stream: e.currentTarget.checked }).catch(reportError)}
          />{' '}
          Default channel: new people join it {channel.invite_only && '(private channels cannot be)'}
        </label>
      )}
      <p class="saved" role="status">
        {saved}
      </p>
      <h2>Permissions</h2>
      {PERMISSION_SECTIONS.map((section) => (
        <fieldset class="permissions" key={section.title}>
          <legend>{section.title}</legend>
          {section.hint && <p class="hint">{section.hint}</p>}
          {section.settings
            .filter(({ name: setting }) => channel[setting as `can_${string}_group`] !== undefined)
            .map(({ name: setting, label }) => (
              <GroupSettingField
                key={setting}
                label={label}
                value={channel[setting as `can_${string}_group`]}
                choices={groupChoices(setting)}
                // Deleting messages is also governed by who may set that policy for the organization.
                editable={editable && (!setting.startsWith('can_delete_') || realm.value.isAdmin || holdsRealmSetting('realm_can_set_delete_message_policy_group'))}
                onChange={(to) => changeGroupSetting(setting, to)}
              />
            ))}
        </fieldset>
      ))}
      {canAdminister(channel) && (
        <section aria-label="Archiving">
          <h2>Archiving</h2>
          {channel.is_archived ? (
            <button type="button" class="primary" onClick={unarchive}>
              Unarchive channel
            </button>
          ) : (
            <button type="button" class="danger" onClick={archive}>
              Archive channel
            </button>
          )}
        </section>
      )}
    </>
  );
}

const NOTIFICATIONS: Array<{ property: keyof Subscription; fallback: NotificationSetting; label: string }> = [
  { property: 'desktop_notifications', fallback: 'enable_stream_desktop_notifications', label: 'Desktop notifications' },
  { property: 'audible_notifications', fallback: 'enable_stream_audible_notifications', label: 'Audible desktop notifications' },
  { property: 'push_notifications', fallback: 'enable_stream_push_notifications', label: 'Mobile notifications' },
  { property: 'email_notifications', fallback: 'enable_stream_email_notifications', label: 'Email notifications' },
  { property: 'wildcard_mentions_notify', fallback: 'wildcard_mentions_notify', label: 'Notify for @all and @channel mentions' },
];

function Personal({ channel, sub }: { channel: Channel; sub: Subscription | undefined }) {
  // What was just chosen, shown until the server's event brings it: a redraw meanwhile (another
  // setting's event) would otherwise put the old value back under the pointer.
  const [chosen, setChosen] = useState<Record<string, unknown>>({});
  useEffect(() => {
    if (sub) setChosen((was) => Object.fromEntries(Object.entries(was).filter(([property, value]) => sub[property as keyof Subscription] !== value)));
  }, [sub]);
  if (!sub) {
    return (
      <section aria-label="Personal settings">
        <p>Your own settings (colour, pinning, muting, notifications) apply once you are subscribed.</p>
        {!channel.is_archived && (
          <button type="button" class="primary" onClick={() => post('/json/users/me/subscriptions', { subscriptions: [{ name: channel.name }] }).catch(reportError)}>
            Subscribe
          </button>
        )}
      </section>
    );
  }
  const id = channel.stream_id;
  const current = (property: string) => (property in chosen ? chosen[property] : sub[property as keyof Subscription]);
  const change = (property: string, value: unknown) => {
    setChosen((was) => ({ ...was, [property]: value }));
    post('/json/users/me/subscriptions/properties', { subscription_data: [{ stream_id: id, property, value }] }).catch((err: unknown) => {
      setChosen(({ [property]: _refused, ...rest }) => rest);
      reportError(err);
    });
  };
  // The person's general settings, which a channel's own values override.
  const defaults = notificationSettings.value;
  const effective = (n: (typeof NOTIFICATIONS)[number]) => (current(n.property) as boolean | null | undefined) ?? defaults[n.fallback];
  const differs = NOTIFICATIONS.some((n) => effective(n) !== defaults[n.fallback]);
  const resetNotifications = () => {
    for (const n of NOTIFICATIONS) if (effective(n) !== defaults[n.fallback]) change(n.property, defaults[n.fallback]);
  };
  return (
    <section aria-label="Personal settings" class="personal-settings">
      <h2>Display</h2>
      <label class="inline">
        <input type="color" value={current('color') as string} onChange={(e) => change('color', e.currentTarget.value)} /> Channel colour
      </label>
      <label class="inline">
        <input type="checkbox" checked={Boolean(current('pin_to_top'))} onChange={(e) => change('pin_to_top', e.currentTarget.checked)} /> Pin to the top of the channel list
      </label>
      <label class="inline">
        <input type="checkbox" checked={Boolean(current('is_muted'))} onChange={(e) => change('is_muted', e.currentTarget.checked)} /> Mute the channel
      </label>
      <fieldset>
        <legend>Notifications</legend>
        <p class="hint">These override your general notification settings for this channel.</p>
        {NOTIFICATIONS.map((n) => (
          <label class="inline" key={n.property}>
            <input type="checkbox" checked={effective(n)} onChange={(e) => change(n.property, e.currentTarget.checked)} /> {n.label}
          </label>
        ))}
        {differs && (
          <button type="button" onClick={resetNotifications}>
            Reset to my general settings
          </button>
        )}
      </fieldset>
      <button type="button" onClick={() => del('/json/users/me/subscriptions', { subscriptions: [channel.name] }).catch(reportError)}>
        Unsubscribe
      </button>
    </section>
  );
}

function Subscribers({ channel }: { channel: Channel }) {
  const id = channel.stream_id;
  const list = channelSubscribers.value.get(id);
  const [filter, setFilter] = useState('');
  const [adding, setAdding] = useState('');
  useEffect(() => {
    get<{ subscribers: number[] }>(`/json/streams/${id}/members`)
      .then((answer) => updateMap(channelSubscribers, (copy) => copy.set(id, new Set(answer.subscribers))))
      .catch(reportError);
  }, [id]);
  const self = session.value?.user_id ?? 0;
  const mayAdd = canAddSubscribers(channel) && !channel.is_archived;
  const mayRemove = canRemoveSubscribers(channel) && !channel.is_archived;

  const subscribed = list ?? new Set<number>();
  const candidates = subscriberCandidates(subscribed);
  const add = async (event: Event) => {
    event.preventDefault();
    const chosen = chosenCandidate(adding, candidates);
    if (!chosen) {
      showNotice(`No one matches “${adding}”: choose a person or a group from the list.`);
      return;
    }
    const principals = newSubscribers(chosen, subscribed);
    if (principals.length === 0) {
      setAdding('');
      return;
    }
    try {
      await post('/json/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals });
      setAdding('');
    } catch (err) {
      reportError(err);
    }
  };
  const remove = (userId: number) => del('/json/users/me/subscriptions', { subscriptions: [channel.name], principals: [userId] }).catch(reportError);

  const wanted = filter.trim().toLowerCase();
  const shown = [...(list ?? [])]
    .map((userId) => users.value.get(userId))
    .filter((u) => u !== undefined && (!wanted || u.full_name.toLowerCase().includes(wanted) || u.email.toLowerCase().includes(wanted)))
    .sort((a, b) => a!.full_name.localeCompare(b!.full_name));

  return (
    <section aria-label="Subscribers" class="subscribers">
      {mayAdd && (
        <form class="add-subscribers" onSubmit={add} aria-label="Add subscribers">
          <label>
            Add a person or a group
            <input list={`subscriber-candidates-${id}`} value={adding} placeholder="Name, email or group" onInput={(e) => setAdding(e.currentTarget.value)} />
          </label>
          <datalist id={`subscriber-candidates-${id}`}>
            {candidates.map((c) => (
              <option key={c.text} value={c.text} />
            ))}
          </datalist>
          <button type="submit" class="primary">
            Add
          </button>
        </form>
      )}
      <input type="search" aria-label="Filter subscribers" placeholder="Filter subscribers" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      <p class="hint" aria-live="polite">
        {list === undefined ? 'Loading subscribers…' : `${list.size} ${list.size === 1 ? 'subscriber' : 'subscribers'}`}
      </p>
      <ul class="item-list subscriber-list">
        {shown.map((u) => (
          <li key={u!.user_id}>
            <span class="subscriber">
              <Avatar url={avatarUrlOf(u!)} size={24} class="avatar small" />
              <span>
                {u!.full_name}
                {u!.user_id === self && ' (you)'}
                <small> {u!.email}</small>
              </span>
            </span>
            {!channel.is_archived && (mayRemove || u!.user_id === self) && (
              <button type="button" aria-label={`Unsubscribe ${u!.full_name}`} onClick={() => remove(u!.user_id)}>
                Unsubscribe
              </button>
            )}
          </li>
        ))}
      </ul>
      <a href={`#narrow/channel/${channel.stream_id}`}>Go to the channel</a>
    </section>
  );
}

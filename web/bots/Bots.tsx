import { avatarUrlOf } from '../people/avatar-url';
import { useState } from 'preact/hooks';
import { del, get, patch, post, type Params } from '../api';
import { realmSettings } from '../channels/state';
import { Avatar } from '../people/Avatar';
import { channels, session, userName, users } from '../state';
import type { User } from '../types';
import { confirmAction } from '../ui/Confirm';
import { Modal } from '../ui/Modal';
import { reportError, showNotice } from '../ui/Toasts';
import { holdsRealmSetting } from '../channels/permissions';
import { IntegrationUrlDialog } from './IntegrationUrl';
import { administeredBots, realmUrl } from './state';
import { addBotStyles } from './styles';

addBotStyles();

/** Zulip's bot types, as the API numbers them. */
export const BotType = { generic: 1, incoming: 2, outgoing: 3 } as const;

const TYPE_LABELS: Record<number, string> = {
  [BotType.generic]: 'Generic',
  [BotType.incoming]: 'Incoming webhook',
  [BotType.outgoing]: 'Outgoing webhook',
  4: 'Embedded',
};

/** An outgoing webhook's message format (`interface`). */
const INTERFACES: Array<[number, string]> = [
  [1, 'Generic (Zulip’s format)'],
  [2, 'Slack-compatible'],
];

/** The organization's bots as the people's list has them (not the system's own bots). */
function botAccounts(): User[] {
  return [...users.value.values()]
    .filter((u) => u.is_bot && !(u as { is_system_bot?: boolean }).is_system_bot)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
}

/** The person's own bots: create, edit, keys, zuliprc, integration URLs, deactivate. */
export function YourBots() {
  const self = session.value?.user_id;
  return <BotList bots={botAccounts().filter((bot) => bot.bot_owner_id === self)} showOwner={false} />;
}

/** Every bot of the organization, for its administrators. */
export function AllBots() {
  return <BotList bots={botAccounts()} showOwner />;
}

/** Whether the person may create bots of a type, as the organization's settings say. */
function mayCreate(type: number): boolean {
  if (holdsRealmSetting('realm_can_create_bots_group')) return true;
  return type === BotType.incoming && holdsRealmSetting('realm_can_create_write_only_bots_group');
}

function BotList({ bots, showOwner }: { bots: User[]; showOwner: boolean }) {
  const [creating, setCreating] = useState(false);
  const active = bots.filter((bot) => bot.is_active);
  const inactive = bots.filter((bot) => !bot.is_active);
  const canCreate = mayCreate(BotType.incoming);
  return (
    <div class="bots-page">
      {canCreate && (
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          Add a new bot
        </button>
      )}
      {creating && <BotDialog onClose={() => setCreating(false)} />}
      <section aria-labelledby="bots-active">
        <h3 id="bots-active">Active bots</h3>
        {active.length === 0 ? <p class="hint">No bots yet.</p> : (
          <ul class="bot-list">
            {active.map((bot) => (
              <BotCard key={bot.user_id} bot={bot} showOwner={showOwner} />
            ))}
          </ul>
        )}
      </section>
      {inactive.length > 0 && (
        <section aria-labelledby="bots-inactive">
          <h3 id="bots-inactive">Deactivated bots</h3>
          <ul class="bot-list">
            {inactive.map((bot) => (
              <BotCard key={bot.user_id} bot={bot} showOwner={showOwner} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** The bot's API key, fetched when asked for (only its administrators may read it). */
async function apiKeyOf(botId: number): Promise<string> {
  return (await get<{ api_key: string }>(`/json/bots/${botId}/api_key`)).api_key;
}

/**
 * A zuliprc file as Zulip's tools read it: the bot's email, key and server, and for an outgoing
 * webhook bot the token its requests carry (the Botserver checks it).
 */
function zuliprc(bot: User, key: string): string {
  const token = administeredBots.value.get(bot.user_id)?.services?.[0]?.token;
  return `[api]\nemail=${bot.email}\nkey=${key}\nsite=${realmUrl()}\n${token ? `token=${token}\n` : ''}`;
}

async function downloadZuliprc(bot: User): Promise<void> {
  try {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([zuliprc(bot, await apiKeyOf(bot.user_id))], { type: 'application/octet-stream' }));
    link.download = 'zuliprc';
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (err) {
    reportError(err);
  }
}

function BotCard({ bot, showOwner }: { bot: User; showOwner: boolean }) {
  const [key, setKey] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [buildingUrl, setBuildingUrl] = useState(false);
  const administered = administeredBots.value.has(bot.user_id);
  const service = administeredBots.value.get(bot.user_id)?.services?.[0];
  const name = bot.full_name;
  const toggleKey = async () => {
    if (key !== null) return setKey(null);
    try {
      setKey(await apiKeyOf(bot.user_id));
    } catch (err) {
      reportError(err);
    }
  };
  const regenerate = async () => {
    const yes = await confirmAction(`New API key for ${name}?`, 'Whatever uses the current key stops working until it is given the new one.', 'Make a new key');
    if (!yes) return;
    try {
      setKey((await post<{ api_key: string }>(`/json/bots/${bot.user_id}/api_key/regenerate`)).api_key);
    } catch (err) {
      reportError(err);
    }
  };
  const deactivate = async () => {
    const yes = await confirmAction(`Deactivate ${name}?`, 'It can no longer send or read messages. It can be reactivated later.', 'Deactivate');
    if (yes) await del(`/json/bots/${bot.user_id}`).catch(reportError);
  };
  const reactivate = () => post(`/json/users/${bot.user_id}/reactivate`).catch(reportError);
  return (
    <li class="bot-card" aria-label={name}>
      <div class="bot-head">
        <Avatar url={avatarUrlOf(bot)} size={40} />
        <div class="bot-who">
          <strong>{name}</strong>
          <small>{bot.email}</small>
          <small>
            {TYPE_LABELS[bot.bot_type ?? 1] ?? 'Bot'}
            {showOwner && bot.bot_owner_id ? ` · owned by ${userName(bot.bot_owner_id)}` : ''}
            {!bot.is_active && ' · deactivated'}
          </small>
          {service && <small class="bot-endpoint">Endpoint: {service.base_url}</small>}
        </div>
      </div>
      {administered && (
        <div class="bot-actions" role="group" aria-label={`Actions for ${name}`}>
          {bot.is_active ? (
            <>
              <button type="button" onClick={() => setEditing(true)} aria-label={`Edit ${name}`}>
                Edit
              </button>
              <button type="button" aria-expanded={key !== null} onClick={toggleKey} aria-label={`Show API key of ${name}`}>
                API key
              </button>
              <button type="button" onClick={() => downloadZuliprc(bot)} aria-label={`Download zuliprc of ${name}`}>
                Download zuliprc
              </button>
              {bot.bot_type === BotType.incoming && (
                <button type="button" onClick={() => setBuildingUrl(true)} aria-label={`Integration URL for ${name}`}>
                  Integration URL
                </button>
              )}
              <button type="button" class="danger" onClick={deactivate} aria-label={`Deactivate ${name}`}>
                Deactivate
              </button>
            </>
          ) : (
            <button type="button" onClick={reactivate} aria-label={`Reactivate ${name}`}>
              Reactivate
            </button>
          )}
        </div>
      )}
      {key !== null && bot.is_active && (
        <div class="bot-key">
          <label>
            API key of {name}
            <input readOnly value={key} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <button type="button" onClick={regenerate}>
            Regenerate key
          </button>
        </div>
      )}
      {editing && <BotDialog bot={bot} onClose={() => setEditing(false)} />}
      {buildingUrl && <IntegrationUrlDialog botId={bot.user_id} botName={name} onClose={() => setBuildingUrl(false)} />}
    </li>
  );
}

/** Creates a bot, or edits one (its name, avatar and, for an outgoing webhook, its endpoint). */
function BotDialog({ bot, onClose }: { bot?: User; onClose: () => void }) {
  const service = bot ? administeredBots.value.get(bot.user_id)?.services?.[0] : undefined;
  const types = [BotType.generic, BotType.incoming, BotType.outgoing].filter(mayCreate);
  const [type, setType] = useState<number>(bot?.bot_type ?? types[0] ?? BotType.incoming);
  const [name, setName] = useState(bot?.full_name ?? '');
  const [username, setUsername] = useState('');
  const [avatar, setAvatar] = useState<File | null>(null);
  const [endpoint, setEndpoint] = useState(service?.base_url ?? '');
  const [format, setFormat] = useState(service?.interface ?? 1);
  const record = bot ? administeredBots.value.get(bot.user_id) : undefined;
  const [ownerId, setOwnerId] = useState(bot?.bot_owner_id ?? null);
  const [sendingChannel, setSendingChannel] = useState(record?.default_sending_stream ?? '');
  const [eventsChannel, setEventsChannel] = useState(record?.default_events_register_stream ?? '');
  const [allPublic, setAllPublic] = useState(record?.default_all_public_streams ?? false);
  const [busy, setBusy] = useState(false);
  const domain = (realmSettings.value.realm_bot_domain as string | undefined) ?? location.hostname;
  const outgoing = type === BotType.outgoing;
  const submit = async (event: Event) => {
    event.preventDefault();
    const params: Params = bot
      ? {
          full_name: name,
          ...(outgoing ? { service_payload_url: endpoint, service_interface: format } : {}),
          // Only what changed: a new owner, and the defaults Zulip's API keeps for a bot ('' for none).
          ...(ownerId !== null && ownerId !== bot.bot_owner_id ? { bot_owner_id: ownerId } : {}),
          ...(sendingChannel !== (record?.default_sending_stream ?? '') ? { default_sending_stream: sendingChannel } : {}),
          ...(eventsChannel !== (record?.default_events_register_stream ?? '') ? { default_events_register_stream: eventsChannel } : {}),
          ...(allPublic !== (record?.default_all_public_streams ?? false) ? { default_all_public_streams: allPublic } : {}),
        }
      : { bot_type: type, full_name: name, short_name: username, ...(outgoing ? { payload_url: endpoint, interface_type: format } : {}) };
    // With an avatar the request is multipart, as Zulip's clients send it.
    let body: Params = params;
    if (avatar) {
      const form = new FormData();
      for (const [field, value] of Object.entries(params)) form.append(field, typeof value === 'string' ? value : JSON.stringify(value));
      form.append('file', avatar, avatar.name);
      body = form as unknown as Params;
    }
    setBusy(true);
    try {
      if (bot) await patch(`/json/bots/${bot.user_id}`, body);
      else await post('/json/bots', body);
      showNotice(bot ? `${name} saved.` : `${name} created.`);
      onClose();
    } catch (err) {
      reportError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={bot ? `Edit ${bot.full_name}` : 'Add a new bot'} class="bot-dialog" onClose={onClose}>
      <form onSubmit={submit}>
        {!bot && (
          <label>
            Bot type
            <select value={String(type)} onChange={(e) => setType(Number(e.currentTarget.value))}>
              {types.map((t) => (
                <option key={t} value={String(t)}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Name
          <input required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        {!bot && (
          <label>
            Username
            <span class="bot-username">
              <input
                required
                pattern="[A-Za-z0-9_.\-]+"
                aria-label="Username"
                aria-describedby="bot-email-suffix"
                value={username}
                onInput={(e) => setUsername(e.currentTarget.value)}
              />
              <span id="bot-email-suffix">-bot@{domain}</span>
            </span>
          </label>
        )}
        {bot && <BotOwnerAndDefaults bot={bot} owner={[ownerId, setOwnerId]} sending={[sendingChannel, setSendingChannel]} events={[eventsChannel, setEventsChannel]} allPublic={[allPublic, setAllPublic]} />}
        <label>
          Avatar (optional)
          <input type="file" accept="image/*" onChange={(e) => setAvatar(e.currentTarget.files?.[0] ?? null)} />
        </label>
        {outgoing && (
          <>
            <label>
              Endpoint URL
              <input type="url" required value={endpoint} placeholder="https://example.com/bot" onInput={(e) => setEndpoint(e.currentTarget.value)} />
            </label>
            <label>
              Message format
              <select value={String(format)} onChange={(e) => setFormat(Number(e.currentTarget.value))}>
                {INTERFACES.map(([value, label]) => (
                  <option key={value} value={String(value)}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          </>
        )}
        <div class="modal-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={busy}>
            {bot ? 'Save changes' : 'Create bot'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

type Choice<T> = [T, (value: T) => void];

/**
 * A bot's owner (any active person; the owner answers for it and administers it) and the
 * defaults Zulip keeps for it: the channel its messages go to when they name none, the channel
 * whose events it gets when it registers without saying, or every public channel's events.
 */
function BotOwnerAndDefaults({ bot, owner, sending, events, allPublic }: {
  bot: User;
  owner: Choice<number | null>;
  sending: Choice<string>;
  events: Choice<string>;
  allPublic: Choice<boolean>;
}) {
  const people = [...users.value.values()].filter((u) => u.is_active && !u.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name));
  const channelNames = [...channels.value.values()].filter((c) => !c.is_archived).map((c) => c.name).sort((a, b) => a.localeCompare(b));
  const channelChoice = (label: string, [value, setValue]: Choice<string>) => (
    <label>
      {label}
      <select value={value} onChange={(e) => setValue(e.currentTarget.value)}>
        <option value="">None</option>
        {[...new Set([...channelNames, ...(value ? [value] : [])])].map((channelName) => (
          <option key={channelName} value={channelName}>
            #{channelName}
          </option>
        ))}
      </select>
    </label>
  );
  const [ownerId, setOwnerId] = owner;
  return (
    <>
      <label>
        Owner
        <select value={ownerId === null ? '' : String(ownerId)} onChange={(e) => setOwnerId(Number(e.currentTarget.value))}>
          {ownerId === null && <option value="">No owner</option>}
          {people.map((person) => (
            <option key={person.user_id} value={String(person.user_id)}>
              {person.full_name}
            </option>
          ))}
        </select>
      </label>
      {bot.bot_type !== BotType.outgoing && channelChoice('Default channel for its messages', sending)}
      {bot.bot_type === BotType.generic && (
        <>
          {channelChoice('Default channel for its events', events)}
          <label class="inline">
            <input type="checkbox" checked={allPublic[0]} onChange={(e) => allPublic[1](e.currentTarget.checked)} /> Events from all public channels
          </label>
        </>
      )}
    </>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { del, get, post } from '../api';
import { defaultChannelIds } from '../channels/state';
import { channels, realm, subscriptions, userName } from '../state';
import { lazyComponent } from '../ui/lazy';
import { reportError, showNotice } from '../ui/Toasts';
import { addInvitationStyles } from './invitation-styles';
import { invitesChanged } from './invites-live';

addInvitationStyles();

/** The QR code's encoder is fetched only when someone shows a code. */
const InviteQr = lazyComponent(() => import('./InviteQr').then((m) => m.InviteQr), () => <div class="invite-qr" />);

interface Invite {
  id: number;
  invited_by_user_id: number;
  invited: number;
  expiry_date: number | null;
  invited_as: number;
  is_multiuse: boolean;
  link_url?: string;
  email?: string;
}

/** The roles an invitation gives, as Zulip's invitation form names them. */
const ROLES: Array<{ value: number; label: string }> = [
  { value: 600, label: 'Guests' },
  { value: 400, label: 'Members' },
  { value: 300, label: 'Moderators' },
  { value: 200, label: 'Organization administrators' },
  { value: 100, label: 'Organization owners' },
];
const ROLE_NAMES: Record<number, string> = { 600: 'Guest', 400: 'Member', 300: 'Moderator', 200: 'Administrator', 100: 'Owner' };

const DAY = 24 * 60;
/** Zulip's expiry choices, in minutes; null never expires; 'custom' asks for a number and unit. */
const EXPIRY_CHOICES: Array<{ value: string; label: string; minutes: number | null }> = [
  { value: '1440', label: '1 day', minutes: DAY },
  { value: '4320', label: '3 days', minutes: 3 * DAY },
  { value: '14400', label: '10 days', minutes: 10 * DAY },
  { value: '43200', label: '30 days', minutes: 30 * DAY },
  { value: 'never', label: 'Never expires', minutes: null },
];
const CUSTOM_UNITS: Array<{ value: string; label: string; minutes: number }> = [
  { value: 'minutes', label: 'minutes', minutes: 1 },
  { value: 'hours', label: 'hours', minutes: 60 },
  { value: 'days', label: 'days', minutes: DAY },
  { value: 'weeks', label: 'weeks', minutes: 7 * DAY },
];

function whenText(seconds: number): string {
  return new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

async function copyLink(link: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(link);
    showNotice('Invitation link copied.');
  } catch (err) {
    reportError(err);
  }
}

/**
 * The organization's invitations: a form to invite people (a reusable link, or email
 * invitations where the server can send mail) with their role, channels and expiry, and the
 * list of invitations still pending, kept live by the server's `invites_changed` events.
 */
export function Invitations() {
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [mailEnabled, setMailEnabled] = useState<boolean | null>(null);
  const [error, setError] = useState('');
  // The link just made, shown to copy while it is still pending (revoked, it goes).
  const [newLink, setNewLink] = useState<string | null>(null);
  const load = () =>
    get<{ invites: Invite[] }>('/json/invites').then(
      (answer) => setInvites(answer.invites.sort((a, b) => b.invited - a.invited)),
      (err: Error) => setError(err.message),
    );
  useEffect(() => {
    void load();
  }, [invitesChanged.value]);
  useEffect(() => {
    get<{ email_invitations_enabled?: boolean }>('/api/v1/server_settings').then(
      (settings) => setMailEnabled(settings.email_invitations_enabled === true),
      () => setMailEnabled(false),
    );
  }, []);
  return (
    <div class="invitations">
      <InviteForm mailEnabled={mailEnabled === true} onLink={setNewLink} />
      {newLink && invites?.some((invite) => invite.link_url === newLink) && <NewLink link={newLink} />}
      <section class="pending-invites" aria-labelledby="pending-invites-title">
        <h3 id="pending-invites-title">Pending invitations</h3>
        {error && <p role="alert">{error}</p>}
        {invites?.length === 0 && <p class="hint">No invitations are waiting to be used.</p>}
        {invites && invites.length > 0 && (
          <ul class="invite-list">
            {invites.map((invite) => (
              <PendingInvite key={invite.id} invite={invite} mailEnabled={mailEnabled === true} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function InviteForm({ mailEnabled, onLink }: { mailEnabled: boolean; onLink: (link: string) => void }) {
  const [kind, setKind] = useState<'link' | 'email'>('link');
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState(400);
  const [useDefaults, setUseDefaults] = useState(true);
  const [chosen, setChosen] = useState<Set<number>>(() => new Set(defaultChannelIds.value));
  const [expiry, setExpiry] = useState('14400');
  const [customAmount, setCustomAmount] = useState('7');
  const [customUnit, setCustomUnit] = useState('days');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState('');
  const [problem, setProblem] = useState('');

  const admin = realm.value.isAdmin;
  const roles = ROLES.filter((r) => (r.value === 100 ? realm.value.isOwner : r.value >= 400 || admin));
  // Channels the inviter can see and name: public ones, and private ones they are in.
  const choosable = [...channels.value.values()]
    .filter((c) => !c.is_archived && (!c.invite_only || subscriptions.value.has(c.stream_id)))
    .sort((a, b) => a.name.localeCompare(b.name));
  const email = kind === 'email' && mailEnabled;

  const expiresInMinutes = (): number | null | undefined => {
    if (expiry === 'custom') {
      const amount = Number(customAmount);
      if (!Number.isInteger(amount) || amount <= 0) return undefined;
      return amount * CUSTOM_UNITS.find((u) => u.value === customUnit)!.minutes;
    }
    return EXPIRY_CHOICES.find((c) => c.value === expiry)!.minutes;
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const minutes = expiresInMinutes();
    if (minutes === undefined) {
      setProblem('Enter a whole number greater than zero for the custom expiry.');
      return;
    }
    setProblem('');
    setSent('');
    setBusy(true);
    const params = {
      invite_as: role,
      invite_expires_in_minutes: minutes,
      include_realm_default_subscriptions: useDefaults,
      stream_ids: useDefaults ? [] : [...chosen],
    };
    try {
      if (email) {
        await post('/json/invites', { ...params, invitee_emails: emails });
        setSent('Invitations sent.');
        setEmails('');
      } else {
        const answer = await post<{ invite_link: string }>('/json/invites/multiuse', params);
        onLink(answer.invite_link);
      }
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="invite-form" aria-label="Invite people to the organization" onSubmit={submit}>
      <fieldset class="invite-kind">
        <legend>How to invite</legend>
        <label class="inline">
          <input type="radio" name="invite-kind" checked={!email} onChange={() => setKind('link')} />
          Invitation link
        </label>
        <label class="inline">
          <input type="radio" name="invite-kind" checked={email} disabled={!mailEnabled} onChange={() => setKind('email')} />
          Email invitations
        </label>
        {!mailEnabled && (
          <p class="hint" id="no-mail-hint">
            Email invitations need a mail server, and this server has none (its administrator can set one with --smtp). Share an invitation link instead.
          </p>
        )}
      </fieldset>
      {email && (
        <label>
          Email addresses
          <textarea
            name="invitee_emails"
            rows={3}
            required
            placeholder="one@example.com, another@example.com"
            value={emails}
            onInput={(e) => setEmails(e.currentTarget.value)}
          />
          <span class="hint">Separate addresses with commas or new lines.</span>
        </label>
      )}
      <label>
        Users join as
        <select value={String(role)} onChange={(e) => setRole(Number(e.currentTarget.value))}>
          {roles.map((r) => (
            <option key={r.value} value={String(r.value)}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      <fieldset class="invite-channels">
        <legend>Channels they join</legend>
        <label class="inline">
          <input type="checkbox" checked={useDefaults} onChange={(e) => setUseDefaults(e.currentTarget.checked)} />
          The organization's default channels
        </label>
        {useDefaults ? (
          <p class="hint">
            {defaultChannelIds.value.size === 0
              ? 'The organization has no default channels yet.'
              : [...defaultChannelIds.value].map((id) => `#${channels.value.get(id)?.name ?? id}`).join(', ')}
          </p>
        ) : (
          <div class="channel-choices" role="group" aria-label="Channels to subscribe them to">
            {choosable.map((c) => (
              <label class="inline" key={c.stream_id}>
                <input
                  type="checkbox"
                  checked={chosen.has(c.stream_id)}
                  onChange={(e) => {
                    const next = new Set(chosen);
                    if (e.currentTarget.checked) next.add(c.stream_id);
                    else next.delete(c.stream_id);
                    setChosen(next);
                  }}
                />
                #{c.name}
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <label>
        Invitation expires after
        <select value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)}>
          {EXPIRY_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
          <option value="custom">Custom</option>
        </select>
      </label>
      {expiry === 'custom' && (
        <div class="custom-expiry" role="group" aria-label="Custom expiry">
          <label>
            Amount
            <input type="number" min={1} step={1} required value={customAmount} onInput={(e) => setCustomAmount(e.currentTarget.value)} />
          </label>
          <label>
            Unit
            <select value={customUnit} onChange={(e) => setCustomUnit(e.currentTarget.value)}>
              {CUSTOM_UNITS.map((u) => (
                <option key={u.value} value={u.value}>
                  {u.label}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      {problem && (
        <p class="form-error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {email ? 'Send invitations' : 'Create invitation link'}
      </button>
      <p class="invite-sent" role="status">
        {sent}
      </p>
    </form>
  );
}

/** A link just made: to copy, or to show large as a QR code. */
function NewLink({ link }: { link: string }) {
  const [showQr, setShowQr] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    setCopied(false);
    setShowQr(false);
  }, [link]);
  return (
    <div class="new-invite-link" aria-label="New invitation link" role="group">
      <label>
        Invitation link
        <input readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      </label>
      <div class="link-actions">
        <button
          type="button"
          onClick={async () => {
            await copyLink(link);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy link'}
        </button>
        <button type="button" aria-expanded={showQr} onClick={() => setShowQr(!showQr)}>
          {showQr ? 'Hide QR code' : 'Show QR code'}
        </button>
      </div>
      {showQr && (
        <figure class="invite-qr-box">
          <InviteQr link={link} />
          <figcaption>Scan with a phone's camera to open the invitation.</figcaption>
        </figure>
      )}
    </div>
  );
}

function PendingInvite({ invite, mailEnabled }: { invite: Invite; mailEnabled: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const what = invite.is_multiuse ? 'Invitation link' : invite.email!;
  const act = async (action: () => Promise<unknown>, notice: string) => {
    try {
      await action();
      showNotice(notice);
    } catch (err) {
      reportError(err);
    }
  };
  return (
    <li class="pending-invite">
      <div class="invite-who">
        <strong>{what}</strong>
        {invite.link_url && <span class="invite-url">{invite.link_url}</span>}
        <span class="hint">
          {ROLE_NAMES[invite.invited_as] ?? 'Member'} · invited by {userName(invite.invited_by_user_id)} on {whenText(invite.invited)} ·{' '}
          {invite.expiry_date === null ? 'never expires' : `expires ${whenText(invite.expiry_date)}`}
        </span>
      </div>
      <div class="invite-actions">
        {invite.link_url && (
          <button type="button" aria-label={`Copy invitation link ${invite.id}`} onClick={() => copyLink(invite.link_url!)}>
            Copy
          </button>
        )}
        {!invite.is_multiuse && mailEnabled && (
          <button type="button" aria-label={`Resend invitation to ${invite.email}`} onClick={() => act(() => post(`/json/invites/${invite.id}/resend`), 'Invitation sent again.')}>
            Resend
          </button>
        )}
        {confirming ? (
          <>
            <button
              type="button"
              class="danger"
              onClick={() =>
                act(() => del(invite.is_multiuse ? `/json/invites/multiuse/${invite.id}` : `/json/invites/${invite.id}`), 'Invitation revoked.')
              }
            >
              Revoke it
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" aria-label={`Revoke ${invite.is_multiuse ? `invitation link ${invite.id}` : `invitation to ${invite.email}`}`} onClick={() => setConfirming(true)}>
            Revoke
          </button>
        )}
      </div>
    </li>
  );
}

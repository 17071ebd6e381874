import { useEffect, useState } from 'preact/hooks';
import { del, get, post } from '../api';
import { reportError } from '../ui/Toasts';

interface Invite {
  id: number;
  link_url?: string;
  expiry_date?: number | null;
  is_multiuse?: boolean;
}

/** The organization's invitation links: make one, copy it, revoke it. */
export function Invitations() {
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [error, setError] = useState('');
  const load = () =>
    get<{ invites: Invite[] }>('/json/invites').then(
      (answer) => setInvites(answer.invites.filter((i) => i.is_multiuse !== false)),
      (err: Error) => setError(err.message),
    );
  useEffect(() => {
    void load();
  }, []);
  return (
    <section aria-label="Invitation links">
      {error && <p>{error}</p>}
      <button
        type="button"
        class="primary"
        onClick={async () => {
          try {
            await post('/json/invites/multiuse', { invite_expires_in_minutes: 60 * 24 * 7, invite_as: 400 });
            await load();
          } catch (err) {
            reportError(err);
          }
        }}
      >
        Create an invitation link
      </button>
      <ul class="invite-list">
        {(invites ?? []).map((invite) => (
          <li key={invite.id}>
            <input readOnly aria-label="Invitation link" value={invite.link_url ?? ''} onFocus={(e) => e.currentTarget.select()} />
            <button
              type="button"
              onClick={async () => {
                try {
                  await del(`/json/invites/multiuse/${invite.id}`);
                  await load();
                } catch (err) {
                  reportError(err);
                }
              }}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

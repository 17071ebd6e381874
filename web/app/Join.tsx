import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, post, setCsrfToken } from '../api';
import { Field } from '../ui/Field';

/** Sign-up through an invitation link, /join/<key>/. */
export function Join({ inviteKey }: { inviteKey: string }) {
  const [invite, setInvite] = useState<{ realm_name?: string; email?: string | null } | null>(null);
  const [problem, setProblem] = useState('');
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    get<{ realm_name?: string; email?: string | null }>(`/accounts/invite/${encodeURIComponent(inviteKey)}`).then(
      (answer) => {
        setInvite(answer);
        if (answer.email) setEmail(answer.email);
        document.title = `Join ${answer.realm_name ?? 'Stoa'}`;
      },
      (err: unknown) => setProblem(err instanceof ApiError && err.status === 404 ? 'This invitation link is not valid, or has expired.' : (err as Error).message),
    );
  }, [inviteKey]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const answer = await post<{ csrf_token?: string }>('/accounts/register', { key: inviteKey, full_name: fullName, email, password });
      setCsrfToken(answer.csrf_token);
      location.assign('/');
    } catch (err) {
      setBusy(false);
      setError((err as Error).message);
    }
  };

  if (problem) {
    return (
      <main class="center-page">
        <div class="card">
          <h1>Invitation</h1>
          <p role="alert">{problem}</p>
          <a href="/login">Log in</a>
        </div>
      </main>
    );
  }
  return (
    <main class="center-page">
      <div class="card">
        <h1>Join {invite?.realm_name ?? '…'}</h1>
        <form onSubmit={submit}>
          <Field label="Full name" name="full_name" autoComplete="name" required value={fullName} onValue={setFullName} />
          <Field label="Email" type="email" name="email" autoComplete="email" required value={email} onValue={setEmail} />
          <Field label="Password" type="password" name="password" autoComplete="new-password" required minLength={6} value={password} onValue={setPassword} />
          {error && (
            <p class="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" class="primary" disabled={busy || !invite}>
            Sign up
          </button>
        </form>
        <p>
          Already have an account? <a href="/login">Log in</a>
        </p>
      </div>
    </main>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, post, setCsrfToken } from '../api';
import { Field } from '../ui/Field';

interface ServerSettings {
  realm_name?: string;
  realm_icon?: string;
  outgoing_email_enabled?: boolean;
}

/** The server's name and icon, for the login and sign-up pages. */
export function useServerSettings(): ServerSettings {
  const [settings, setSettings] = useState<ServerSettings>({});
  useEffect(() => {
    get<ServerSettings>('/api/v1/server_settings').then(setSettings, () => undefined);
  }, []);
  useEffect(() => {
    if (settings.realm_name) document.title = `Log in · ${settings.realm_name}`;
  }, [settings.realm_name]);
  return settings;
}

interface DevPerson {
  user_id: number;
  full_name: string;
  email: string;
  role: number;
}

const ROLE_NAMES: Record<number, string> = { 100: 'Owner', 200: 'Administrator', 300: 'Moderator', 400: 'Member', 600: 'Guest' };

/** With --dev, the people one can log in as with a click: each by name, with role and email. */
function DevLogin({ onError }: { onError: (message: string) => void }) {
  const [people, setPeople] = useState<DevPerson[] | null>(null);
  useEffect(() => {
    // Asked only of a server that says it has the development login, so others see no refusal.
    get<{ authentication_methods: { dev?: boolean } }>('/api/v1/server_settings')
      .then((settings) => (settings.authentication_methods.dev ? get<{ people: DevPerson[] }>('/accounts/dev_people') : null))
      .then(
        (answer) => setPeople(answer ? answer.people : null),
        () => setPeople(null),
      );
  }, []);
  if (!people || people.length === 0) return null;
  const logIn = async (person: DevPerson) => {
    try {
      const answer = await post<{ csrf_token?: string }>('/accounts/dev_login', { user_id: person.user_id });
      setCsrfToken(answer.csrf_token);
      location.assign(afterLogin());
    } catch (err) {
      onError(loginProblem(err, person.email));
    }
  };
  return (
    <section class="dev-login" aria-labelledby="dev-login-title">
      <h2 id="dev-login-title">Development login</h2>
      <ul>
        {people.map((person) => (
          <li key={person.user_id}>
            <button type="button" class="dev-person" onClick={() => logIn(person)}>
              <span class="dev-name">{person.full_name}</span>
              <span class="dev-role">{ROLE_NAMES[person.role] ?? 'Member'}</span>
              <span class="dev-email">{person.email}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the login page says when a login is refused, in words a person acts on. */
function loginProblem(err: unknown, email: string): string {
  if (err instanceof ApiError && err.code === 'USER_DEACTIVATED') {
    return `The account ${email} has been deactivated, so it cannot log in. An administrator of the organization can reactivate it.`;
  }
  if (err instanceof ApiError && err.code === 'REALM_DEACTIVATED') return 'This organization has been deactivated.';
  if (err instanceof ApiError && err.status === 401) return 'Wrong email or password.';
  if (err instanceof ApiError && err.status === 429) return 'Too many attempts. Wait a minute and try again.';
  return (err as Error).message;
}

export function Login() {
  const settings = useServerSettings();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Sent here because the account was deactivated (by an administrator, or by its person).
  const [error, setError] = useState(() =>
    new URLSearchParams(location.search).get('signed-out') === 'deactivated'
      ? 'Your account has been deactivated, so you have been logged out. An administrator of the organization can reactivate it.'
      : '',
  );
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const answer = await post<{ csrf_token?: string }>('/accounts/login', { username: email, password });
      setCsrfToken(answer.csrf_token);
      location.assign(afterLogin());
    } catch (err) {
      setBusy(false);
      setError(loginProblem(err, email));
    }
  };

  return (
    <main class="center-page">
      <div class="card">
        <h1>Log in to {settings.realm_name ?? 'Stoa'}</h1>
        <form onSubmit={submit} aria-describedby={error ? 'login-error' : undefined}>
          <Field label="Email" type="email" name="username" autoComplete="username" required value={email} onValue={setEmail} />
          <Field label="Password" type="password" name="password" autoComplete="current-password" required value={password} onValue={setPassword} />
          {error && (
            <p id="login-error" class="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Logging in…' : 'Log in'}
          </button>
        </form>
        {/* A new password is sent by email, so only a server that sends mail offers it. */}
        {settings.outgoing_email_enabled && (
          <p>
            <a href="/accounts/password/reset/">Forgot your password?</a>
          </p>
        )}
        <DevLogin onError={setError} />
      </div>
    </main>
  );
}

/**
 * Where to go once logged in: back to the page that sent the visitor here (`?next=`, as a
 * refused file does), if it is a path on this server; else the app, at the view in the hash.
 */
function afterLogin(): string {
  const next = new URLSearchParams(location.search).get('next');
  return next && /^\/(?![/\\])/.test(next) ? next : `/${location.hash}`;
}

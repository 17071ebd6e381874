import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, post, setCsrfToken } from '../api';
import { Field } from '../ui/Field';

interface ServerSettings {
  realm_name?: string;
  realm_icon?: string;
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

interface DevUser {
  email: string;
}

/** With --dev, the people one can log in as with a click. */
function DevLogin({ onError }: { onError: (message: string) => void }) {
  const [people, setPeople] = useState<DevUser[] | null>(null);
  useEffect(() => {
    // Asked only of a server that says it has the development login, so others see no refusal.
    get<{ authentication_methods: { dev?: boolean } }>('/api/v1/server_settings')
      .then((settings) => (settings.authentication_methods.dev ? get<{ direct_admins: DevUser[]; direct_users: DevUser[] }>('/api/v1/dev_list_users') : null))
      .then(
        (answer) => setPeople(answer ? [...answer.direct_admins, ...answer.direct_users] : null),
        () => setPeople(null),
      );
  }, []);
  if (!people || people.length === 0) return null;
  const logIn = async (email: string) => {
    try {
      const answer = await post<{ csrf_token?: string }>('/accounts/dev_login', { direct_email: email });
      setCsrfToken(answer.csrf_token);
      location.assign(`/${location.hash}`);
    } catch (err) {
      onError((err as Error).message);
    }
  };
  return (
    <section class="dev-login" aria-labelledby="dev-login-title">
      <h2 id="dev-login-title">Development login</h2>
      <ul>
        {people.map((person) => (
          <li key={person.email}>
            <button type="button" class="link-button" onClick={() => logIn(person.email)}>
              {person.email}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Login() {
  const settings = useServerSettings();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const answer = await post<{ csrf_token?: string }>('/accounts/login', { username: email, password });
      setCsrfToken(answer.csrf_token);
      location.assign(`/${location.hash}`);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 401) setError('Wrong email or password.');
      else if (err instanceof ApiError && err.status === 429) setError('Too many attempts. Wait a minute and try again.');
      else setError((err as Error).message);
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
        <DevLogin onError={setError} />
      </div>
    </main>
  );
}

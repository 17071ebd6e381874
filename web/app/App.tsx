import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, leaveDeactivated, setCsrfToken } from '../api';
import { takeEarlySession, type SessionAnswer } from './early';
import { session, theme } from '../state';
import { Join } from './Join';
import { Login } from './Login';
import { Shell } from './Shell';

/** Applies the theme: the system's (prefers-color-scheme, followed as it changes) unless the person chose one. */
function useTheme(): void {
  const chosen = theme.value;
  useEffect(() => {
    localStorage.setItem('stoa-theme', chosen);
    const system = matchMedia('(prefers-color-scheme: dark)');
    const apply = () => document.documentElement.setAttribute('data-theme', chosen === 'auto' ? (system.matches ? 'dark' : 'light') : chosen);
    apply();
    system.addEventListener('change', apply);
    return () => system.removeEventListener('change', apply);
  }, [chosen]);
}

/** The page: the login and sign-up screens by path, else the app once a session is known. */
export function App() {
  useTheme();
  const path = location.pathname.replace(/\/+$/, '');
  const [state, setState] = useState<'checking' | 'in' | 'error'>('checking');
  const [error, setError] = useState('');
  const join = /^\/join\/([^/]+)$/.exec(path);

  useEffect(() => {
    if (path === '/login' || join) return;
    (takeEarlySession() ?? get<SessionAnswer>('/accounts/session')).then(
      (answer) => {
        setCsrfToken(answer.csrf_token);
        session.value = { user_id: answer.user_id, email: answer.email, hasPassword: answer.has_password !== false };
        setState('in');
      },
      (err: unknown) => {
        if (err instanceof ApiError && err.code === 'USER_DEACTIVATED') return leaveDeactivated();
        if (err instanceof ApiError && (err.status === 401 || err.status === 404)) {
          // The address asked for (`#narrow/...`) goes along, and the login returns to it.
          location.replace(`/login${location.hash}`);
          return;
        }
        setError((err as Error).message);
        setState('error');
      },
    );
  }, []);

  if (path === '/login') return <Login />;
  if (join) return <Join inviteKey={decodeURIComponent(join[1])} />;
  if (state === 'error') {
    return (
      <main class="center-page" aria-live="polite">
        <p>Cannot load Stoa: {error}</p>
        <button type="button" onClick={() => location.reload()}>
          Try again
        </button>
      </main>
    );
  }
  if (state === 'checking') return <div class="loading-page" aria-busy="true" aria-label="Loading" />;
  return <Shell />;
}

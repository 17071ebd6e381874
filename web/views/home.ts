import { signal } from '@preact/signals';
import { patch } from '../api';
import { parseHash, type HashView } from '../app/narrow';
import { realm } from '../state';
import { HOME_HASH_KEY } from '../app/early';

/**
 * The person's home view (`web_home_view`): what an address without a view shows, and where
 * the organization's name in the top bar leads. Zulip 12 (feature level 454) calls the Recent
 * conversations view "recent"; earlier servers "recent_topics".
 */
export type HomeView = 'inbox' | 'recent' | 'all_messages';

export const homeView = signal<HomeView>('inbox');

/** Whether Escape, with nothing else to close, leads home (`web_escape_navigates_to_home_view`). */
export const escapeGoesHome = signal(true);

const HASHES: Record<HomeView, string> = { inbox: '#inbox', recent: '#recent', all_messages: '#feed' };

export function homeHash(): string {
  return HASHES[homeView.value];
}

/** Takes the settings as the server gives them (either name of the Recent view). */
export function applyHomeViewSettings(settings: Record<string, unknown>): void {
  const value = settings.web_home_view;
  if (value === 'recent_topics' || value === 'recent') homeView.value = 'recent';
  else if (value === 'inbox' || value === 'all_messages') homeView.value = value;
  // The next visit's first script asks for the home view's messages before the settings are in.
  localStorage.setItem(HOME_HASH_KEY, homeHash());
  if (typeof settings.web_escape_navigates_to_home_view === 'boolean') escapeGoesHome.value = settings.web_escape_navigates_to_home_view;
}

/** Whether the view shown is the home view. */
export function isHome(shown: HashView): boolean {
  return JSON.stringify(shown) === JSON.stringify(parseHash(homeHash()));
}

export async function chooseHomeView(chosen: HomeView): Promise<void> {
  const before = homeView.value;
  homeView.value = chosen;
  const value = chosen === 'recent' && realm.value.featureLevel < 454 ? 'recent_topics' : chosen;
  try {
    await patch('/json/settings', { web_home_view: value });
  } catch (err) {
    homeView.value = before;
    throw err;
  }
}

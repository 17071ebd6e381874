import { signal } from '@preact/signals';
import { patch } from '../api';
import { realm } from '../state';

/**
 * The person's home view (`web_home_view`): what an address without a view shows, and where
 * the organization's name in the top bar leads. Zulip 12 (feature level 454) calls the Recent
 * conversations view "recent"; earlier servers "recent_topics".
 */
export type HomeView = 'inbox' | 'recent' | 'all_messages';

export const homeView = signal<HomeView>('inbox');

const HASHES: Record<HomeView, string> = { inbox: '#inbox', recent: '#recent', all_messages: '#feed' };

export function homeHash(): string {
  return HASHES[homeView.value];
}

/** Takes the setting as the server gives it (either name of the Recent view). */
export function applyHomeViewSetting(value: unknown): void {
  if (value === 'recent_topics' || value === 'recent') homeView.value = 'recent';
  else if (value === 'inbox' || value === 'all_messages') homeView.value = value;
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

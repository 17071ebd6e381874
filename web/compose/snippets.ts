import { signal } from '@preact/signals';
import { updateMap } from '../state';

/** A saved snippet: text a person keeps to insert into messages (Zulip 10's saved snippets). */
export interface SavedSnippet {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

/** The person's saved snippets by ID, from the registration and `saved_snippets` events. */
export const savedSnippets = signal<Map<number, SavedSnippet>>(new Map());

export function applySavedSnippets(list: SavedSnippet[] | undefined): void {
  savedSnippets.value = new Map((list ?? []).map((snippet) => [snippet.id, snippet]));
}

export function onSavedSnippetsEvent(event: Record<string, unknown>): void {
  updateMap(savedSnippets, (copy) => {
    if (event.op === 'remove') copy.delete(event.saved_snippet_id as number);
    else {
      const snippet = event.saved_snippet as SavedSnippet;
      copy.set(snippet.id, snippet);
    }
  });
}

import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { presentSavedSnippet } from './queries';

function announce(stoa: Stoa, userId: number, op: 'add' | 'update', snippetId: number): void {
  const snippet = presentSavedSnippet(stoa.savedSnippets.get(userId, snippetId)!);
  sendEvent(stoa, { type: 'saved_snippets', op, saved_snippet: snippet }, [userId]);
}

export function createSavedSnippet(stoa: Stoa, userId: number, title: string, content: string): number {
  return write(stoa, () => {
    const id = stoa.savedSnippets.insert(userId, title, content, Math.floor(stoa.clock.now() / 1000));
    announce(stoa, userId, 'add', id);
    return id;
  });
}

/** Changes the title, the content or both; what is not given stays. */
export function editSavedSnippet(stoa: Stoa, userId: number, snippetId: number, changes: { title?: string; content?: string }): void {
  write(stoa, () => {
    const before = stoa.savedSnippets.get(userId, snippetId)!;
    stoa.savedSnippets.update(snippetId, changes.title ?? before.title, changes.content ?? before.content);
    announce(stoa, userId, 'update', snippetId);
  });
}

export function deleteSavedSnippet(stoa: Stoa, userId: number, snippetId: number): void {
  write(stoa, () => {
    stoa.savedSnippets.remove(snippetId);
    sendEvent(stoa, { type: 'saved_snippets', op: 'remove', saved_snippet_id: snippetId }, [userId]);
  });
}

import { signal } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';
import { goToNarrow, view } from '../app/nav';
import { parseSearch, searchText } from '../app/narrow';
import { loadTopics } from '../live';
import { feedTerms } from '../messages/feed';
import { channelByName, channelName, topics, userByEmail, users } from '../state';
import type { NarrowTerm } from '../types';
import { peopleMatching, suggest, type Suggestion } from './suggest';

/** A person named in a search (`sender:Othello`), as the email Zulip's operators take; or why not. */
function personOperand(text: string): string | Error {
  const name = text.trim();
  if (/^\d+$/.test(name) || name === 'me' || userByEmail(name)) return name;
  const lower = name.toLowerCase();
  const exact = [...users.value.values()].filter((u) => u.full_name.toLowerCase() === lower);
  const found = exact.length > 0 ? exact : peopleMatching(name);
  if (found.length === 1 || (found.length > 1 && exact.length === 1)) return found[0].email;
  if (found.length === 0) return new Error(`No one called “${name}” was found.`);
  return new Error(`Several people match “${name}”: ${found.slice(0, 4).map((u) => u.full_name).join(', ')}. Choose one from the suggestions.`);
}

/** The terms with people's and channels' names turned into what the server takes, or what could not be found. */
export function resolveNames(terms: NarrowTerm[]): NarrowTerm[] | Error {
  const resolved: NarrowTerm[] = [];
  for (const term of terms) {
    if (term.operator === 'sender' || term.operator === 'dm' || term.operator === 'dm-including') {
      const parts = term.operator === 'dm' ? term.operand.split(',') : [term.operand];
      const operands = parts.map(personOperand);
      const failed = operands.find((o): o is Error => o instanceof Error);
      if (failed) return failed;
      resolved.push({ ...term, operand: operands.join(',') });
    } else if (term.operator === 'channel' && !/^\d+$/.test(term.operand) && !channelByName(term.operand)) {
      return new Error(`There is no channel called “${term.operand}”.`);
    } else resolved.push(term);
  }
  return resolved;
}

/** What the box holds; a signal so that `/` can change it and move the focus in the same keystroke. */
const query = signal('');
let searchInput: HTMLInputElement | null = null;

/**
 * Asked for by `/`: the box takes the focus at once, ready for another term after the open narrow's.
 * It happens synchronously, so the keys typed straight after `/` land in the box, not on the page.
 */
export function focusSearchBox(): void {
  const text = query.value;
  if (text && !text.endsWith(' ')) {
    query.value = `${text} `;
    if (searchInput) searchInput.value = query.value;
  }
  searchInput?.focus();
}

/** The search box of the top bar, with suggestions while typing; it shows the open narrow. */
export function SearchBox() {
  const inputRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  // Leaving the box closes the list a moment later (a click on a suggestion lands first);
  // coming back before then keeps it open.
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const setQuery = (text: string) => {
    query.value = text;
  };
  const [active, setActive] = useState(-1);
  const [problem, setProblem] = useState('');
  // Topics fetched for suggestions redraw the list.
  void topics.value;

  const terms = feedTerms.value;
  const showingNarrow = view.value.kind === 'narrow';
  useEffect(() => {
    setQuery(showingNarrow ? searchText(terms, channelName, (id) => users.value.get(id)?.email) : '');
    setProblem('');
  }, [terms, showingNarrow]);

  useEffect(() => {
    searchInput = inputRef.current;
    return () => {
      searchInput = null;
      clearTimeout(closing.current);
    };
  }, []);

  const wantTopics = (channelId: number) => {
    if (!topics.value.has(channelId)) void loadTopics(channelId).catch(() => undefined);
  };
  const suggestions: Suggestion[] = open ? suggest(query.value, terms, wantTopics) : [];
  const shown = suggestions.length > 0;

  const search = (text: string) => {
    const resolved = resolveNames(parseSearch(text));
    if (resolved instanceof Error) {
      setProblem(resolved.message);
      return;
    }
    setOpen(false);
    setProblem('');
    inputRef.current?.blur();
    goToNarrow(resolved);
  };
  const choose = (suggestion: Suggestion) => {
    setActive(-1);
    if (suggestion.partial) {
      setQuery(suggestion.text);
      inputRef.current?.focus();
      return;
    }
    setQuery(suggestion.text);
    search(suggestion.text);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (!shown) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      // From the box (-1) through the suggestions and round again.
      const next = active + (e.key === 'ArrowDown' ? 1 : -1);
      setActive(next >= suggestions.length ? -1 : next < -1 ? suggestions.length - 1 : next);
    } else if (e.key === 'Tab' && active >= 0) {
      e.preventDefault();
      setQuery(suggestions[active].text + (suggestions[active].partial ? '' : ' '));
      setActive(-1);
    } else if (e.key === 'Escape') {
      // Escape closes the list and leaves the box (the page's key handler takes the focus away).
      setOpen(false);
    }
  };

  return (
    <form
      class="search"
      role="search"
      aria-label="Search messages"
      onSubmit={(e) => {
        e.preventDefault();
        if (active >= 0 && active < suggestions.length) choose(suggestions[active]);
        else search(query.value);
      }}
    >
      <input
        ref={inputRef}
        type="search"
        aria-label="Search messages"
        aria-autocomplete="list"
        aria-controls="search-suggestions"
        aria-activedescendant={active >= 0 && active < suggestions.length ? `search-suggestion-${active}` : undefined}
        aria-describedby={problem ? 'search-problem' : undefined}
        autoComplete="off"
        placeholder="Search"
        value={query.value}
        onFocus={() => {
          clearTimeout(closing.current);
          setOpen(true);
        }}
        onBlur={() => {
          closing.current = setTimeout(() => setOpen(false), 150);
        }}
        onInput={(e) => {
          setQuery(e.currentTarget.value);
          setOpen(true);
          setActive(-1);
          setProblem('');
        }}
        onKeyDown={onKeyDown}
      />
      <ul id="search-suggestions" class="search-suggestions" role="listbox" aria-label="Search suggestions" hidden={!shown}>
        {suggestions.map((s, i) => (
          <li
            key={s.text}
            id={`search-suggestion-${i}`}
            role="option"
            aria-selected={i === active}
            class={i === active ? 'active' : ''}
            onPointerDown={(e) => {
              e.preventDefault();
              choose(s);
            }}
          >
            {s.label}
          </li>
        ))}
      </ul>
      {problem && (
        <p id="search-problem" class="search-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/** Zulip's only_events and exclude_events: shell-style patterns (*, ?, [abc], [!abc]) matched against an event's name. */
export function eventMatches(event: string, filters: { only?: readonly string[]; exclude?: readonly string[] }): boolean {
  if (filters.only && !filters.only.some((pattern) => globMatches(pattern, event))) return false;
  if (filters.exclude && filters.exclude.some((pattern) => globMatches(pattern, event))) return false;
  return true;
}

const compiled = new Map<string, RegExp>();

/** Whether a whole name matches a shell-style pattern, as Python's fnmatch does (case-sensitively here). */
export function globMatches(pattern: string, name: string): boolean {
  let regex = compiled.get(pattern);
  if (!regex) {
    regex = new RegExp(`^${translate(pattern)}$`, 's');
    if (compiled.size < 1000) compiled.set(pattern, regex);
  }
  return regex.test(name);
}

function translate(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let set = pattern.slice(i + 1, end);
      const negated = set.startsWith('!');
      if (negated) set = set.slice(1);
      out += `[${negated ? '^' : ''}${set.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return out;
}

import { diffArrays } from 'diff';

/**
 * What changed between two versions of a rendered message, as Zulip's edit history shows it: the
 * newer version's HTML with inserted words marked `<ins>` and deleted words put back in
 * `<del>` where they stood. Loaded with the edit history only (it brings the diff library).
 *
 * Both versions are cut into tokens: tags, character references, words, runs of white space and
 * single punctuation marks. The result keeps every tag of the newer version and none that only
 * the older one had, so its elements are exactly the newer version's and stay balanced.
 */

const TOKEN = /<[^>]*>|&[#\w]+;|\s+|[\p{L}\p{N}_]+|[^<&\s\p{L}\p{N}_]+?|[<&]/gu;

function tokens(html: string): string[] {
  return html.match(TOKEN) ?? [];
}

const isTag = (token: string) => token.startsWith('<') && token.length > 1;

/** Writes a changed run: its tags as they are (or dropped), the text between them marked. */
function marked(run: string[], element: 'ins' | 'del', keepTags: boolean): string {
  let out = '';
  let text: string[] = [];
  const flush = () => {
    // White space alone is not a change anyone reads.
    if (text.some((t) => t.trim() !== '')) out += `<${element}>${text.join('')}</${element}>`;
    else if (keepTags) out += text.join('');
    text = [];
  };
  for (const token of run) {
    if (!isTag(token)) text.push(token);
    else {
      flush();
      if (keepTags) out += token;
    }
  }
  flush();
  return out;
}

/** The newer rendered HTML with the words inserted since `before` and those deleted from it marked. */
export function htmlDiff(before: string, after: string): string {
  let out = '';
  for (const change of diffArrays(tokens(before), tokens(after))) {
    if (change.added) out += marked(change.value, 'ins', true);
    else if (change.removed) out += marked(change.value, 'del', false);
    else out += change.value.join('');
  }
  return out;
}

/**
 * HTML as Markdown, the way Zulip converts the HTML some services send (html2text with its
 * defaults, lines wrapped at 78 characters), for the common subset of tags: paragraphs and divs,
 * line breaks, links, images, bold, italics and headings; other tags keep only their text.
 * Images of the form `![](…/name.png?123)` become `[name.png](…/name.png)` links, as in Zulip.
 */
export function htmlToMarkdown(html: string): string {
  let out = '';
  /** Newlines owed before the next text (2 after a block). */
  let pendingNewlines = 0;
  let space = false;
  let started = false;
  const links: Array<string | null> = [];
  const emit = (data: string, collapse = false) => {
    if (collapse) {
      data = data.replace(/\s+/g, ' ');
      if (data.startsWith(' ')) {
        space = true;
        data = data.slice(1);
      }
    }
    if (!data) return;
    if (!started) {
      space = false;
      pendingNewlines = 0;
      started = true;
    }
    if (pendingNewlines > 0) {
      out += '\n'.repeat(pendingNewlines);
      pendingNewlines = 0;
      space = false;
    }
    if (space) {
      if (!out.endsWith('\n')) out += ' ';
      space = false;
    }
    out += data;
  };
  const block = () => (pendingNewlines = 2);
  // Loaded on first use: a start that receives no such webhook needs no HTML parser.
  const { Parser } = require('htmlparser2') as typeof import('htmlparser2');
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'p' || name === 'div') block();
        else if (/^h[1-6]$/.test(name)) {
          block();
          emit(`${'#'.repeat(Number(name[1]))} `);
        } else if (name === 'br') emit('  \n');
        else if (name === 'b' || name === 'strong') emit('**');
        else if (name === 'i' || name === 'em') emit('_');
        else if (name === 'img' && attributes.src !== undefined) emit(`![${attributes.alt ?? ''}](${attributes.src})`);
        else if (name === 'a') {
          links.push(attributes.href ?? null);
          if (attributes.href !== undefined) emit('[');
        }
      },
      onclosetag(name) {
        if (name === 'p' || name === 'div' || /^h[1-6]$/.test(name)) block();
        else if (name === 'b' || name === 'strong') emit('**');
        else if (name === 'i' || name === 'em') emit('_');
        else if (name === 'a') {
          const href = links.pop();
          if (href !== null && href !== undefined) emit(`](${href})`);
        }
      },
      ontext(text) {
        emit(text, true);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return wrapParagraphs(out)
    .trim()
    .replace(/!\[\]\((\S*)\/(\S*)\?(\S*)\)/g, '[$2]($1/$2)');
}

const WIDTH = 78;

/** Lines that are not reflowed: code, lists, rules. */
function keepsItsLines(line: string): boolean {
  if (line.startsWith('    ') || line.startsWith('\t')) return true;
  const stripped = line.trimStart();
  return stripped.startsWith('--') || /^[-*+] /.test(stripped) || /^\d+\. /.test(stripped);
}

/** Greedy word wrap at WIDTH characters; a word longer than a line stays whole. */
function wrap(paragraph: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(/\s+/).filter(Boolean)) {
    if (line && [...line].length + 1 + [...word].length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Each line of the text is a paragraph, reflowed and followed by a blank line (a hard break ends in two spaces). */
function wrapParagraphs(text: string): string {
  let result = '';
  let newlines = 0;
  for (const paragraph of text.split('\n')) {
    if (paragraph.length === 0) {
      if (newlines < 2) {
        result += '\n';
        newlines += 1;
      }
    } else if (keepsItsLines(paragraph)) {
      result += `${paragraph}\n`;
      newlines = 1;
    } else {
      result += wrap(paragraph).join('\n');
      if (paragraph.endsWith('  ')) {
        result += '  \n';
        newlines = 1;
      } else {
        result += '\n\n';
        newlines = 2;
      }
    }
  }
  return result;
}

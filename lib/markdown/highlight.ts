import { GRAMMARS } from './languages';

/**
 * Code colouring as Zulip's server does it: Zulip colours code with Pygments, and every Zulip
 * client styles Pygments' short token classes (k, n, s2, c1, nf, mi, ...). We find the tokens
 * with highlight.js and name them as Pygments would; what highlight.js leaves unmarked (names,
 * operators, punctuation, which Pygments marks too) is split and named here.
 */

/** What is used of highlight.js (its own type declarations would bring the browser's types into the server's). */
interface Highlighter {
  registerLanguage(name: string, grammar: unknown): void;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
}

/**
 * highlight.js and its grammars are loaded on the first coloured block: building them costs
 * start-up time and memory that most servers would spend before anyone posts code.
 */
let hljsModule: Highlighter | undefined;
function hljs(): Highlighter {
  if (hljsModule) return hljsModule;
  const api = require('highlight.js/lib/core') as Highlighter;
  for (const [name, load] of Object.entries(GRAMMARS)) api.registerLanguage(name, load());
  return (hljsModule = api);
}

/** One run of code and the Pygments class it shows in (null: plain text). */
interface Piece {
  cls: string | null;
  text: string;
}

/** How a grammar's unmarked text is named. */
interface PlainText {
  /** Identifiers (Pygments names them n in most lexers, nx in JavaScript's). */
  name: string | null;
  operators: RegExp;
  punctuation: RegExp;
}

const CODE: PlainText = { name: 'n', operators: /^[-+*/%=<>!&|^~?@]+$/, punctuation: /^[()[\]{},;:.]+$/ };
const PLAIN_TEXT: Record<string, PlainText | null> = {
  // Python's lexer counts "." and "@" as operators.
  python: { name: 'n', operators: /^[-+*/%=<>!&|^~@.]+$/, punctuation: /^[()[\]{},;:]+$/ },
  javascript: { name: 'nx', operators: /^[-+*/%=<>!&|^~?:]+$/, punctuation: /^[()[\]{},;.]+$/ },
  typescript: { name: 'nx', operators: /^[-+*/%=<>!&|^~?:]+$/, punctuation: /^[()[\]{},;.]+$/ },
  // Prose-like grammars: their unmarked text stays plain.
  latex: null,
  markdown: null,
  diff: null,
  xml: null,
  ini: null,
  yaml: null,
  dockerfile: null,
  makefile: null,
  bash: null,
  powershell: null,
};

/** A highlight.js scope ("title.function") as a Pygments class, given the grammar and the token's text. */
function pygmentsClass(scope: string, grammar: string, text: string): string | null {
  switch (scope) {
    case 'keyword':
      return grammar === 'python' && /^(True|False|None)$/.test(text) ? 'kc' : 'k';
    case 'built_in':
      return grammar === 'python' && /^(self|cls)$/.test(text) ? 'bp' : 'nb';
    case 'literal':
      return 'kc';
    case 'type':
      return 'kt';
    case 'number':
      if (/^0x/i.test(text)) return 'mh';
      if (/^0o/i.test(text)) return 'mo';
      if (/^0b/i.test(text)) return 'mb';
      return /[.eE]/.test(text) ? 'mf' : 'mi';
    case 'string':
      if (/^[a-zA-Z]*"/.test(text)) return 's2';
      if (/^[a-zA-Z]*'/.test(text)) return 's1';
      if (text.startsWith('`')) return 'sb';
      return 's';
    case 'comment':
      if (text.startsWith('#!')) return 'ch';
      return text.startsWith('/*') || text.includes('\n') ? 'cm' : 'c1';
    case 'doctag':
      return 'cs';
    case 'meta':
      if (text.startsWith('#!')) return 'ch';
      return grammar === 'python' ? 'nd' : 'cp';
    case 'title':
    case 'title.function':
      return 'nf';
    case 'title.class':
      return 'nc';
    case 'attr':
    case 'attribute':
    case 'selector-attr':
      return grammar === 'yaml' || grammar === 'json' ? 'nt' : 'na';
    case 'variable':
      return 'nv';
    case 'variable.language':
      return grammar === 'python' ? 'bp' : 'k';
    case 'variable.constant':
      return 'no';
    case 'property':
      return 'py';
    case 'operator':
      return 'o';
    case 'punctuation':
      return 'p';
    case 'regexp':
      return 'sr';
    case 'symbol':
      return 'ss';
    case 'char.escape':
      return 'se';
    case 'subst':
      return 'si';
    case 'name':
    case 'selector-tag':
      return 'nt';
    case 'selector-id':
      return 'nn';
    case 'selector-class':
      return 'nc';
    case 'selector-pseudo':
      return 'nd';
    case 'section':
      return 'gh';
    case 'emphasis':
      return 'ge';
    case 'strong':
      return 'gs';
    case 'addition':
      return 'gi';
    case 'deletion':
      return 'gd';
    case 'code':
      return 'sb';
    case 'quote':
      return 'c1';
    case 'link':
      return 'nl';
    default:
      // Containers (params, tags, invocations, inherited classes): their text is named on its own.
      return null;
  }
}

/** Names what highlight.js left unmarked, as Pygments' lexers do. */
function splitPlain(text: string, grammar: string, pieces: Piece[]): void {
  const plain = grammar in PLAIN_TEXT ? PLAIN_TEXT[grammar] : CODE;
  if (plain === null) {
    // In TeX, braces are marked even in running text.
    if (grammar === 'latex') {
      for (const part of text.split(/([{}]+)/)) if (part) pieces.push({ cls: /^[{}]+$/.test(part) ? 'nb' : null, text: part });
    } else pieces.push({ cls: null, text });
    return;
  }
  for (const [part] of text.matchAll(/\s+|[\p{L}_$][\p{L}\p{N}_$]*|\p{N}[\p{L}\p{N}_.]*|[-+*/%=<>!&|^~?@:.]+|[()[\]{},;]|./gsu)) {
    let cls: string | null = null;
    if (/^\s/u.test(part)) cls = null;
    else if (/^[\p{L}_$]/u.test(part)) cls = grammar === 'python' && /^(self|cls)$/.test(part) ? 'bp' : plain.name;
    else if (/^\p{N}/u.test(part)) cls = pygmentsClass('number', grammar, part);
    else if (plain.operators.test(part)) cls = 'o';
    else if (plain.punctuation.test(part)) cls = 'p';
    else {
      // A run mixing operators and punctuation (Python's "):"): each character on its own.
      for (const char of part) pieces.push({ cls: plain.operators.test(char) ? 'o' : plain.punctuation.test(char) ? 'p' : null, text: char });
      continue;
    }
    pieces.push({ cls, text: part });
  }
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };
const decode = (html: string) => html.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity]);

/** Turns highlight.js's HTML (spans with hljs- classes around escaped text) into named pieces. */
function piecesOf(html: string, grammar: string): Piece[] {
  const pieces: Piece[] = [];
  const scopes: string[] = [];
  for (const [, open, close, text] of html.matchAll(/<span class="([^"]*)">|(<\/span>)|([^<]+)/g)) {
    if (open !== undefined) {
      const [first, ...modifiers] = open.split(' ');
      scopes.push([first.replace(/^hljs-/, ''), ...modifiers.map((m) => m.replace(/_+$/, ''))].join('.'));
    } else if (close !== undefined) {
      scopes.pop();
    } else {
      const raw = decode(text);
      // The innermost scope that has a Pygments class names the text; containers pass it on
      // (looking a few levels up only: grammars that nest, like Lisp's parentheses, nest deep).
      let cls: string | null = null;
      for (let i = scopes.length - 1; i >= Math.max(0, scopes.length - 4) && cls === null; i--) cls = pygmentsClass(scopes[i], grammar, raw);
      if (cls === null) splitPlain(raw, grammar, pieces);
      else pieces.push({ cls, text: raw });
    }
  }
  return pieces;
}

/** The code as Pygments' HTML formatter writes it: same-class runs merged, no span across a line end. */
function render(pieces: Piece[], escape: (text: string) => string): string {
  const merged: Piece[] = [];
  for (const piece of pieces) {
    const last = merged[merged.length - 1];
    if (last && last.cls === piece.cls) last.text += piece.text;
    else merged.push({ ...piece });
  }
  let html = '';
  for (const { cls, text } of merged) {
    if (cls === null) {
      html += escape(text);
      continue;
    }
    html += text
      .split('\n')
      .map((line) => (line === '' ? '' : `<span class="${cls}">${escape(line)}</span>`))
      .join('\n');
  }
  return html;
}

/** Colours code in a highlight.js grammar; returns the inside of <code>, escaped with `escape`. */
export function highlightCode(code: string, grammar: string, escape: (text: string) => string): string {
  const { value } = hljs().highlight(code, { language: grammar, ignoreIllegals: true });
  const pieces = piecesOf(value, grammar);
  if (grammar === 'python') {
    // Pygments' Python lexer marks the space after "def" and "class" as whitespace (w).
    for (let i = 0; i + 1 < pieces.length; i++) {
      if (pieces[i].cls === 'k' && /^(def|class)$/.test(pieces[i].text) && pieces[i + 1].cls === null && /^\s+$/.test(pieces[i + 1].text)) pieces[i + 1].cls = 'w';
    }
  }
  return render(pieces, escape);
}

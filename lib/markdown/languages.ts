/**
 * The languages code blocks are coloured in. Zulip records in data-code-language the name of
 * the Pygments lexer a fence's language picks; the keys here are those names, with the
 * aliases people type after a fence and the highlight.js grammar that colours them (none for
 * plain text). Only these grammars are bundled: they are the languages chat code is written
 * in, and each further grammar costs the server bundle a few kilobytes.
 */
const LANGUAGES: Record<string, { aliases: readonly string[]; grammar: string | null }> = {
  Bash: { aliases: ['bash', 'sh', 'shell', 'zsh', 'ksh'], grammar: 'bash' },
  C: { aliases: ['c', 'h'], grammar: 'c' },
  'C#': { aliases: ['csharp', 'c#', 'cs'], grammar: 'csharp' },
  'C++': { aliases: ['cpp', 'c++', 'cxx', 'hpp'], grammar: 'cpp' },
  CSS: { aliases: ['css'], grammar: 'css' },
  Clojure: { aliases: ['clojure', 'clj'], grammar: 'clojure' },
  CoffeeScript: { aliases: ['coffeescript', 'coffee-script', 'coffee'], grammar: 'coffeescript' },
  Dart: { aliases: ['dart'], grammar: 'dart' },
  Diff: { aliases: ['diff', 'udiff'], grammar: 'diff' },
  Docker: { aliases: ['docker', 'dockerfile'], grammar: 'dockerfile' },
  Elixir: { aliases: ['elixir', 'ex', 'exs'], grammar: 'elixir' },
  Erlang: { aliases: ['erlang'], grammar: 'erlang' },
  Go: { aliases: ['go', 'golang'], grammar: 'go' },
  GraphQL: { aliases: ['graphql'], grammar: 'graphql' },
  Haskell: { aliases: ['haskell', 'hs'], grammar: 'haskell' },
  HTML: { aliases: ['html'], grammar: 'xml' },
  INI: { aliases: ['ini', 'cfg', 'dosini'], grammar: 'ini' },
  JSON: { aliases: ['json', 'json-object'], grammar: 'json' },
  Java: { aliases: ['java'], grammar: 'java' },
  JavaScript: { aliases: ['javascript', 'js'], grammar: 'javascript' },
  Julia: { aliases: ['julia', 'jl'], grammar: 'julia' },
  Kotlin: { aliases: ['kotlin'], grammar: 'kotlin' },
  Lua: { aliases: ['lua'], grammar: 'lua' },
  Makefile: { aliases: ['make', 'makefile', 'mf', 'bsdmake'], grammar: 'makefile' },
  Markdown: { aliases: ['markdown', 'md'], grammar: 'markdown' },
  'Objective-C': { aliases: ['objective-c', 'objectivec', 'obj-c', 'objc'], grammar: 'objectivec' },
  OCaml: { aliases: ['ocaml'], grammar: 'ocaml' },
  PHP: { aliases: ['php', 'php3', 'php4', 'php5'], grammar: 'php' },
  Perl: { aliases: ['perl', 'pl'], grammar: 'perl' },
  PowerShell: { aliases: ['powershell', 'pwsh', 'posh', 'ps1', 'psm1'], grammar: 'powershell' },
  Python: { aliases: ['python', 'py', 'sage', 'python3', 'py3'], grammar: 'python' },
  'Python 2.x': { aliases: ['python2', 'py2'], grammar: 'python' },
  S: { aliases: ['splus', 's', 'r'], grammar: 'r' },
  Ruby: { aliases: ['ruby', 'rb', 'duby'], grammar: 'ruby' },
  Rust: { aliases: ['rust', 'rs'], grammar: 'rust' },
  SCSS: { aliases: ['scss'], grammar: 'scss' },
  SQL: { aliases: ['sql'], grammar: 'sql' },
  Scala: { aliases: ['scala'], grammar: 'scala' },
  Swift: { aliases: ['swift'], grammar: 'swift' },
  TeX: { aliases: ['tex', 'latex'], grammar: 'latex' },
  'Text only': { aliases: ['text'], grammar: null },
  TOML: { aliases: ['toml'], grammar: 'ini' },
  TypeScript: { aliases: ['typescript', 'ts'], grammar: 'typescript' },
  XML: { aliases: ['xml'], grammar: 'xml' },
  YAML: { aliases: ['yaml'], grammar: 'yaml' },
};

export interface CodeLanguage {
  /** What Zulip puts in data-code-language. */
  name: string;
  /** The highlight.js grammar, or null for plain text. */
  grammar: string | null;
}

const languageByAlias = new Map<string, CodeLanguage>();
for (const [name, { aliases, grammar }] of Object.entries(LANGUAGES)) {
  for (const alias of aliases) languageByAlias.set(alias, { name, grammar });
}

/** The language a fence names, or null when it is not one we know. */
export function codeLanguage(alias: string): CodeLanguage | null {
  return languageByAlias.get(alias.toLowerCase()) ?? null;
}

/**
 * The highlight.js grammars the table names, loaded (by the highlighter, on the first code
 * block that needs colouring) through literal paths so that the bundler includes just these.
 */
export const GRAMMARS: Record<string, () => unknown> = {
  bash: () => require('highlight.js/lib/languages/bash'),
  c: () => require('highlight.js/lib/languages/c'),
  csharp: () => require('highlight.js/lib/languages/csharp'),
  cpp: () => require('highlight.js/lib/languages/cpp'),
  css: () => require('highlight.js/lib/languages/css'),
  clojure: () => require('highlight.js/lib/languages/clojure'),
  coffeescript: () => require('highlight.js/lib/languages/coffeescript'),
  dart: () => require('highlight.js/lib/languages/dart'),
  diff: () => require('highlight.js/lib/languages/diff'),
  dockerfile: () => require('highlight.js/lib/languages/dockerfile'),
  elixir: () => require('highlight.js/lib/languages/elixir'),
  erlang: () => require('highlight.js/lib/languages/erlang'),
  go: () => require('highlight.js/lib/languages/go'),
  graphql: () => require('highlight.js/lib/languages/graphql'),
  haskell: () => require('highlight.js/lib/languages/haskell'),
  xml: () => require('highlight.js/lib/languages/xml'),
  ini: () => require('highlight.js/lib/languages/ini'),
  json: () => require('highlight.js/lib/languages/json'),
  java: () => require('highlight.js/lib/languages/java'),
  javascript: () => require('highlight.js/lib/languages/javascript'),
  julia: () => require('highlight.js/lib/languages/julia'),
  kotlin: () => require('highlight.js/lib/languages/kotlin'),
  lua: () => require('highlight.js/lib/languages/lua'),
  makefile: () => require('highlight.js/lib/languages/makefile'),
  markdown: () => require('highlight.js/lib/languages/markdown'),
  objectivec: () => require('highlight.js/lib/languages/objectivec'),
  ocaml: () => require('highlight.js/lib/languages/ocaml'),
  php: () => require('highlight.js/lib/languages/php'),
  perl: () => require('highlight.js/lib/languages/perl'),
  powershell: () => require('highlight.js/lib/languages/powershell'),
  python: () => require('highlight.js/lib/languages/python'),
  r: () => require('highlight.js/lib/languages/r'),
  ruby: () => require('highlight.js/lib/languages/ruby'),
  rust: () => require('highlight.js/lib/languages/rust'),
  scss: () => require('highlight.js/lib/languages/scss'),
  sql: () => require('highlight.js/lib/languages/sql'),
  scala: () => require('highlight.js/lib/languages/scala'),
  swift: () => require('highlight.js/lib/languages/swift'),
  latex: () => require('highlight.js/lib/languages/latex'),
  typescript: () => require('highlight.js/lib/languages/typescript'),
  yaml: () => require('highlight.js/lib/languages/yaml'),
};

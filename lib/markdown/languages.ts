/**
 * The language names Zulip records in data-code-language are those of Pygments' lexers. These
 * are the common ones, keyed by the aliases people type after a fence; other languages render
 * as plain code without the attribute.
 */
const LANGUAGES: Record<string, readonly string[]> = {
  Bash: ['bash', 'sh', 'shell', 'zsh', 'ksh'],
  C: ['c', 'h'],
  'C#': ['csharp', 'c#', 'cs'],
  'C++': ['cpp', 'c++', 'cxx', 'hpp'],
  CSS: ['css'],
  Clojure: ['clojure', 'clj'],
  CoffeeScript: ['coffeescript', 'coffee-script', 'coffee'],
  Dart: ['dart'],
  Diff: ['diff', 'udiff'],
  Docker: ['docker', 'dockerfile'],
  Elixir: ['elixir', 'ex', 'exs'],
  Erlang: ['erlang'],
  Go: ['go', 'golang'],
  GraphQL: ['graphql'],
  Haskell: ['haskell', 'hs'],
  HTML: ['html'],
  INI: ['ini', 'cfg', 'dosini'],
  JSON: ['json', 'json-object'],
  Java: ['java'],
  JavaScript: ['javascript', 'js'],
  Julia: ['julia', 'jl'],
  Kotlin: ['kotlin'],
  Lua: ['lua'],
  Makefile: ['make', 'makefile', 'mf', 'bsdmake'],
  Markdown: ['markdown', 'md'],
  'Objective-C': ['objective-c', 'objectivec', 'obj-c', 'objc'],
  OCaml: ['ocaml'],
  PHP: ['php', 'php3', 'php4', 'php5'],
  Perl: ['perl', 'pl'],
  PowerShell: ['powershell', 'pwsh', 'posh', 'ps1', 'psm1'],
  Python: ['python', 'py', 'sage', 'python3', 'py3'],
  'Python 2.x': ['python2', 'py2'],
  R: ['splus', 's', 'r'],
  Ruby: ['ruby', 'rb', 'duby'],
  Rust: ['rust', 'rs'],
  SCSS: ['scss'],
  SQL: ['sql'],
  Scala: ['scala'],
  Swift: ['swift'],
  TeX: ['tex', 'latex'],
  'Text only': ['text'],
  TOML: ['toml'],
  TypeScript: ['typescript', 'ts'],
  XML: ['xml'],
  YAML: ['yaml'],
};

const nameByAlias = new Map<string, string>();
for (const [name, aliases] of Object.entries(LANGUAGES)) for (const alias of aliases) nameByAlias.set(alias, name);

/** The display name of a code block's language, or null when it is not one we know. */
export function codeLanguageName(alias: string): string | null {
  return nameByAlias.get(alias.toLowerCase()) ?? null;
}

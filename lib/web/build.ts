import { build, type Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** One file of the web client, as the server serves it. */
export interface WebAsset {
  /** The name under /static/web/, content-hashed so it can be cached forever. */
  name: string;
  contentType: string;
  body: Buffer;
}

/** The built web client: its files, and the script and stylesheet the page links. */
export interface WebBundle {
  assets: WebAsset[];
  script: string;
  stylesheet: string;
  /**
   * The chunks the first view runs: the script's static imports, then the app it imports
   * once its early requests are out and that app's static imports. Named in the page so they
   * download beside the script, not after it.
   */
  preloads: string[];
  /** The page's own script (web/early.ts), written into the page itself: it sends the first requests before any file arrives. */
  pageScript: string;
}

const ROOT = path.resolve(__dirname, '..', '..');
const ENTRY = path.join(ROOT, 'web', 'main.tsx');
const PAGE_SCRIPT = path.join(ROOT, 'web', 'early.ts');
/** The browsers the client is built for. */
const TARGET = ['es2020', 'chrome100', 'firefox100', 'safari15'];
/** The app itself, which the page's first script imports once its early requests are sent. */
const APP_START = path.join('web', 'app', 'start.tsx');
/** The first view's component, which every lazily loaded part is bundled as depending on (see firstViewTogether). */
const FIRST_VIEW = path.join(ROOT, 'web', 'app', 'App.tsx');

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * KaTeX's stylesheet offers every font as woff2, woff and ttf. Every browser that runs the
 * client reads woff2, so the older formats are left out of the bundle.
 */
const katexWoff2Only: Plugin = {
  name: 'katex-woff2-only',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /katex[\\/]dist[\\/]katex(\.min)?\.css$/ }, (args) => {
      const css = readFileSync(args.path, 'utf8').replace(/,url\([^)]*\.(woff|ttf)\) format\("(woff|truetype)"\)/g, '');
      return { contents: css, loader: 'css', resolveDir: path.dirname(args.path) };
    });
  },
};

/**
 * esbuild puts each module in a chunk keyed by the set of entry points (the page's script and
 * every import() target) that reach it. The first view's modules are reached by different
 * sets of lazily loaded parts, so they would come in a score of small chunks, which a browser
 * fetches six at a time, the first requests to the API waiting behind them. Every lazily
 * loaded part is therefore built as a small module importing the first view before the part
 * itself (which costs nothing at run time: the first view is loaded before any part is), so
 * all of the first view's modules share one key, and one chunk. The small module passes on
 * the part's named exports, which is how the app takes every part (`.then((m) => m.Name)`).
 */
const firstViewTogether: Plugin = {
  name: 'first-view-together',
  setup(pluginBuild) {
    const NAMESPACE = 'lazy-part';
    pluginBuild.onResolve({ filter: /^\./, namespace: 'file' }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData === NAMESPACE) return undefined;
      const resolved = await pluginBuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: NAMESPACE });
      if (resolved.errors.length > 0 || !/\.tsx?$/.test(resolved.path) || path.relative(ROOT, resolved.path) === APP_START) return undefined;
      return { path: resolved.path, namespace: NAMESPACE };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
      contents: `import ${JSON.stringify(FIRST_VIEW)};\nexport * from ${JSON.stringify(args.path)};\n`,
      loader: 'ts',
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * Builds the web client (web/main.tsx and its stylesheet) in memory: minified, with
 * content-hashed names. `npm start` runs it on the first page request; `npm run build` runs it
 * once and embeds the result in dist/stoa.js.
 */
export async function buildWebBundle(): Promise<WebBundle> {
  const result = await build({
    entryPoints: { app: ENTRY },
    // The metafile names files relative to this folder (APP_START is found by that name), whatever the server's working folder.
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    outdir: '/static/web',
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    platform: 'browser',
    format: 'esm',
    // Code the first view does not draw (settings, administration, emoji data) is loaded
    // with import() when first needed; esbuild puts each such part in a chunk of its own.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    target: TARGET,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    loader: { '.woff2': 'file' },
    plugins: [katexWoff2Only, firstViewTogether],
    tsconfig: path.join(ROOT, 'web', 'tsconfig.json'),
    logLevel: 'silent',
    metafile: true,
  });
  // esbuild repairs a mistake of ours and only warns (a block left open swallows every later
  // rule of the stylesheet into it): the build stops instead, naming it.
  const ours = result.warnings.filter((warning) => !warning.location?.file.includes('node_modules'));
  if (ours.length > 0) {
    throw new Error(`The web client build warned:\n${ours.map((w) => `${w.location?.file}:${w.location?.line}: ${w.text}`).join('\n')}`);
  }
  const assets = result.outputFiles.map((file) => ({
    name: path.basename(file.path),
    contentType: CONTENT_TYPES[path.extname(file.path)] ?? 'application/octet-stream',
    body: Buffer.from(file.contents),
  }));
  const script = assets.find((asset) => /^app-.*\.js$/.test(asset.name));
  const stylesheet = assets.find((asset) => /^app-.*\.css$/.test(asset.name));
  if (!script || !stylesheet) throw new Error('The web client build made no script or stylesheet');
  const outputs = result.metafile.outputs;
  const appStart = Object.entries(outputs).find(([, output]) => output.entryPoint === APP_START)?.[0];
  if (!appStart) throw new Error('The web client build made no chunk for the app');
  const preloads = staticImports(outputs, [script.name, path.basename(appStart)]);
  return { assets, script: script.name, stylesheet: stylesheet.name, preloads, pageScript: await buildPageScript() };
}

/** web/early.ts as one classic script, to be written into the page. */
async function buildPageScript(): Promise<string> {
  const result = await build({
    entryPoints: [PAGE_SCRIPT],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    target: TARGET,
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    tsconfig: path.join(ROOT, 'web', 'tsconfig.json'),
    logLevel: 'silent',
  });
  const text = result.outputFiles[0].text.trim();
  // Inside <script>, only "</script" could end it early; esbuild writes none, and this keeps it so.
  if (/<\/script/i.test(text)) throw new Error('The page script holds "</script"');
  return text;
}

/** The chunks `roots` need to run, in order: each root's static imports (and theirs), and the later roots themselves. */
function staticImports(outputs: Record<string, { imports: Array<{ path: string; kind: string }> }>, roots: string[]): string[] {
  const byName = new Map(Object.entries(outputs).map(([file, output]) => [path.basename(file), output]));
  const found = new Set<string>([roots[0]]);
  const visit = (name: string) => {
    for (const imported of byName.get(name)?.imports ?? []) {
      const importedName = path.basename(imported.path);
      if (imported.kind !== 'import-statement' || found.has(importedName)) continue;
      found.add(importedName);
      visit(importedName);
    }
  };
  for (const root of roots) {
    found.add(root);
    visit(root);
  }
  found.delete(roots[0]);
  return [...found];
}

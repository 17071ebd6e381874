import { build, type Plugin } from 'esbuild';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { bundleText } from '../lib/bundle-layout';
import { bundledPackageName } from '../lib/first-use';
import { embeddableBundle } from '../lib/web/assets';
import { buildWebBundle } from '../lib/web/build';

const root = path.resolve(__dirname, '..');

/**
 * Packages the server loads only on first use (a `require` inside a function). Each is bundled
 * on its own, compressed, and carried in the bundle's data after the server's code (see
 * lib/bundle-layout.ts), and lib/first-use.ts reads and unpacks it when it is first required:
 * V8 keeps the running script's whole text in memory, and these are about 1.4 MB of text a
 * server that never renders a formula or colours code, mails, exports or encrypts a
 * notification would otherwise hold for nothing.
 */
const LOADED_ON_FIRST_USE = ['katex', 'nodemailer', 'tar', 'libsodium-wrappers', 'highlight.js', 're2js'];
/**
 * iconv-lite's tables of character sets (half a megabyte of text), which it requires itself on
 * first use (lib/index.js requires "../encodings" when a body in another charset than UTF-8 is
 * first decoded): carried as a package loaded on first use, named so.
 */
const ICONV_TABLES = 'iconv-lite/encodings';

/** The esbuild options every bundle shares: CommonJS for Node 20, small, ASCII. */
const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  legalComments: 'none',
  // Node parses the whole script on every start and keeps its text in memory: without
  // whitespace and comments it is a third smaller. Identifiers keep their names, so stack
  // traces still name functions.
  minifyWhitespace: true,
  minifySyntax: true,
  charset: 'ascii',
  logLevel: 'warning',
} as const;

function compressedUntilFirstUse(files: Map<string, Buffer>): Plugin {
  // A package's own modules too ("highlight.js/lib/core" and each grammar).
  const loadedOnFirstUse = (name: string) => LOADED_ON_FIRST_USE.some((pkg) => name === pkg || name.startsWith(`${pkg}/`));
  const loader = path.join(root, 'lib', 'first-use.ts');
  return {
    name: 'compressed-until-first-use',
    setup(stoa) {
      stoa.onResolve({ filter: /^[a-z@][\w@/.-]*$/ }, (args) =>
        loadedOnFirstUse(args.path) ? { path: args.path, namespace: 'first-use', pluginData: require.resolve(args.path) } : undefined,
      );
      stoa.onResolve({ filter: /^\.\.\/encodings$/ }, (args) =>
        /[\\/]node_modules[\\/]iconv-lite[\\/]lib$/.test(args.resolveDir)
          ? { path: ICONV_TABLES, namespace: 'first-use', pluginData: require.resolve(path.join(args.resolveDir, args.path)) }
          : undefined,
      );
      stoa.onLoad({ filter: /.*/, namespace: 'first-use' }, async (args) => {
        const alone = await build({ ...COMMON, entryPoints: [args.pluginData as string], write: false });
        files.set(bundledPackageName(args.path), brotliCompressSync(alone.outputFiles[0].contents));
        return {
          contents: `module.exports = require(${JSON.stringify(loader)}).loadBundledPackage(${JSON.stringify(args.path)});`,
          resolveDir: root,
          loader: 'js',
        };
      });
    },
  };
}

/**
 * Bundles the server into one script. Everything is inside it but better-sqlite3, sharp and koffi,
 * whose native parts must come from installed packages; schema.sql rides along as text. The
 * benchmarks bundle their own server entry the same way, to measure what users run. The web
 * client is built first and embedded, so the script serves it with nothing beside it; esbuild,
 * which builds the client when running from a checkout, stays out. The script is the launcher
 * (lib/launcher.ts: the heap flags, then the server) followed by the server inside a
 * comment, which the launcher compiles only in the Node that serves, and by the data the
 * server reads from the file when it needs it (the client's files, the packages loaded on
 * first use).
 */
export async function buildBundle(outfile = path.join(root, 'dist', 'stoa.js'), entry = path.join(root, 'server.ts')): Promise<string> {
  const { embedded, files } = embeddableBundle(await buildWebBundle());
  const external = ['better-sqlite3', 'sharp', 'koffi', 'esbuild'];
  const server = await build({
    ...COMMON,
    entryPoints: [entry],
    write: false,
    external,
    plugins: [compressedUntilFirstUse(files)],
    define: {
      STOA_SCHEMA_SQL: JSON.stringify(readFileSync(path.join(root, 'schema.sql'), 'utf8')),
      // What the page names (the files are in the data): as JSON text in a string, which esbuild
      // leaves in the script's text until the first page is asked for, where an object define
      // would be built at every start.
      STOA_WEB_BUNDLE: JSON.stringify(JSON.stringify(embedded)),
    },
  });
  const launcher = await build({ ...COMMON, entryPoints: [path.join(root, 'lib', 'launcher.ts')], write: false, external });
  mkdirSync(path.dirname(outfile), { recursive: true });
  // Written beside, then renamed over: a server running from the old file keeps reading its own data (lib/bundle-layout.ts).
  const partial = `${outfile}.${process.pid}.partial`;
  writeFileSync(partial, bundleText(ascii(launcher.outputFiles[0].text), ascii(server.outputFiles[0].text), files));
  renameSync(partial, outfile);
  return outfile;
}

/**
 * V8 keeps a script's text at one byte per character only if every character is Latin-1;
 * one other character anywhere doubles it. esbuild escapes strings but leaves regular
 * expression literals as written, so escape what is left: \uXXXX means the same code unit
 * in a string, a template or a regular expression.
 */
function ascii(text: string): string {
  return text.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

if (require.main === module) {
  buildBundle(process.argv[2]).then(
    (outfile) => console.log(`Built ${path.relative(process.cwd(), outfile)}`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

import vm from 'node:vm';
import { brotliDecompressSync } from 'node:zlib';
import { bundledData } from './bundle-layout';

/**
 * Loads a package that the bundle (scripts/build.ts) carries compressed, in its data after the
 * server's code, because the server loads it only on first use (KaTeX, nodemailer, tar,
 * libsodium, highlight.js). V8 keeps the whole text of the running script in memory, so a
 * package in the script costs its full size for as long as the server runs even if it is
 * never loaded; in the bundle's data it costs nothing until it is read. The package was
 * bundled on its own into CommonJS needing nothing but Node's built-in modules, and runs here
 * as Node runs a module.
 */
export function loadBundledPackage(name: string): unknown {
  const data = bundledData();
  if (!data) throw new Error(`${name} is carried in the bundle, and this server was not started from one`);
  return loadPackage(name, data.read(bundledPackageName(name)));
}

/** The name of a package's file in the bundle's data. */
export function bundledPackageName(name: string): string {
  return `package/${name}`;
}

/** Runs a package bundled on its own and compressed with brotli, as Node runs a module, and returns its exports. */
export function loadPackage(name: string, compressed: Buffer): unknown {
  const source = brotliDecompressSync(compressed).toString();
  const filename = `${__filename}/${name}`;
  const run = vm.compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename });
  const module = { exports: {} as unknown };
  run(module.exports, require, module, filename, __dirname);
  return module.exports;
}

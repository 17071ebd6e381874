import vm from 'node:vm';
import { brotliDecompressSync } from 'node:zlib';

/**
 * Loads a package that the bundle (scripts/build.ts) carries compressed because the server
 * loads it only on first use (KaTeX, nodemailer, tar, libsodium). V8 keeps the whole text of
 * the running script in memory, so a package kept as plain source costs its full size for as
 * long as the server runs even if it is never loaded; compressed, it costs about a quarter.
 * The package was bundled on its own into CommonJS needing nothing but Node's built-in
 * modules, and runs here as Node runs a module.
 */
export function loadCompressedPackage(name: string, base64: string): unknown {
  const source = brotliDecompressSync(Buffer.from(base64, 'base64')).toString();
  const filename = `${__filename}/${name}`;
  const run = vm.compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename });
  const module = { exports: {} as unknown };
  run(module.exports, require, module, filename, __dirname);
  return module.exports;
}

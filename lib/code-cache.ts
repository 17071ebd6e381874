import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { withFlagsAsAtStart } from './memory/young-generation';

/**
 * V8's code cache for the server in dist/stoa.js. Compiling the server's four megabytes, and
 * then each function the start runs, is about a fifth of a start's CPU; V8 can instead take
 * the bytecode of a previous start from a cache it wrote (`vm.Script`'s `cachedData`). The
 * launcher (lib/launcher.ts) compiles the server with the cache kept in the data folder, if
 * there is one for this very bundle and this Node; once the server has started and is idle
 * (server.ts), a new cache is written if none was used. A cache that does not fit is
 * ignored and replaced: one of another bundle or Node (its first line names them), or one
 * whose bytes are not those written (a checksum: V8 checks its own version and flags, and the
 * source's length, but not every build of it checks the bytes).
 *
 * The file: one line `stoa-code-cache <key> <CRC-32 of the rest, in hex>`, then V8's data.
 */
export const CODE_CACHE_FILE = 'code-cache.bin';
const MAGIC = 'stoa-code-cache';
/** After the server listens, it writes a new cache once it has been idle this long. */
const WRITE_AFTER_MS = 1000;

/** What the launcher leaves for the server to find: the compiled script and whether a cache was used. */
interface Compiled {
  script: vm.Script;
  key: string;
  file: string | undefined;
  used: boolean;
}
/** Shared through the global object: the launcher and the server are compiled apart (lib/bundle-layout.ts). */
const COMPILED = Symbol.for('stoa.code-cache');

/** The cache's key: the bundle (the hash its build wrote in it) and the Node that runs it. */
function cacheKey(bundleHash: string): string {
  return `${bundleHash}/${process.version}/${process.arch}`;
}

/** CRC-32 of the data, or undefined on a Node without zlib.crc32 (before 20.15): no cache there. */
function checksum(data: Buffer): string | undefined {
  return typeof zlib.crc32 === 'function' ? zlib.crc32(data).toString(16) : undefined;
}

/** V8's data from the cache file, if it is there, whole, and made for this key. */
export function readCodeCache(file: string, key: string): Buffer | undefined {
  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch {
    return undefined;
  }
  const newline = content.indexOf('\n');
  if (newline === -1) return undefined;
  const [magic, cachedKey, sum] = content.toString('latin1', 0, newline).split(' ');
  const data = content.subarray(newline + 1);
  if (magic !== MAGIC || cachedKey !== key || data.length === 0 || sum === undefined || sum !== checksum(data)) return undefined;
  return data;
}

/**
 * Compiles the server's code (a function expression, see lib/bundle-layout.ts) with the cache
 * in `dataFolder` if it fits, and returns the function. ':memory:' (or no folder) keeps no cache.
 */
export function compileServer(code: string, options: { filename: string; lineOffset: number; bundleHash: string; dataFolder: string | undefined }): Function {
  const key = cacheKey(options.bundleHash);
  const file = options.dataFolder && options.dataFolder !== ':memory:' ? path.join(options.dataFolder, CODE_CACHE_FILE) : undefined;
  const cachedData = file ? readCodeCache(file, key) : undefined;
  const script = new vm.Script(code, { filename: options.filename, lineOffset: options.lineOffset, cachedData });
  const compiled: Compiled = { script, key, file, used: cachedData !== undefined && !script.cachedDataRejected };
  (globalThis as { [COMPILED]?: Compiled })[COMPILED] = compiled;
  return script.runInThisContext() as Function;
}

/**
 * Writes the code cache of the server now running into its data folder, unless the start used
 * one (or the server was not started by the launcher: `npm start`, tests). It holds the bytecode
 * of every function compiled so far, so the next start compiles none of them. Written beside,
 * then renamed over: a start never reads half a file. Returns the file written, if any.
 */
export function writeCodeCache(dataFolder: string): string | undefined {
  const compiled = (globalThis as { [COMPILED]?: Compiled })[COMPILED];
  if (!compiled || compiled.used || !compiled.file || path.resolve(compiled.file) !== path.resolve(dataFolder, CODE_CACHE_FILE)) return undefined;
  const data = withFlagsAsAtStart(() => compiled.script.createCachedData());
  const sum = checksum(data);
  if (sum === undefined) return undefined;
  const partial = `${compiled.file}.${process.pid}.partial`;
  try {
    writeFileSync(partial, Buffer.concat([Buffer.from(`${MAGIC} ${compiled.key} ${sum}\n`, 'latin1'), data]));
    renameSync(partial, compiled.file);
  } catch {
    // A read-only or full disk: the next start compiles, as without a cache.
    rmSync(partial, { force: true });
    return undefined;
  }
  compiled.used = true;
  return compiled.file;
}

/** After the server listens: writes the code cache once it has been idle a moment (see writeCodeCache). */
export function writeCodeCacheWhenIdle(dataFolder: string): void {
  setTimeout(() => writeCodeCache(dataFolder), WRITE_AFTER_MS).unref();
}

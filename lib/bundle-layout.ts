/**
 * How dist/stoa.js is laid out: the launcher (lib/launcher.ts) first, then the server inside
 * one comment, which the launcher compiles only in the Node that serves. V8 parses every
 * function of a script it compiles, but only skims a comment for its end: so a Node that
 * replaces itself before serving (lib/memory/bounded-heap.ts) compiles a few lines, not the
 * server's four megabytes.
 *
 * The comment starts with SERVER_START and a hash of the server's code (which keys its code
 * cache, lib/code-cache.ts) on one line, and ends with SERVER_END, the file's last bytes. Inside
 * it, every "*" "/" of the server (which would end the comment early) is written "*", ESCAPE, "/";
 * the server's code holds ESCAPE nowhere else.
 */
const SERVER_START = '\n/*stoa-server ';
const SERVER_END = '\n*/\n';
const ESCAPE = '\x0b';
/** The hash of the server's code that follows SERVER_START: hexadecimal digits, then the line's end. */
const HASH_LENGTH = 32;
const HASH_LINE = new RegExp(`^[0-9a-f]{${HASH_LENGTH}}\n$`);
/**
 * The server is compiled as a function of what Node gives a CommonJS module; its code is
 * wrapped in place (see serverOfBundle), the wrapper's first line written over the marker's.
 */
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_END = '\n})';

/** The bundle's text, from the launcher's code and the server's (both ASCII). */
export function bundleText(launcher: string, server: string): string {
  if (server.includes(ESCAPE) || server.includes(SERVER_START)) throw new Error("the server's code holds the bundle's markers");
  // Required here: the launcher holds this module too, and needs no crypto before replacing itself.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const hash = createHash('sha256').update(server).digest('hex').slice(0, HASH_LENGTH);
  // The launcher, the marker and the hash must leave room for the wrapper's first line.
  const head = `#!/usr/bin/env node\n${launcher.trimEnd()}${SERVER_START}${hash}\n`;
  if (head.length < WRAPPER_START.length) throw new Error('the launcher is too short to hold the wrapper');
  return `${head}${server.replaceAll('*/', `*${ESCAPE}/`)}${SERVER_END}`;
}

/**
 * The server's code as bundleText wrote it, wrapped as a function expression (WRAPPER_START on a
 * line of its own), the line of the file the wrapper's line stands for (0-based, for stack
 * traces), and the hash of the code. The escapes are taken out and the wrapper written within
 * the buffer given (it is changed: the launcher's own reading), so the code is copied once,
 * into a string Node keeps outside V8's heap (one this large is made external), and nothing of
 * four megabytes is left behind for V8 to collect.
 */
export function serverOfBundle(bundle: Buffer): { code: string; lineOffset: number; hash: string } {
  // The one followed by a hash: the launcher's own code holds the marker too (esbuild writes it
  // as it is, newlines and all). Searched from the start, a few kilobytes, not the whole file.
  let marker = bundle.indexOf(SERVER_START);
  while (marker !== -1 && !HASH_LINE.test(bundle.toString('latin1', marker + SERVER_START.length, marker + SERVER_START.length + HASH_LENGTH + 1))) {
    marker = bundle.indexOf(SERVER_START, marker + 1);
  }
  const hashEnd = marker + SERVER_START.length + HASH_LENGTH;
  const start = hashEnd + 1;
  const end = bundle.length - SERVER_END.length;
  if (marker === -1 || bundle.toString('latin1', end) !== SERVER_END) throw new Error('the server is missing from the bundle; build it again');
  const hash = bundle.toString('latin1', marker + SERVER_START.length, hashEnd);
  let lineOffset = -1;
  for (let at = bundle.indexOf('\n'); at !== -1 && at < start; at = bundle.indexOf('\n', at + 1)) lineOffset++;
  // ESCAPE stands nowhere but in an escape, after its "*": a byte searched for as such (memchr), not a string.
  const escape = ESCAPE.charCodeAt(0);
  let read = start;
  let write = start;
  for (let at = bundle.indexOf(escape, start); at !== -1 && at < end; at = bundle.indexOf(escape, read)) {
    bundle.copyWithin(write, read, at);
    write += at - read;
    read = at + 1;
  }
  bundle.copyWithin(write, read, end);
  write += end - read;
  // Over the end of the launcher's code and the marker, read already; and over what the escapes freed and SERVER_END.
  bundle.write(WRAPPER_START, start - WRAPPER_START.length, 'latin1');
  bundle.write(WRAPPER_END, write, 'latin1');
  return { code: bundle.toString('latin1', start - WRAPPER_START.length, write + WRAPPER_END.length), lineOffset, hash };
}

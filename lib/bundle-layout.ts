/**
 * How dist/stoa.js is laid out: the launcher (lib/launcher.ts) first, then the server inside
 * one comment, which the launcher compiles only in the Node that serves. V8 parses every
 * function of a script it compiles, but only skims a comment for its end: so a Node that
 * replaces itself before serving (lib/memory/bounded-heap.ts) compiles a few lines, not the
 * server's four megabytes.
 *
 * The comment starts with SERVER_START and ends with SERVER_END, the file's last bytes. Inside
 * it, every "*" "/" of the server (which would end the comment early) is written "*", ESCAPE, "/";
 * the server's code holds ESCAPE nowhere else.
 */
const SERVER_START = '\n/*stoa-server\n';
const SERVER_END = '\n*/\n';
const ESCAPE = '\x0b';

/** The bundle's text, from the launcher's code and the server's (both ASCII). */
export function bundleText(launcher: string, server: string): string {
  if (server.includes(ESCAPE) || server.includes(SERVER_START)) throw new Error("the server's code holds the bundle's markers");
  return `#!/usr/bin/env node\n${launcher.trimEnd()}${SERVER_START}${server.replaceAll('*/', `*${ESCAPE}/`)}${SERVER_END}`;
}

/**
 * The server's code as bundleText wrote it, and how many lines of the file come before it. The
 * escapes are taken out within the buffer given (it is changed: the launcher's own reading), so the code is copied once, into a string
 * Node keeps outside V8's heap (one this large is made external), and nothing of four megabytes
 * is left behind for V8 to collect.
 */
export function serverOfBundle(bundle: Buffer): { code: string; lineOffset: number } {
  // The last: the launcher's own code holds the marker too (esbuild writes it as it is, newlines and all).
  const start = bundle.lastIndexOf(SERVER_START) + SERVER_START.length;
  const end = bundle.length - SERVER_END.length;
  if (start < SERVER_START.length || bundle.toString('latin1', end) !== SERVER_END) throw new Error('the server is missing from the bundle; build it again');
  let lineOffset = 0;
  for (let at = bundle.indexOf('\n'); at !== -1 && at < start; at = bundle.indexOf('\n', at + 1)) lineOffset++;
  const escaped = `*${ESCAPE}/`;
  let read = start;
  let write = start;
  for (let at = bundle.indexOf(escaped, start); at !== -1 && at < end; at = bundle.indexOf(escaped, read)) {
    bundle.copyWithin(write, read, at + 1);
    write += at + 1 - read;
    read = at + 2;
  }
  bundle.copyWithin(write, read, end);
  write += end - read;
  return { code: bundle.toString('latin1', start, write), lineOffset };
}

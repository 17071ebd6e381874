import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * How dist/stoa.js is laid out: the launcher (lib/launcher.ts) first, then the server's code
 * inside one comment, then the data the server reads only when it needs it (the web client's
 * files, the packages loaded on first use) in two line comments. V8 parses every function of a
 * script it compiles, but only skims a comment for its end: so a Node that replaces itself
 * before serving (lib/memory/bounded-heap.ts) compiles a few lines, not the server's
 * megabytes. And V8 keeps the whole text of a script it runs for as long as it runs: the data
 * is no part of the server's script, so it costs no memory until it is read, by offset, from
 * the file.
 *
 * The server's comment starts with SERVER_START and one line, the header: a hash of the
 * server's code (which keys its code cache, lib/code-cache.ts), then the lengths in bytes of
 * the server's code, of the data's index and of the data. Then the server's code and
 * SERVER_END. Inside it every "*" "/" of the server (which would end the comment early) is
 * written "*", ESCAPE, "/"; the server's code holds ESCAPE nowhere else. Then DATA_LINE and the
 * index (a JSON object: name -> [offset in the data, length, hash of the decoded bytes]), and
 * DATA_LINE and the data (each file in base64, one after the other), each on a line of its own:
 * line comments, so that a file cut short in its data is still a script, and its launcher
 * says what is wrong instead of Node reporting a comment without its end.
 */
const SERVER_START = '\n/*stoa-server ';
const SERVER_END = '\n*/\n';
const DATA_LINE = '//';
const ESCAPE = '\x0b';
const HASH_LENGTH = 32;
const HEADER = new RegExp(`^([0-9a-f]{${HASH_LENGTH}}) (\\d+) (\\d+) (\\d+)\n`);
/** The header follows the launcher, a few kilobytes: this much of the file is read to find it. */
const HEAD_BYTES = 65_536;
/**
 * The server is compiled as a function of what Node gives a CommonJS module; its code is read
 * into a buffer between these two (see openBundle).
 */
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_END = '\n})';
/**
 * How the launcher hands the data to the server: they are compiled apart, and share the global
 * object. Only numbers: a function of the launcher kept by the server would keep the launcher's
 * script, and with it the whole file's text as Node's loader read it, for as long as it runs.
 */
const DATA = Symbol.for('stoa.bundle-data');

function sha(bytes: Buffer | string): string {
  // Required here: the launcher holds this module too, and needs no crypto before replacing itself.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(bytes).digest('hex').slice(0, HASH_LENGTH);
}

/** The bundle's text, from the launcher's code, the server's (both ASCII) and the data files, by name. */
export function bundleText(launcher: string, server: string, files: ReadonlyMap<string, Buffer> = new Map()): string {
  if (server.includes(ESCAPE) || server.includes(SERVER_START)) throw new Error("the server's code holds the bundle's markers");
  const escaped = server.replaceAll('*/', `*${ESCAPE}/`);
  const index: Record<string, [number, number, string]> = {};
  const data: string[] = [];
  let offset = 0;
  // By name: the same files make the same bundle, whatever order the build found them in.
  for (const name of [...files.keys()].sort()) {
    const bytes = files.get(name)!;
    const base64 = bytes.toString('base64');
    index[name] = [offset, base64.length, sha(bytes)];
    data.push(base64);
    offset += base64.length;
  }
  const indexText = JSON.stringify(index);
  if (/[^\x20-\x7e]/.test(indexText)) throw new Error(`a data file's name cannot be carried in the bundle: ${indexText}`);
  const header = `${sha(server)} ${escaped.length} ${indexText.length} ${offset}\n`;
  return `#!/usr/bin/env node\n${launcher.trimEnd()}${SERVER_START}${header}${escaped}${SERVER_END}${DATA_LINE}${indexText}\n${DATA_LINE}${data.join('')}\n`;
}

/** Reads `length` bytes of the bundle at `position` into `target` at `offset` (fs.readSync's order), returning how many were read. */
export type ReadBundle = (target: Buffer, offset: number, length: number, position: number) => number;

/** The data files after the server's code, read from the bundle by name when first asked for. */
export class BundleData {
  private index: Record<string, [number, number, string]> | undefined;

  constructor(
    private readonly readAt: ReadBundle,
    private readonly place: DataPlace,
  ) {}

  private bytes(position: number, length: number): Buffer {
    const bytes = Buffer.allocUnsafe(length);
    if (readFully(this.readAt, bytes, 0, length, position) !== length) throw new BundleDamagedError('it is shorter than its header says');
    return bytes;
  }

  /** The names of the files, in order. */
  names(): string[] {
    return Object.keys(this.entries());
  }

  private entries(): Record<string, [number, number, string]> {
    if (!this.index) {
      try {
        this.index = JSON.parse(this.bytes(this.place.indexStart, this.place.indexLength).toString('latin1')) as Record<string, [number, number, string]>;
      } catch (err) {
        if (err instanceof BundleDamagedError) throw err;
        throw new BundleDamagedError("the index of its data cannot be read");
      }
    }
    return this.index;
  }

  /** The file's bytes, as the build put them in; throws if there is none of that name, or if they are not those built. */
  read(name: string): Buffer {
    const entry = Object.hasOwn(this.entries(), name) ? this.entries()[name] : undefined;
    if (!entry) throw new Error(`the bundle holds no file named ${name}`);
    const [offset, length, hash] = entry;
    const bytes = Buffer.from(this.bytes(this.place.dataStart + offset, length).toString('latin1'), 'base64');
    if (sha(bytes) !== hash) throw new BundleDamagedError(`${name} is not what was built`);
    return bytes;
  }
}

/** Where the data's index and the data start in the bundle, and the index's length. */
export interface DataPlace {
  indexStart: number;
  indexLength: number;
  dataStart: number;
}

/** A bundle that is not whole (cut short in a copy, changed on disk): it says so, and what to do. */
export class BundleDamagedError extends Error {
  constructor(what: string) {
    super(`the bundle is damaged (${what}); build it or copy it again`);
  }
}

function readFully(readAt: ReadBundle, target: Buffer, offset: number, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    const read = readAt(target, offset + done, length - done, position + done);
    if (read <= 0) break;
    done += read;
  }
  return done;
}

/** What the launcher needs of the bundle: the server's code wrapped as a function expression, the line of the file the wrapper's line stands for (0-based, for stack traces), the hash of the code, and the data (and where it is). */
export interface OpenedBundle {
  code: string;
  lineOffset: number;
  hash: string;
  place: DataPlace;
  data: BundleData;
}

/**
 * Reads the bundle's header and the server's code (not the data) from a bundle of `size` bytes.
 * The escapes are taken out within the one buffer the code is read into, so the code is copied
 * once more, into a string Node keeps outside V8's heap (one this large is made external).
 */
export function openBundle(size: number, readAt: ReadBundle): OpenedBundle {
  const head = Buffer.allocUnsafe(Math.min(HEAD_BYTES, size));
  const headLength = readFully(readAt, head, 0, head.length, 0);
  // The one followed by a header: the launcher's own code holds the marker too (esbuild writes it as it is).
  let header: RegExpExecArray | null = null;
  let marker = head.indexOf(SERVER_START);
  for (; marker !== -1 && marker < headLength; marker = head.indexOf(SERVER_START, marker + 1)) {
    header = HEADER.exec(head.toString('latin1', marker + SERVER_START.length, Math.min(headLength, marker + SERVER_START.length + 100)));
    if (header) break;
  }
  if (!header) throw new Error('the server is missing from the bundle; build it again');
  const [line, hash, serverText, indexText, dataText] = header;
  const serverLength = Number(serverText);
  const indexLength = Number(indexText);
  const dataLength = Number(dataText);
  const start = marker + SERVER_START.length + line.length;
  const indexStart = start + serverLength + SERVER_END.length + DATA_LINE.length;
  const dataStart = indexStart + indexLength + 1 + DATA_LINE.length;
  const expected = dataStart + dataLength + 1;
  if (size !== expected) throw new BundleDamagedError(`${size} bytes where its header says ${expected}`);
  let lineOffset = -1;
  for (let at = head.indexOf('\n'); at !== -1 && at < start; at = head.indexOf('\n', at + 1)) lineOffset++;

  // Room for the wrapper's end, where the comment's end is read, to check it is where the header says.
  const code = Buffer.allocUnsafe(WRAPPER_START.length + serverLength + WRAPPER_END.length);
  const end = WRAPPER_START.length + serverLength;
  const ending = WRAPPER_END.length;
  if (readFully(readAt, code, WRAPPER_START.length, serverLength + ending, start) !== serverLength + ending || code.toString('latin1', end) !== SERVER_END.slice(0, ending)) {
    throw new BundleDamagedError("its server's code does not end where its header says");
  }
  // ESCAPE stands nowhere but in an escape, after its "*": a byte searched for as such (memchr), not a string.
  const escape = ESCAPE.charCodeAt(0);
  let read = WRAPPER_START.length;
  let write = read;
  for (let at = code.indexOf(escape, read); at !== -1 && at < end; at = code.indexOf(escape, read)) {
    code.copyWithin(write, read, at);
    write += at - read;
    read = at + 1;
  }
  code.copyWithin(write, read, end);
  write += end - read;
  code.write(WRAPPER_START, 0, 'latin1');
  code.write(WRAPPER_END, write, 'latin1');
  const place = { indexStart, indexLength, dataStart };
  return { code: code.toString('latin1', 0, write + WRAPPER_END.length), lineOffset, hash, place, data: new BundleData(readAt, place) };
}

/** fs.readSync on an open file, as openBundle reads. */
function readerOf(fd: number): ReadBundle {
  return (target, offset, length, position) => readSync(fd, target, offset, length, position);
}

/**
 * Opens the bundle's file and reads it as openBundle does. The file stays open for as long as
 * the process runs, and the data is read through it: a build that replaces the file (written
 * beside it, then renamed over) does not change what a running server reads.
 */
export function openBundleFile(file: string): OpenedBundle & { fd: number } {
  const fd = openSync(file, 'r');
  try {
    return { ...openBundle(fstatSync(fd).size, readerOf(fd)), fd };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** The launcher hands the server its bundle's data (see bundledData): the open file and where the data is in it. */
export function handDataToServer(fd: number, place: DataPlace): void {
  (globalThis as { [DATA]?: DataPlace & { fd: number } })[DATA] = { fd, indexStart: place.indexStart, indexLength: place.indexLength, dataStart: place.dataStart };
}

let handed: BundleData | undefined;

/** The data of the bundle this server runs from; undefined when it runs from source (no bundle). */
export function bundledData(): BundleData | undefined {
  const given = (globalThis as { [DATA]?: DataPlace & { fd: number } })[DATA];
  if (given && !handed) handed = new BundleData(readerOf(given.fd), given);
  return handed;
}

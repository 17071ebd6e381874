#!/usr/bin/env node
/**
 * `npm start`: runs the bundle, dist/stoa.js, in this process, building it first when it is
 * missing or older than a source it is made of. The server then runs as users run the
 * distributable (it bounds its own heap, see lib/memory/bounded-heap.ts) instead of through
 * tsx, which kept TypeScript's compiler and every source's text in memory besides the server.
 * Plain JavaScript, so that a fresh start costs no compiler: the check reads file times only.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { readdirSync, statSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const bundle = path.join(root, 'dist', 'stoa.js');
/** What the bundle is made of (scripts/build.ts): the server, the web client, the schema, the packages. */
const SOURCES = ['server.ts', 'lib', 'web', 'schema.sql', 'scripts/build.ts', 'package-lock.json'];

/** The newest modification time of a file, or of any file under a folder (0 if it is missing). */
function newest(file) {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(file).reduce((latest, name) => Math.max(latest, newest(path.join(file, name))), stat.mtimeMs);
}

const built = newest(bundle);
if (built === 0 || SOURCES.some((source) => newest(path.join(root, source)) > built)) {
  // The build takes seconds (half a minute on a busy machine): say what the wait is for.
  console.log(built === 0 ? 'Building dist/stoa.js (first start)…' : 'Building dist/stoa.js (a source changed)…');
  const build = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'build.ts'), bundle], { stdio: 'inherit', cwd: root });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
require(bundle);

import { readFileSync } from 'node:fs';
import { serverOfBundle } from './bundle-layout';
import { compileServer } from './code-cache';
import { dataFolderNamed } from './data-folder';
import { restartWithBoundedHeap } from './memory/bounded-heap';

/**
 * The first lines of dist/stoa.js (see lib/bundle-layout.ts). Started without heap flags, it
 * replaces this Node by one started with them before anything of the server is compiled;
 * then, in the Node that serves, it compiles the server (with the code cache a previous start
 * left in the data folder, lib/code-cache.ts) and runs it as this module's own code (same
 * require, module, file name and directory; stack traces give the file's line numbers).
 */
restartWithBoundedHeap();
const { code, lineOffset, hash } = serverOfBundle(readFileSync(__filename));
const dataFolder = dataFolderNamed(process.argv.slice(2), process.env);
const server = compileServer(code, { filename: __filename, lineOffset, bundleHash: hash, dataFolder });
server.call(module.exports, module.exports, require, module, __filename, __dirname);

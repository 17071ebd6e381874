import { handDataToServer, openBundleFile, type OpenedBundle } from './bundle-layout';
import { compileServer } from './code-cache';
import { dataFolderNamed } from './data-folder';
import { restartWithBoundedHeap } from './memory/bounded-heap';

/**
 * The first lines of dist/stoa.js (see lib/bundle-layout.ts). Started without heap flags, it
 * replaces this Node by one started with them before anything of the server is compiled;
 * then, in the Node that serves, it compiles the server (with the code cache a previous start
 * left in the data folder, lib/code-cache.ts) and runs it as this module's own code (same
 * require, module, file name and directory; stack traces give the file's line numbers). The
 * data after the server's code stays in the file until the server asks for it.
 */
restartWithBoundedHeap();
let opened: OpenedBundle & { fd: number };
try {
  opened = openBundleFile(__filename);
} catch (err) {
  // A bundle cut short or changed says so in one line, as the server's own refusals do.
  console.error(`stoa: ${(err as Error).message}`);
  process.exit(1);
}
const { code, lineOffset, hash, place, fd } = opened;
handDataToServer(fd, place);
const dataFolder = dataFolderNamed(process.argv.slice(2), process.env);
const server = compileServer(code, { filename: __filename, lineOffset, bundleHash: hash, dataFolder });
server.call(module.exports, module.exports, require, module, __filename, __dirname);

import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { serverOfBundle } from './bundle-layout';
import { restartWithBoundedHeap } from './memory/bounded-heap';

/**
 * The first lines of dist/stoa.js (see lib/bundle-layout.ts). Started without heap flags, it
 * replaces this Node by one started with them before anything of the server is compiled;
 * then, in the Node that serves, it compiles the server and runs it as this module's own code
 * (same require, module, file name and directory; stack traces give the file's line numbers).
 */
restartWithBoundedHeap();
const { code, lineOffset } = serverOfBundle(readFileSync(__filename));
const server = vm.compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: __filename, lineOffset });
server.call(module.exports, module.exports, require, module, __filename, __dirname);

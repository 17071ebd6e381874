import { writeCodeCacheWhenIdle } from './lib/code-cache';
import { ConfigError, parseConfig, usage } from './lib/config';
import { beginOwnerPasswordOnFirstStart } from './lib/first-start';

/** Shutdown must finish within this long of a signal, whatever is still in flight. */
const SHUTDOWN_LIMIT_MS = 1800;

async function main(): Promise<void> {
  // `stoa export ...` writes a Zulip export of a data folder instead of serving it.
  if (process.argv[2] === 'export') {
    const { runExportCommand } = require('./lib/export/cli') as typeof import('./lib/export/cli');
    process.exitCode = await runExportCommand(process.argv.slice(3), process.env);
    return;
  }
  // `stoa import ...` fills a new data folder from a Zulip export instead of serving.
  if (process.argv[2] === 'import') {
    const { runImportCommand } = require('./lib/import/cli') as typeof import('./lib/import/cli');
    process.exitCode = await runImportCommand(process.argv.slice(3), process.env);
    return;
  }
  // `stoa backup ...` writes a backup of a data folder, served or not; `stoa restore ...` fills a new one from it.
  if (process.argv[2] === 'backup' || process.argv[2] === 'restore') {
    const { runBackupCommand, runRestoreCommand } = require('./lib/backup/cli') as typeof import('./lib/backup/cli');
    const run = process.argv[2] === 'backup' ? runBackupCommand : runRestoreCommand;
    process.exitCode = await run(process.argv.slice(3), process.env);
    return;
  }
  // `stoa reactivate ...` opens a deactivated organization again.
  if (process.argv[2] === 'reactivate') {
    const { runReactivateCommand } = require('./lib/realm/reactivate-cli') as typeof import('./lib/realm/reactivate-cli');
    process.exitCode = runReactivateCommand(process.argv.slice(3), process.env);
    return;
  }
  // `stoa owner-full-content-access ...` sets whether owners may access all private content.
  if (process.argv[2] === 'owner-full-content-access') {
    const { runOwnerFullContentAccessCommand } = require('./lib/realm/reactivate-cli') as typeof import('./lib/realm/reactivate-cli');
    process.exitCode = runOwnerFullContentAccessCommand(process.argv.slice(3), process.env);
    return;
  }
  let config;
  try {
    config = parseConfig(process.argv.slice(2), process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`stoa: ${err.message}`);
    process.exit(2);
  }
  if (config === 'help') {
    console.log(usage());
    return;
  }

  // On a first start the owner's password hash (about 160 ms of scrypt on another thread)
  // begins now, and the rest of the server is loaded only then, so the two overlap: the
  // server's modules are initialized on this require, not when the script is loaded.
  const ownerPassword = beginOwnerPasswordOnFirstStart(config);
  const { DemoRefusedError, startServer } = require('./lib/server') as typeof import('./lib/server');
  const { DatabaseInUseError } = require('./lib/db') as typeof import('./lib/db');

  let server;
  try {
    server = await startServer(config, { ownerPassword });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (err instanceof DemoRefusedError) {
      console.error(`stoa: ${err.message}`);
    } else if (err instanceof DatabaseInUseError) {
      console.error(`stoa: ${err.message}; is another Stoa running on ${config.data}?`);
    } else if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      console.error(`stoa: cannot listen on ${config.host}:${config.port} (${code})`);
    } else {
      throw err;
    }
    process.exit(1);
  }

  // Started from dist/stoa.js, the next start compiles less (lib/code-cache.ts).
  if (config.data !== ':memory:') writeCodeCacheWhenIdle(config.data);

  const stop = (signal: string) => {
    console.log(`Received ${signal}, shutting down.`);
    setTimeout(() => process.exit(0), SHUTDOWN_LIMIT_MS).unref();
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

void main();

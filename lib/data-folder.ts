import { parseArgs } from 'node:util';

/** How the command line and environment name the data folder, and the folder when they do not. */
export const DATA_FLAG = 'data';
export const DATA_VARIABLE = 'STOA_DATA';
export const DEFAULT_DATA_FOLDER = './data';

/**
 * The data folder the command line or environment names, as parseConfig (lib/config.ts) reads
 * it, but read before anything else is checked and never refused: the launcher
 * (lib/launcher.ts) looks there for the server's code cache before the server is compiled, and
 * imports this module alone so that it stays small. A command line parseConfig would refuse
 * gives what it can; the server then stops with parseConfig's message.
 */
export function dataFolderNamed(argv: string[], env: NodeJS.ProcessEnv): string {
  const { values } = parseArgs({ args: argv, options: { [DATA_FLAG]: { type: 'string' } }, strict: false, allowPositionals: true });
  const named = values[DATA_FLAG];
  return typeof named === 'string' ? named : (env[DATA_VARIABLE] ?? DEFAULT_DATA_FOLDER);
}

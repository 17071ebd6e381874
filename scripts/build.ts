import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

/**
 * Bundles the server into one script. Everything is inside it but better-sqlite3 and sharp,
 * whose native parts must come from installed packages; schema.sql rides along as text. The
 * benchmarks bundle their own server entry the same way, to measure what users run.
 */
export async function buildBundle(outfile = path.join(root, 'dist', 'stoa.js'), entry = path.join(root, 'server.ts')): Promise<string> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['better-sqlite3', 'sharp'],
    define: { STOA_SCHEMA_SQL: JSON.stringify(readFileSync(path.join(root, 'schema.sql'), 'utf8')) },
    banner: { js: '#!/usr/bin/env node' },
    legalComments: 'none',
    logLevel: 'warning',
  });
  return outfile;
}

if (require.main === module) {
  buildBundle(process.argv[2]).then(
    (outfile) => console.log(`Built ${path.relative(process.cwd(), outfile)}`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

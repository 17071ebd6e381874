import { bundledData } from '../bundle-layout';
import type { WebAsset, WebBundle } from './build';

/**
 * The web client as scripts/build.ts embeds it in dist/stoa.js: what the page names, in the
 * server's code; the files' bytes in the bundle's data after it (lib/bundle-layout.ts), read
 * when the first page or file is asked for.
 */
interface EmbeddedWebBundle {
  script: string;
  stylesheet: string;
  preloads: string[];
  pageScript: string;
  assets: Array<{ name: string; contentType: string }>;
}

// Defined by scripts/build.ts in the bundled script, as the JSON text of an EmbeddedWebBundle; undefined when running from source.
declare const STOA_WEB_BUNDLE: string | undefined;

/** The web client's files, looked up by name. */
export interface WebFiles {
  script: string;
  stylesheet: string;
  preloads: string[];
  pageScript: string;
  byName: Map<string, WebAsset>;
}

let loading: Promise<WebFiles> | undefined;

function indexed(bundle: WebBundle): WebFiles {
  return { script: bundle.script, stylesheet: bundle.stylesheet, preloads: bundle.preloads, pageScript: bundle.pageScript, byName: new Map(bundle.assets.map((asset) => [asset.name, asset])) };
}

/**
 * The web client: embedded in the bundled script, or, from a checkout, built with esbuild the
 * first time a page or asset is asked for (once; start-up does not wait for it).
 */
export function webFiles(): Promise<WebFiles> {
  loading ??= (async () => {
    if (typeof STOA_WEB_BUNDLE === 'string') {
      const embedded = JSON.parse(STOA_WEB_BUNDLE) as EmbeddedWebBundle;
      const data = bundledData();
      if (!data) throw new Error('the web client is carried in the bundle, and this server was not started from one');
      return indexed({
        script: embedded.script,
        stylesheet: embedded.stylesheet,
        preloads: embedded.preloads,
        pageScript: embedded.pageScript,
        assets: embedded.assets.map(({ name, contentType }) => ({ name, contentType, body: data.read(bundledWebFileName(name)) })),
      });
    }
    const { buildWebBundle } = await import('./build');
    return indexed(await buildWebBundle());
  })();
  // A failed build is tried again at the next request (the source may have been fixed).
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** The name of a web client's file in the bundle's data. */
export function bundledWebFileName(name: string): string {
  return `web/${name}`;
}

/** The web client in the form scripts/build.ts embeds it: what goes in the server's code, and the files for the bundle's data, by name. */
export function embeddableBundle(bundle: WebBundle): { embedded: EmbeddedWebBundle; files: Map<string, Buffer> } {
  return {
    embedded: {
      script: bundle.script,
      stylesheet: bundle.stylesheet,
      preloads: bundle.preloads,
      pageScript: bundle.pageScript,
      assets: bundle.assets.map(({ name, contentType }) => ({ name, contentType })),
    },
    files: new Map(bundle.assets.map(({ name, body }) => [bundledWebFileName(name), body])),
  };
}

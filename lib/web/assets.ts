import type { WebAsset, WebBundle } from './build';

/** The web client as scripts/build.ts embeds it in dist/stoa.js: files as base64. */
interface EmbeddedWebBundle {
  script: string;
  stylesheet: string;
  preloads: string[];
  pageScript: string;
  assets: Array<{ name: string; contentType: string; base64: string }>;
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
      return indexed({
        script: embedded.script,
        stylesheet: embedded.stylesheet,
        preloads: embedded.preloads,
        pageScript: embedded.pageScript,
        assets: embedded.assets.map(({ name, contentType, base64 }) => ({ name, contentType, body: Buffer.from(base64, 'base64') })),
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

/** The web client in the form scripts/build.ts embeds it. */
export function embeddableBundle(bundle: WebBundle): EmbeddedWebBundle {
  return {
    script: bundle.script,
    stylesheet: bundle.stylesheet,
    preloads: bundle.preloads,
    pageScript: bundle.pageScript,
    assets: bundle.assets.map(({ name, contentType, body }) => ({ name, contentType, base64: body.toString('base64') })),
  };
}

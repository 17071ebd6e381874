import type express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { escapeHtml } from '../mail/outgoing';
import type { Stoa } from '../stoa';
import { webFiles, type WebFiles } from './assets';

/** Where the client's hashed files are served. */
export const WEB_STATIC_PATH = '/static/web';

/** The paths that answer the client's page; the client picks the screen from the path. */
export const WEB_PAGE_PATHS = ['/', '/login', '/join/:key'];

/**
 * The page's Content-Security-Policy: scripts and styles only from files of this server (no
 * inline script can run, whatever a message holds), except inline style attributes, which
 * KaTeX's rendered math needs; pictures from here, data: URLs and, unless --no-gravatar,
 * gravatar; requests only to this server. `pageScript` is the one inline script allowed, by
 * its hash: the client's page's own (see pageHtml).
 */
export function contentSecurityPolicy(stoa: Stoa, pageScript?: string): string {
  const images = ["'self'", 'data:', 'blob:', ...(stoa.config.gravatar ? ['https://secure.gravatar.com'] : [])];
  return [
    "default-src 'none'",
    `script-src 'self'${pageScript === undefined ? '' : ` 'sha256-${createHash('sha256').update(pageScript).digest('base64')}'`}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images.join(' ')}`,
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** An HTML document: the head every page has (title, what `head` adds, stylesheet), then `body`. */
function htmlDocument(files: WebFiles, title: string, head: string[], body: string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    // No icon yet; saying so spares the browser a request for /favicon.ico.
    '<link rel="icon" href="data:,">',
    `<title>${escapeHtml(title)}</title>`,
    // Before the stylesheet: an inline script after one would wait for it to load.
    ...head,
    `<link rel="stylesheet" href="${WEB_STATIC_PATH}/${files.stylesheet}">`,
    '</head>',
    '<body>',
    ...body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function pageHtml(files: WebFiles): string {
  return htmlDocument(
    files,
    'Stoa',
    [
      // The first requests go out from here, while the browser fetches the files below.
      `<script>${files.pageScript}</script>`,
      `<script type="module" src="${WEB_STATIC_PATH}/${files.script}"></script>`,
      ...files.preloads.map((chunk) => `<link rel="modulepreload" href="${WEB_STATIC_PATH}/${chunk}">`),
    ],
    ['<div id="app"></div>', '<noscript>Stoa&#39;s web client needs JavaScript.</noscript>'],
  );
}

/**
 * A page of the server's own, without the client's script: what a link in an email opens
 * (a password reset, a confirmed address, an unsubscription). It has the client's stylesheet
 * and security headers; `body` is HTML the caller escaped.
 */
export async function sendPlainPage(stoa: Stoa, res: Response, status: number, title: string, body: string): Promise<void> {
  const heading = `<main class="center-page"><div class="card"><h1>${escapeHtml(title)}</h1>`;
  const html = htmlDocument(await webFiles(), title, [], [heading, body, '</div></main>']);
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(stoa));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // The page's address holds a secret key: it must not reach other sites.
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.end(html);
}

/** Adds the web client's page and files to the app, before its final 404. */
export function mountWebClient(app: express.Express, stoa: Stoa): void {
  let built: { html: string; policy: string } | undefined;

  const page = async (_req: Request, res: Response, next: NextFunction) => {
    try {
      if (!built) {
        const files = await webFiles();
        built = { html: pageHtml(files), policy: contentSecurityPolicy(stoa, files.pageScript) };
      }
    } catch (err) {
      return next(err);
    }
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', built.policy);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.end(built.html);
  };
  for (const path of WEB_PAGE_PATHS) app.get(path, page);

  // Scripts and stylesheets are sent compressed to browsers that take it, compressed once.
  const gzipped = new Map<string, Buffer>();
  app.get(`${WEB_STATIC_PATH}/:name`, async (req: Request, res: Response, next: NextFunction) => {
    let files: WebFiles;
    try {
      files = await webFiles();
    } catch (err) {
      return next(err);
    }
    const asset = files.byName.get(String(req.params.name));
    if (!asset) return next();
    res.setHeader('Content-Type', asset.contentType);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Vary', 'Accept-Encoding');
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) && asset.contentType.startsWith('text/')) {
      let compressed = gzipped.get(asset.name);
      if (!compressed) gzipped.set(asset.name, (compressed = gzipSync(asset.body, { level: 9 })));
      res.setHeader('Content-Encoding', 'gzip');
      return void res.end(compressed);
    }
    res.end(asset.body);
  });
}

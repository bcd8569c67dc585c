/**
 * The API reference page at /api/v2/docs: Swagger UI (swagger-ui-dist, bundled with the
 * project, nothing from a CDN) rendering the served OpenAPI document. The page and its three
 * files are served by the platform function; on Lambda the files sit beside the bundle (copied
 * at synth, lib/api.ts), locally they are read from node_modules. Each is read once.
 *
 * The page loads nothing but its own files: no inline script (the start-up code is a file of its
 * own), so the Content-Security-Policy can forbid everything else.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where the files sit beside a Lambda bundle. */
export const referencePageDir = 'reference-page';

/** The files the page loads, by the name in their URL, with their file in swagger-ui-dist. */
export const referenceAssets = {
  'swagger-ui.css': { file: 'swagger-ui.css', contentType: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', contentType: 'text/javascript; charset=utf-8' },
} as const;

export type ReferenceAssetName = keyof typeof referenceAssets | 'start.js';

export const referenceAssetNames: [ReferenceAssetName, ...ReferenceAssetName[]] = [
  'start.js',
  ...(Object.keys(referenceAssets) as Array<keyof typeof referenceAssets>),
];

/** The page's own start-up code: Swagger UI on the served document, tokens kept while browsing. */
const startScript = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/v2/openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    persistAuthorization: true,
    displayOperationId: true,
    defaultModelsExpandDepth: 0,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

export const referencePageHeaders = {
  'cache-control': 'public, max-age=300',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "font-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

/** The HTML of the page; its files are under /api/v2/docs/ (absolute, so a trailing slash works too). */
export function referencePageHtml(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title.replace(/[<>&"]/g, '')} – API reference</title>
<link rel="stylesheet" href="/api/v2/docs/swagger-ui.css">
</head>
<body>
<noscript>The reference page needs JavaScript; the document itself is at <a href="/api/v2/openapi.json">/api/v2/openapi.json</a>.</noscript>
<div id="reference"></div>
<script src="/api/v2/docs/swagger-ui-bundle.js"></script>
<script src="/api/v2/docs/start.js"></script>
</body>
</html>
`;
}

const cache = new Map<ReferenceAssetName, Promise<string>>();

/** The text of one file of the page. */
export function referenceAsset(name: ReferenceAssetName): Promise<{ body: string; contentType: string }> {
  if (name === 'start.js') {
    return Promise.resolve({ body: startScript, contentType: 'text/javascript; charset=utf-8' });
  }
  const asset = referenceAssets[name];
  let body = cache.get(name);
  if (!body) {
    body = readFile(join(assetDirectory(), asset.file), 'utf8');
    body.catch(() => cache.delete(name));
    cache.set(name, body);
  }
  return body.then((text) => ({ body: text, contentType: asset.contentType }));
}

function assetDirectory(): string {
  const lambdaRoot = process.env.LAMBDA_TASK_ROOT;
  if (lambdaRoot) return join(lambdaRoot, referencePageDir);
  // Resolved from the program that runs (bin/start.ts, the container, the test runner).
  const from = pathToFileURL(process.argv[1] ?? join(process.cwd(), 'index.js'));
  return dirname(createRequire(from).resolve('swagger-ui-dist/package.json'));
}

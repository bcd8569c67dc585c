/**
 * `node bin/scope-source-map.ts <file.js.map> …`: keeps only the mappings into this repository's
 * code (lib/source-map-scope.ts). The Lambda bundling hook runs it after esbuild.
 */
import { scopeSourceMapFile } from '../lib/source-map-scope.ts';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node bin/scope-source-map.ts <file.js.map> …');
  process.exit(2);
}
for (const file of files) scopeSourceMapFile(file);

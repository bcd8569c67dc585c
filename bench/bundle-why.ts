/**
 * What a bundle holds and why, from esbuild's metafile (`npm run bench:bundles -- --why <fn>`):
 * its largest packages and source folders, each with a shortest import chain from the entry
 * that pulls it in, then its largest files. The chain names the import to cut.
 */
import type { Metafile } from 'esbuild';

const packageCount = 25;
const fileCount = 30;

/** `zod` or `@aws-sdk/core` for a file in node_modules, else its folder (`shared/domain/areas`). */
function ownerOf(file: string): string {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (inPackage?.[1]) return inPackage[1];
  const parts = file.split('/');
  return parts.length > 3 ? parts.slice(0, 3).join('/') : file;
}

/**
 * For every input reachable from the entry, the input that first imports it (breadth first),
 * preferring paths through inputs the bundle kept: an import whose bindings esbuild dropped
 * explains nothing. Inputs reached only through dropped ones (a package's re-exporting index,
 * which keeps no bytes of its own) get their parent from the whole import graph.
 */
function importers(
  metafile: Metafile,
  entry: string,
  kept: Record<string, unknown>,
): Map<string, string | undefined> {
  const parent = new Map<string, string | undefined>([[entry, undefined]]);
  for (const allowed of [(path: string) => path in kept, () => true]) {
    const seen = new Set([entry]);
    const queue = [entry];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      for (const { path } of metafile.inputs[file]?.imports ?? []) {
        if (seen.has(path) || !metafile.inputs[path] || !allowed(path)) continue;
        seen.add(path);
        if (!parent.has(path)) parent.set(path, file);
        queue.push(path);
      }
    }
  }
  return parent;
}

function chainTo(file: string, parent: Map<string, string | undefined>): string[] {
  const chain: string[] = [];
  for (let at: string | undefined = file; at !== undefined; at = parent.get(at)) chain.unshift(at);
  return chain;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(7)} KB`;

export function explainBundle(metafile: Metafile, name: string): string {
  const output = Object.values(metafile.outputs).find((candidate) => candidate.entryPoint);
  if (!output?.entryPoint) throw new Error(`no entry output for ${name}`);
  const parent = importers(metafile, output.entryPoint, output.inputs);
  const files = Object.entries(output.inputs)
    .map(([file, { bytesInOutput }]) => ({ file, bytes: bytesInOutput }))
    .filter(({ bytes }) => bytes > 0);
  const owners = new Map<string, { bytes: number; first: string }>();
  for (const { file, bytes } of files) {
    const owner = owners.get(ownerOf(file));
    // The owner's file closest to the entry shows the import that brings the owner in.
    const depth = (candidate: string) => chainTo(candidate, parent).length;
    if (!owner) owners.set(ownerOf(file), { bytes, first: file });
    else {
      owner.bytes += bytes;
      if (parent.has(file) && depth(file) < depth(owner.first)) owner.first = file;
    }
  }

  const lines = [
    `${name}: ${kb(output.bytes)} (${files.length} inputs)`,
    '',
    'largest packages and folders:',
  ];
  for (const [owner, { bytes, first }] of [...owners]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, packageCount)) {
    lines.push(`${kb(bytes)}  ${owner}`);
    const chain = chainTo(first, parent)
      .slice(1, -1)
      .map(ownerOrFile)
      .filter((step, i, steps) => step !== steps[i - 1] && step !== owner);
    if (chain.length > 0) lines.push(`             via ${chain.join(' > ')}`);
  }
  lines.push('', 'largest files:');
  for (const { file, bytes } of files.sort((a, b) => b.bytes - a.bytes).slice(0, fileCount)) {
    lines.push(`${kb(bytes)}  ${file}`);
  }
  return lines.join('\n');
}

/** Repository files by path, package files by package: the chain stays readable. */
function ownerOrFile(file: string): string {
  return file.includes('node_modules/') ? ownerOf(file) : file;
}

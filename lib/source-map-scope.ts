/**
 * The source map a Lambda ships covers this repository's code only: about three quarters of a
 * bundle's mappings point into node_modules (the AWS SDK, zod, Powertools …), whose frames an
 * operator reads from the package's own name anyway. Dropping them keeps the stack traces that
 * matter (our files and lines) and makes the map a seventh of its size (comments: 1.38 MB →
 * 194 KB), which the first stack trace of a container reads
 * (shared/observability/bundle-stack-traces.ts); with `--enable-source-maps`, as before, Node
 * read it at every cold start, and this alone took about 8 ms off comments' cold import. Run
 * after esbuild by the bundling hook and by `npm run bench:bundles`, so the benchmark measures
 * what is deployed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { decode, encode, type SourceMapSegment } from '@jridgewell/sourcemap-codec';

interface SourceMapV3 {
  version: 3;
  sources: string[];
  names: string[];
  mappings: string;
  sourcesContent?: (string | null)[];
  [key: string]: unknown;
}

/** Whether a source of the map is this repository's own code (not a dependency's). */
export function isOwnSource(source: string): boolean {
  return !/(^|\/)node_modules\//.test(source);
}

/**
 * `map` with only the mappings into our own sources: a generated position in a dependency's code
 * maps to nothing (a stack frame there keeps its bundle position), and the sources and names
 * nothing refers to any more are gone.
 */
export function scopeToOwnSources(map: SourceMapV3): SourceMapV3 {
  const sourceIndex = new Map<number, number>();
  const sources: string[] = [];
  const sourcesContent: (string | null)[] = [];
  map.sources.forEach((source, index) => {
    if (!isOwnSource(source)) return;
    sourceIndex.set(index, sources.length);
    sources.push(source);
    sourcesContent.push(map.sourcesContent?.[index] ?? null);
  });
  const nameIndex = new Map<number, number>();
  const names: string[] = [];
  const renumberName = (index: number): number => {
    let kept = nameIndex.get(index);
    if (kept === undefined) {
      kept = names.length;
      nameIndex.set(index, kept);
      names.push(map.names[index] ?? '');
    }
    return kept;
  };
  const lines = decode(map.mappings).map((line) => {
    const kept: SourceMapSegment[] = [];
    for (const segment of line) {
      const source = segment.length === 1 ? undefined : sourceIndex.get(segment[1]);
      if (segment.length === 1 || source === undefined) {
        // Still a segment, without a source: it ends the mapping before it, so a position in
        // dependency code is not taken for the end of our own code on the same (minified) line.
        if (kept.length > 0 && kept[kept.length - 1]?.length !== 1) kept.push([segment[0]]);
        continue;
      }
      kept.push(
        segment.length === 5
          ? [segment[0], source, segment[2], segment[3], renumberName(segment[4])]
          : [segment[0], source, segment[2], segment[3]],
      );
    }
    return kept;
  });
  const { sourcesContent: _dropped, ...rest } = map;
  return {
    ...rest,
    sources,
    names,
    mappings: encode(lines),
    ...(map.sourcesContent ? { sourcesContent } : {}),
  };
}

/** Rewrites the map file in place; answers its size before and after, in bytes. */
export function scopeSourceMapFile(file: string): { before: number; after: number } {
  const text = readFileSync(file, 'utf8');
  const scoped = JSON.stringify(scopeToOwnSources(JSON.parse(text) as SourceMapV3));
  writeFileSync(file, scoped);
  return { before: Buffer.byteLength(text), after: Buffer.byteLength(scoped) };
}

/**
 * Stack traces of a Lambda bundle read in our sources, mapped when a stack is formatted rather
 * than when the bundle loads. With `--enable-source-maps` Node reads and parses the bundle's map
 * (and scans the bundle for it) during every cold start, about 6 ms of the comments function's
 * import even with the map scoped to our code (lib/source-map-scope.ts); most containers never
 * format a stack. Here `Error.prepareStackTrace` maps the frames in the bundle through its map,
 * read on the first stack formatted (@jridgewell/trace-mapping), so an error logged by us or by
 * the Lambda runtime still says `shared/domain/…/x.ts:12:5`. A frame in a dependency (which the
 * scoped map leaves unmapped) and any frame outside the bundle keep V8's text.
 *
 * Installed on Lambda only (lambda-observability.ts), and not when Node maps stacks itself
 * (`--enable-source-maps` given after all).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';

type CallSite = NodeJS.CallSite;

/** Error text as V8 writes it above the frames ("TypeError: message"). */
function headerOf(error: Error): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return '<error>';
  }
}

/** `../../shared/x.ts` → `shared/x.ts`: sources are relative to the folder the bundle was built in. */
function repositoryPath(source: string): string {
  return source.replace(/^(?:\.\.\/)+/, '');
}

/**
 * Installs the mapping for the bundle at `bundleFile` (its map beside it, `<bundle>.map`).
 * Answers whether it did: not when Node already maps stacks.
 */
export function mapBundleStackTraces(bundleFile: string): boolean {
  if (process.sourceMapsEnabled) return false;
  let map: TraceMap | null | undefined;
  const bundleMap = (): TraceMap | null => {
    if (map === undefined) {
      try {
        map = new TraceMap(readFileSync(`${bundleFile}.map`, 'utf8'));
      } catch {
        map = null;
      }
    }
    return map;
  };

  const frameText = (site: CallSite): string => {
    const text = site.toString();
    if (site.getFileName() !== bundleFile) return text;
    const line = site.getLineNumber();
    const column = site.getColumnNumber();
    const traceMap = line && column ? bundleMap() : null;
    if (!traceMap || !line || !column) return text;
    const original = originalPositionFor(traceMap, { line, column: column - 1 });
    if (!original.source || original.line === null || original.column === null) return text;
    return text.replace(
      `${bundleFile}:${line}:${column}`,
      `${repositoryPath(original.source)}:${original.line}:${original.column + 1}`,
    );
  };

  Error.prepareStackTrace = (error: Error, sites: CallSite[]): string => {
    const frames = sites.map((site) => {
      try {
        return `    at ${frameText(site)}`;
      } catch {
        return `    at ${String(site)}`;
      }
    });
    return [headerOf(error), ...frames].join('\n');
  };
  return true;
}

/** On Lambda: the function's bundle, `$LAMBDA_TASK_ROOT/index.js` (lib/bundling.ts: CommonJS). */
export function mapLambdaStackTraces(): boolean {
  const root = process.env.LAMBDA_TASK_ROOT;
  return root ? mapBundleStackTraces(join(root, 'index.js')) : false;
}

/**
 * The layers of docs/architecture.md, held by the code itself: the data engine knows no entity,
 * the domain knows no transport, GraphQL reads through the domain, production files and
 * functions stay small enough to read, and test doubles live under test/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) found.push(...sources(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

const production = ['shared', 'functions', 'bin', 'lib']
  .flatMap(sources)
  .filter((path) => !path.endsWith('.test.ts'));

/** The relative imports of a file, as paths from the repository root. */
function importsOf(path: string): string[] {
  const text = readFileSync(join(root, path), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1] ?? '');
  return specifiers.map((specifier) => relative(root, join(root, path, '..', specifier)));
}

function violations(files: readonly string[], forbidden: readonly string[]): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((target) => forbidden.some((prefix) => target.startsWith(prefix)))
      .map((target) => `${file} → ${target}`),
  );
}

const under = (prefix: string) => production.filter((path) => path.startsWith(prefix));

describe('Architecture: layers', () => {
  it('keeps the data engine free of entities: nothing in shared/data imports the domain', () => {
    expect(violations(under('shared/data/'), ['shared/domain/'])).toEqual([]);
  });

  it('keeps the domain free of transports: no import of http, routes, server or graphql', () => {
    expect(
      violations(under('shared/domain/'), [
        'shared/http/',
        'shared/routes/',
        'shared/server/',
        'shared/graphql/',
      ]),
    ).toEqual([]);
  });

  it('lets GraphQL read through the domain only: nothing in shared/graphql imports shared/data', () => {
    expect(violations(under('shared/graphql/'), ['shared/data/'])).toEqual([]);
  });

  it('keeps test code out of production: no production file imports test/', () => {
    expect(violations(production, ['test/'])).toEqual([]);
  });
});

describe('Architecture: sizes', () => {
  it('has no production file over 500 lines', () => {
    const long = production
      .map((path) => ({ path, lines: readFileSync(join(root, path), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > 500)
      .map(({ path, lines }) => `${path}: ${lines}`);

    expect(long).toEqual([]);
  });

  // Biome's noExcessiveLinesPerFunction (150, biome.json) holds functions and methods but skips
  // class constructors, where a CDK stack's wiring tends to grow: they are counted here.
  it('has no production constructor over 150 lines', () => {
    const long: string[] = [];
    for (const path of production) {
      const lines = readFileSync(join(root, path), 'utf8').split('\n');
      lines.forEach((line, start) => {
        if (!/^\s*constructor\s*\(/.test(line)) return;
        let depth = 0;
        let opened = false;
        for (let end = start; end < lines.length; end++) {
          const text = lines[end] ?? '';
          depth += (text.match(/\{/g)?.length ?? 0) - (text.match(/\}/g)?.length ?? 0);
          opened ||= text.includes('{');
          if (opened && depth <= 0) {
            if (end - start + 1 > 150) long.push(`${path}:${start + 1}: ${end - start + 1} lines`);
            return;
          }
        }
      });
    }

    expect(long).toEqual([]);
  });
});

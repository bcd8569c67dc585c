/**
 * The executable-schema cache: one schema per content hash, shared by identical workspaces,
 * rebuilt for another shape, dropped after ten minutes unused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CustomObjectDefinition } from '../domain/custom-objects/definition.schema.ts';
import {
  cacheSizes,
  clearSchemaCache,
  compiledSchemaOf,
  dropUnused,
  unusedLifetimeMs,
} from './schema-cache.ts';
import { modelOf } from './schema-model.ts';

const definition = (id: string, properties: Record<string, unknown>): CustomObjectDefinition => ({
  id,
  slug: 'invoice',
  title: 'Invoice',
  access_class: 'STANDARD',
  type: 'object',
  properties,
  created_at: '2026-05-01T10:00:00.000Z',
  updated_at: '2026-05-01T10:00:00.000Z',
  lock_version: 0,
});

afterEach(() => clearSchemaCache());

describe('Function: compiledSchemaOf', () => {
  it('shares one executable schema between workspaces of the same shape', () => {
    // Prepare
    const ours = modelOf([definition('a', { number: { type: 'string' } })], []);
    const theirs = modelOf([{ ...definition('b', { number: { type: 'string' } }), lock_version: 4 }], []);

    // Act
    const first = compiledSchemaOf(ours);
    const second = compiledSchemaOf(theirs);

    // Assess
    // Compared by identity (printing a schema of Node's graphql copy under Vite would fail).
    expect(second === first).toBe(true);
    expect(cacheSizes().schemas).toBe(1);
    expect(first.schema.getQueryType()?.getFields().invoice).toBeDefined();
  });

  it('builds another schema for another shape', () => {
    const before = compiledSchemaOf(modelOf([definition('a', { number: { type: 'string' } })], []));
    const after = compiledSchemaOf(modelOf([definition('a', { number: { type: 'number' } })], []));

    expect(after === before).toBe(false);
    expect(cacheSizes().schemas).toBe(2);
  });

  it('drops a schema unused for ten minutes, and keeps one in use', () => {
    // Prepare
    const now = Date.now();
    const stale = modelOf([definition('a', { stale: { type: 'string' } })], []);
    const used = modelOf([definition('a', { used: { type: 'string' } })], []);
    const staleSchema = compiledSchemaOf(stale, now);
    const usedSchema = compiledSchemaOf(used, now);

    // Act
    compiledSchemaOf(used, now + unusedLifetimeMs - 1);
    dropUnused(now + unusedLifetimeMs + 1);

    // Assess
    expect(cacheSizes().schemas).toBe(1);
    expect(compiledSchemaOf(used, now + unusedLifetimeMs + 2) === usedSchema).toBe(true);
    expect(compiledSchemaOf(stale, now + unusedLifetimeMs + 2) === staleSchema).toBe(false);
  });
});

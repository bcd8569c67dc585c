/**
 * The schema of a workspace, cached in two steps (SPEC.md: "the change is visible on the next
 * query on every instance"; cached schemas dropped after ten minutes without use):
 *
 * 1. every request reads the workspace's model revision (model.service.ts `modelRevision`: one
 *    strongly consistent GetItem, which every definition and relation write moves in its own
 *    transaction); the model of that (workspace, revision) is cached, else read (one Query of the
 *    definitions, one of the relations) and built;
 * 2. the model's content hash (schema-model.ts: the shape, without ids or versions) names one
 *    executable schema, shared by every workspace of that shape.
 *
 * Entries unused for ten minutes are dropped at the next lookup. Concurrent lookups of the same
 * entry share one build; a failed read is not cached.
 */
import { modelRecords, modelRevision } from '../domain/custom-objects/model.service.ts';
import { type CompiledSchema, compileSchema } from './schema-builder.ts';
import { modelOf, type WorkspaceModel } from './schema-model.ts';

export const unusedLifetimeMs = 10 * 60 * 1000;

interface ModelEntry {
  revision: number;
  model: Promise<WorkspaceModel>;
  usedAt: number;
}

interface SchemaEntry {
  compiled: CompiledSchema;
  usedAt: number;
}

const models = new Map<string, ModelEntry>();
const schemas = new Map<string, SchemaEntry>();

/** Drops what was not used for ten minutes before `now`. */
export function dropUnused(now = Date.now()): void {
  for (const [key, entry] of models) if (now - entry.usedAt > unusedLifetimeMs) models.delete(key);
  for (const [key, entry] of schemas) if (now - entry.usedAt > unusedLifetimeMs) schemas.delete(key);
}

/** The executable schema of a model: the cached one of its hash, else built. */
export function compiledSchemaOf(model: WorkspaceModel, now = Date.now()): CompiledSchema {
  let entry = schemas.get(model.hash);
  if (!entry) {
    entry = { compiled: compileSchema(model.shape), usedAt: now };
    schemas.set(model.hash, entry);
  }
  entry.usedAt = now;
  return entry.compiled;
}

/** How many models and schemas are cached (tests and benchmarks). */
export function cacheSizes(): { models: number; schemas: number } {
  return { models: models.size, schemas: schemas.size };
}

export function clearSchemaCache(): void {
  models.clear();
  schemas.clear();
}

async function readModel(workspaceId: string): Promise<WorkspaceModel> {
  const { definitions, relations } = await modelRecords(workspaceId);
  return modelOf(definitions, relations);
}

/** The model and executable schema of a workspace as of now. */
export async function workspaceSchema(
  workspaceId: string,
): Promise<{ model: WorkspaceModel; compiled: CompiledSchema; revision: number }> {
  const now = Date.now();
  dropUnused(now);
  const revision = await modelRevision(workspaceId);
  let entry = models.get(workspaceId);
  if (!entry || entry.revision !== revision) {
    const model = readModel(workspaceId);
    entry = { revision, model, usedAt: now };
    models.set(workspaceId, entry);
    const current = entry;
    model.catch(() => {
      if (models.get(workspaceId) === current) models.delete(workspaceId);
    });
  }
  entry.usedAt = now;
  const model = await entry.model;
  return { model, compiled: compiledSchemaOf(model, now), revision };
}

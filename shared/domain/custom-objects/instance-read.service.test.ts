/**
 * The instance reader a query transport (GraphQL) reads through: REST's read access, applied
 * as "nothing to see" instead of a 403, asked once per definition; and a store outage as the
 * domain's `unavailable`, which GraphQL answers as SERVICE_UNAVAILABLE. Storage is faked.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Actor } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import { graphqlExtensionsOf } from '../../graphql/domain-errors.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';

const fake = vi.hoisted(() => ({
  readable: new Set<string>(),
  accessAsked: [] as string[],
  fetched: [] as Array<Array<{ definitionId: string; id: string }>>,
  failure: undefined as Error | undefined,
}));

vi.mock('./instance-access.ts', () => ({
  instanceAccess: async (_principal: unknown, _workspaceId: string, definition: { id: string }) => {
    fake.accessAsked.push(definition.id);
    if (fake.failure) throw fake.failure;
    const read = fake.readable.has(definition.id);
    return { read, write: read };
  },
}));

vi.mock('./instance.store.ts', () => ({
  instanceStore: {
    of: () => ({
      getMany: async (wanted: Array<{ definitionId: string; id: string }>) => {
        fake.fetched.push(wanted);
        if (fake.failure) throw fake.failure;
        return wanted.map(({ definitionId, id }) => ({ id, definition_id: definitionId }));
      },
    }),
  },
  linkedIds: () => [],
}));

vi.mock('./instance-query.ts', () => ({
  queryInstances: async () => {
    if (fake.failure) throw fake.failure;
    return { items: [{ id: 'i-1' }], hasMore: false, total: 1 };
  },
}));

const { instanceReader } = await import('./instance-read.service.ts');

const definition = (id: string): CustomObjectDefinition => ({
  id,
  slug: `type_${id}`,
  title: id,
  access_class: 'PROTECTED',
  type: 'object',
  properties: {},
  created_at: '2026-05-01T10:00:00.000Z',
  updated_at: '2026-05-01T10:00:00.000Z',
  lock_version: 0,
});

const actor = {
  workspaceId: 'ws-1',
  requestId: 'req-1',
  correlationId: 'corr-1',
  principal: { id: 'user-1', kind: 'user', workspaceId: 'ws-1', roles: ['dispatcher'], grants: new Set() },
} as unknown as Actor;

const open = definition('open');
const closed = definition('closed');

beforeEach(() => {
  fake.readable = new Set(['open']);
  fake.accessAsked = [];
  fake.fetched = [];
  fake.failure = undefined;
});

describe('Function: instanceReader', () => {
  describe('successful', () => {
    it('answers a page of a readable definition', async () => {
      const reader = instanceReader(actor, [open, closed]);

      const page = await reader.query(open, { offset: 0, limit: 10, withTotal: true });

      expect(page).toEqual({ items: [{ id: 'i-1' }], hasMore: false, total: 1 });
    });

    it('answers an empty page, not an error, for a definition the caller may not read', async () => {
      const reader = instanceReader(actor, [open, closed]);

      const page = await reader.query(closed, { offset: 0, limit: 10, withTotal: true });

      expect(page).toEqual({ items: [], hasMore: false, total: 0 });
    });

    it('reads records of readable definitions only, in the order asked, and leaves the others undefined', async () => {
      const reader = instanceReader(actor, [open, closed]);

      const records = await reader.getMany([
        { definitionId: 'open', id: 'a' },
        { definitionId: 'closed', id: 'b' },
        { definitionId: 'unknown', id: 'c' },
        { definitionId: 'open', id: 'd' },
      ]);

      expect(records).toEqual([
        { id: 'a', definition_id: 'open' },
        undefined,
        undefined,
        { id: 'd', definition_id: 'open' },
      ]);
      expect(fake.fetched).toEqual([
        [
          { definitionId: 'open', id: 'a' },
          { definitionId: 'open', id: 'd' },
        ],
      ]);
    });

    it('asks for the access to a definition once per reader', async () => {
      const reader = instanceReader(actor, [open, closed]);

      await Promise.all([
        reader.canRead(open),
        reader.canRead(open),
        reader.query(open, { offset: 0, limit: 1, withTotal: false }),
      ]);

      expect(fake.accessAsked).toEqual(['open']);
    });
  });

  describe('failing', () => {
    it.each([
      {
        title: 'a page',
        read: (reader: ReturnType<typeof instanceReader>) =>
          reader.query(open, { offset: 0, limit: 1, withTotal: false }),
      },
      {
        title: 'records by id',
        read: (reader: ReturnType<typeof instanceReader>) =>
          reader.getMany([{ definitionId: 'open', id: 'a' }]),
      },
      {
        title: 'the access check',
        read: (reader: ReturnType<typeof instanceReader>) => reader.canRead(closed),
      },
    ])('turns a store outage met by $title into SERVICE_UNAVAILABLE', async ({ read }) => {
      // Prepare
      const reader = instanceReader(actor, [open, closed]);
      fake.failure = new DataError('unavailable', 'throttled');

      // Act
      const error = await read(reader).then(
        () => undefined,
        (failure: unknown) => failure,
      );

      // Assess
      expect(error).toMatchObject({
        module: 'custom-objects',
        code: 'unavailable',
        message: 'The data store is busy or unavailable; retry shortly.',
      });
      expect(graphqlExtensionsOf(error as never)).toEqual({ code: 'SERVICE_UNAVAILABLE' });
    });

    it('lets another store failure through as it is', async () => {
      const reader = instanceReader(actor, [open]);
      fake.failure = new DataError('not-found', 'gone');

      await expect(reader.query(open, { offset: 0, limit: 1, withTotal: false })).rejects.toBeInstanceOf(
        DataError,
      );
    });
  });
});

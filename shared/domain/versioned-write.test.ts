/**
 * SPEC.md rule 8 for every versioned resource: an equal lock_version writes and increments, a
 * different one is 409 resource-conflict, an omitted or null one is last-write-wins (which
 * re-reads and re-applies instead of losing a concurrent write). Storage is faked here.
 */

import { describe, expect, it, vi } from 'vitest';
import { problemOfAsync } from '../../test/support/problem-of.ts';
import { DataError } from '../data/data-error.ts';
import { CommonDomainError } from './common-error.ts';
import { deleteExisting, mergePatch, type Timestamped, updateVersioned } from './versioned-write.ts';

interface Note extends Timestamped {
  title: string;
  body?: string;
}

const storedNote: Note = {
  id: 'n-1',
  title: 'First',
  body: 'Text',
  lock_version: 2,
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-02T00:00:00.000Z',
};

/** A store holding one note whose `save` fails with the given errors first, then stores. */
function fakeStore(initial: Note | undefined, failures: Error[] = []) {
  let current = initial ? { ...initial } : undefined;
  const pending = [...failures];
  const load = vi.fn(async () => (current ? { ...current } : undefined));
  const save = vi.fn(async (next: Note, _before: Note) => {
    const failure = pending.shift();
    if (failure) throw failure;
    current = next;
  });
  return { load, save, stored: () => current };
}

const problemOf = problemOfAsync;

describe('Function: updateVersioned', () => {
  it('writes and increments the version when lock_version equals the stored one', async () => {
    // Prepare
    const store = fakeStore(storedNote);

    // Act
    const { before, after } = await updateVersioned({
      key: 'note:1',
      load: store.load,
      expectedVersion: 2,
      apply: (current) => ({ ...current, title: 'Second' }),
      save: store.save,
    });

    // Assess
    expect(before).toEqual(storedNote);
    expect(after).toMatchObject({
      id: 'n-1',
      title: 'Second',
      lock_version: 3,
      created_at: storedNote.created_at,
    });
    expect(after.updated_at > storedNote.updated_at).toBe(true);
    expect(store.save).toHaveBeenCalledOnce();
    expect(store.save).toHaveBeenCalledWith(after, storedNote);
    expect(store.stored()).toEqual(after);
  });

  it('answers 409 resource-conflict without writing when lock_version differs', async () => {
    // Prepare
    const store = fakeStore(storedNote);

    // Act
    const problem = await problemOf(() =>
      updateVersioned({
        key: 'note:1',
        load: store.load,
        expectedVersion: 1,
        apply: (current) => ({ ...current, title: 'Second' }),
        save: store.save,
      }),
    );

    // Assess
    expect(problem.type).toBe('resource-conflict');
    expect(problem.status).toBe(409);
    expect(store.save).not.toHaveBeenCalled();
    expect(store.stored()).toEqual(storedNote);
  });

  it.each([
    { title: 'writes last-write-wins when lock_version is omitted', expectedVersion: undefined },
    { title: 'writes last-write-wins when lock_version is null', expectedVersion: null },
  ])('$title', async ({ expectedVersion }) => {
    // Prepare
    const store = fakeStore(storedNote);

    // Act
    const { after } = await updateVersioned({
      key: 'note:1',
      load: store.load,
      expectedVersion,
      apply: (current) => ({ ...current, title: 'Second' }),
      save: store.save,
    });

    // Assess
    expect(after).toMatchObject({ title: 'Second', lock_version: 3 });
    expect(store.stored()).toEqual(after);
  });

  it('never lets the patch change id, created_at or the version', async () => {
    // Prepare
    const store = fakeStore(storedNote);

    // Act
    const { after } = await updateVersioned({
      key: 'note:1',
      load: store.load,
      expectedVersion: undefined,
      apply: (current) => ({ ...current, id: 'other', created_at: 'then', lock_version: 99 }),
      save: store.save,
    });

    // Assess
    expect(after).toMatchObject({ id: 'n-1', created_at: storedNote.created_at, lock_version: 3 });
  });

  it('re-reads and re-applies the patch when a concurrent write wins and no lock_version was given', async () => {
    // Prepare
    const store = fakeStore(storedNote, [new DataError('version-conflict', 'changed meanwhile')]);
    const apply = vi.fn((current: Note) => ({ ...current, title: 'Second' }));

    // Act
    const { after } = await updateVersioned({
      key: 'note:1',
      load: store.load,
      expectedVersion: undefined,
      apply,
      save: store.save,
    });

    // Assess
    expect(store.load).toHaveBeenCalledTimes(2);
    expect(apply).toHaveBeenCalledTimes(2);
    expect(store.save).toHaveBeenCalledTimes(2);
    expect(after).toMatchObject({ title: 'Second', lock_version: 3 });
  });

  it('applies the patch to the state it re-read after a concurrent write', async () => {
    // Prepare
    const versions: Note[] = [storedNote, { ...storedNote, body: 'Changed meanwhile', lock_version: 3 }];
    const load = vi.fn(async () => versions.shift());
    const save = vi
      .fn<(next: Note, current: Note) => Promise<void>>()
      .mockRejectedValueOnce(new DataError('version-conflict', 'changed meanwhile'))
      .mockResolvedValue(undefined);

    // Act
    const { after } = await updateVersioned({
      key: 'note:1',
      load,
      expectedVersion: null,
      apply: (current) => ({ ...current, title: 'Second' }),
      save,
    });

    // Assess
    expect(after).toMatchObject({ title: 'Second', body: 'Changed meanwhile', lock_version: 4 });
  });

  it('answers 409 when a concurrent write wins and lock_version was given', async () => {
    // Prepare
    const store = fakeStore(storedNote, [new DataError('version-conflict', 'changed meanwhile')]);

    // Act
    const problem = await problemOf(() =>
      updateVersioned({
        key: 'note:1',
        load: store.load,
        expectedVersion: 2,
        apply: (current) => ({ ...current, title: 'Second' }),
        save: store.save,
      }),
    );

    // Assess: the version that won is read once more, for data.current_lock_version.
    expect(problem.type).toBe('resource-conflict');
    expect(problem.init.data).toEqual({ current_lock_version: storedNote.lock_version });
    expect(store.save).toHaveBeenCalledOnce();
    expect(store.load).toHaveBeenCalledTimes(2);
  });

  it('answers 409 with the stored version the refused write reported, without reading it again', async () => {
    // Prepare
    const store = fakeStore(storedNote, [
      new DataError('version-conflict', 'changed meanwhile', { storedVersion: 7 }),
    ]);

    // Act
    const problem = await problemOf(() =>
      updateVersioned({
        key: 'note:1',
        load: store.load,
        expectedVersion: 2,
        apply: (current) => ({ ...current, title: 'Second' }),
        save: store.save,
      }),
    );

    // Assess
    expect(problem.init.data).toEqual({ current_lock_version: 7 });
    expect(store.load).toHaveBeenCalledOnce();
  });

  it('gives up with 409 when last-write-wins keeps losing the race', async () => {
    // Prepare
    const conflicts = Array.from(
      { length: 10 },
      () => new DataError('version-conflict', 'changed meanwhile'),
    );
    const store = fakeStore(storedNote, conflicts);

    // Act
    const problem = await problemOf(() =>
      updateVersioned({
        key: 'note:1',
        load: store.load,
        expectedVersion: undefined,
        apply: (current) => ({ ...current, title: 'Second' }),
        save: store.save,
      }),
    );

    // Assess
    expect(problem.type).toBe('resource-conflict');
    expect(store.save.mock.calls.length).toBeGreaterThan(1);
    expect(store.save.mock.calls.length).toBeLessThan(10);
  });

  it('answers 404 not-found when the resource does not exist', async () => {
    // Prepare
    const store = fakeStore(undefined);

    // Act
    const problem = await problemOf(() =>
      updateVersioned({
        key: 'note:1',
        load: store.load,
        expectedVersion: 0,
        apply: (current) => current,
        save: store.save,
      }),
    );

    // Assess
    expect(problem.type).toBe('not-found');
    expect(problem.status).toBe(404);
    expect(store.save).not.toHaveBeenCalled();
  });

  it('answers 404 not-found when the resource is deleted while saving', async () => {
    // Prepare
    const store = fakeStore(storedNote, [new DataError('not-found', 'gone')]);

    // Act
    const problem = await problemOf(() =>
      updateVersioned({
        key: 'note:1',
        load: store.load,
        expectedVersion: undefined,
        apply: (current) => current,
        save: store.save,
      }),
    );

    // Assess
    expect(problem.type).toBe('not-found');
  });

  it('passes other store failures through unchanged', async () => {
    // Prepare
    const failure = new DataError('unavailable', 'throttled');
    const store = fakeStore(storedNote, [failure]);

    // Act
    const act = updateVersioned({
      key: 'note:1',
      load: store.load,
      expectedVersion: undefined,
      apply: (current) => current,
      save: store.save,
    });

    // Assess
    await expect(act).rejects.toBe(failure);
    expect(store.save).toHaveBeenCalledOnce();
  });

  it('lets a validation error thrown by the patch through without saving', async () => {
    // Prepare
    const store = fakeStore(storedNote);
    const invalid = new CommonDomainError('invalid', { detail: 'bad' });

    // Act
    const act = updateVersioned({
      key: 'note:1',
      load: store.load,
      expectedVersion: undefined,
      apply: () => {
        throw invalid;
      },
      save: store.save,
    });

    // Assess
    await expect(act).rejects.toBe(invalid);
    expect(store.save).not.toHaveBeenCalled();
  });
});

describe('Function: deleteExisting', () => {
  it('removes the resource and returns what it was', async () => {
    // Prepare
    const remove = vi.fn(async (_note: Note) => {});

    // Act
    const deleted = await deleteExisting({ load: async () => storedNote, remove });

    // Assess
    expect(deleted).toEqual(storedNote);
    expect(remove).toHaveBeenCalledWith(storedNote);
  });

  it('answers 404 not-found without removing when the resource does not exist', async () => {
    // Prepare
    const remove = vi.fn(async (_note: Note) => {});

    // Act
    const problem = await problemOf(() => deleteExisting<Note>({ load: async () => undefined, remove }));

    // Assess
    expect(problem.type).toBe('not-found');
    expect(remove).not.toHaveBeenCalled();
  });

  it('answers 404 not-found when the resource disappears while removing', async () => {
    // Act
    const problem = await problemOf(() =>
      deleteExisting<Note>({
        load: async () => storedNote,
        remove: async () => {
          throw new DataError('not-found', 'gone');
        },
      }),
    );

    // Assess
    expect(problem.type).toBe('not-found');
  });
});

describe('Function: mergePatch', () => {
  it.each([
    {
      title: 'replaces the fields that are sent',
      patch: { title: 'Second' },
      expected: { ...storedNote, title: 'Second' },
    },
    {
      title: 'removes a field sent as null',
      patch: { body: null },
      expected: (({ body: _body, ...rest }) => rest)(storedNote),
    },
    {
      title: 'keeps fields that are omitted or undefined',
      patch: { body: undefined },
      expected: storedNote,
    },
    {
      title: 'adds a field that was absent',
      patch: { colour: 'red' },
      expected: { ...storedNote, colour: 'red' },
    },
    {
      title: 'never copies lock_version',
      patch: { lock_version: 7, title: 'Second' },
      expected: { ...storedNote, title: 'Second' },
    },
    {
      title: 'never removes lock_version for null',
      patch: { lock_version: null },
      expected: storedNote,
    },
    {
      title: 'replaces an array as a whole',
      patch: { tags: ['a'] },
      expected: { ...storedNote, tags: ['a'] },
    },
  ])('$title', ({ patch, expected }) => {
    // Act
    const next = mergePatch(storedNote as unknown as Record<string, unknown>, patch);

    // Assess
    expect(next).toEqual(expected);
  });

  it('leaves the current state untouched', () => {
    // Prepare
    const current = { ...storedNote };

    // Act
    mergePatch(current, { title: 'Second', body: null });

    // Assess
    expect(current).toEqual(storedNote);
  });
});

describe('Function: serialized updates', () => {
  it('lets concurrent last-write-wins updates of one record all succeed, one after another', async () => {
    // Prepare: a store whose conditional save fails whenever the version moved since the read.
    let stored = { ...storedNote, lock_version: 0 };
    const load = async () => ({ ...stored });
    const save = async (next: typeof stored, current: typeof stored) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (stored.lock_version !== current.lock_version) throw new DataError('version-conflict', 'moved');
      stored = next;
    };

    // Act
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        updateVersioned({
          key: 'note:contended',
          load,
          expectedVersion: undefined,
          apply: (c) => ({ ...c, title: `t${i}` }),
          save,
        }),
      ),
    );

    // Assess
    expect(results).toHaveLength(20);
    expect(stored.lock_version).toBe(20);
  });
});

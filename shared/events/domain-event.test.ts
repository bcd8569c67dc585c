/**
 * What an edit event tells consumers about the change: `previous_attributes` holds the old
 * values of exactly the keys the caller changed (null when the key used to be empty), never
 * the bookkeeping that changes on every write.
 */
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.ts';
import { domainEvent, previousAttributes } from './domain-event.ts';

const stored = {
  id: 'a-1',
  name: 'North',
  color: '#112233',
  zip_ranges: [{ from: '10000', to: '19999' }],
  lock_version: 3,
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-02T00:00:00.000Z',
};

describe('Function: previousAttributes', () => {
  it.each([
    {
      title: 'lists only the keys that changed, with their old values',
      after: { ...stored, name: 'South' },
      expected: { name: 'North' },
    },
    {
      title: 'lists a key that used to be absent with null',
      after: { ...stored, description: 'New text' },
      expected: { description: null },
    },
    {
      title: 'lists a removed key with its old value',
      after: (({ color: _color, ...rest }) => rest)(stored),
      expected: { color: '#112233' },
    },
    {
      title: 'ignores updated_at and lock_version',
      after: { ...stored, lock_version: 4, updated_at: '2024-02-01T00:00:00.000Z' },
      expected: {},
    },
    {
      title: 'treats an equal copy of a nested array as unchanged',
      after: { ...stored, zip_ranges: [{ from: '10000', to: '19999' }] },
      expected: {},
    },
    {
      title: 'lists a nested array whose content changed with its old value',
      after: { ...stored, zip_ranges: [{ from: '10000', to: '18999' }] },
      expected: { zip_ranges: [{ from: '10000', to: '19999' }] },
    },
    {
      title: 'lists a nested array whose order changed',
      after: { ...stored, zip_ranges: [{ from: '20000', to: '29999' }, ...stored.zip_ranges] },
      expected: { zip_ranges: [{ from: '10000', to: '19999' }] },
    },
    {
      title: 'lists several changes at once',
      after: { ...stored, name: 'South', color: '#000000', lock_version: 4 },
      expected: { name: 'North', color: '#112233' },
    },
  ])('$title', ({ after, expected }) => {
    // Act
    const previous = previousAttributes(stored, after);

    // Assess
    expect(previous).toEqual(expected);
  });

  it('lists a key that was explicitly null before with null', () => {
    // Act
    const previous = previousAttributes({ id: 'x', description: null }, { id: 'x', description: 'set' });

    // Assess
    expect(previous).toEqual({ description: null });
  });

  it('treats a nested object with the same members in another key order as unchanged', () => {
    // Act
    const previous = previousAttributes(stored, { ...stored, zip_ranges: [{ to: '19999', from: '10000' }] });

    // Assess
    expect(previous).toEqual({});
  });
});

describe('Function: domainEvent', () => {
  const ctx: Actor = {
    requestId: 'req-1',
    correlationId: 'corr-1',
    workspaceId: 'ws-1',
    principal: { id: 'user-1', kind: 'user', workspaceId: 'ws-1', roles: ['admin'], grants: new Set() },
  };

  it('names the workspace, actor, request and resource of the change', () => {
    // Act
    const event = domainEvent(ctx, 'area.updated', { type: 'area', id: 'a-1' }, stored, { name: 'Old' });

    // Assess
    expect(event).toMatchObject({
      type: 'area.updated',
      workspace_id: 'ws-1',
      actor: { type: 'USER', id: 'user-1' },
      request: { id: 'req-1', correlation_id: 'corr-1' },
      resource: { type: 'area', id: 'a-1' },
      data: { object: stored, previous_attributes: { name: 'Old' } },
    });
    expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Date(event.occurred_at).toISOString()).toBe(event.occurred_at);
  });

  it('carries no previous_attributes when none are given', () => {
    // Act
    const event = domainEvent(ctx, 'area.created', { type: 'area', id: 'a-1' }, stored);

    // Assess
    expect(event.data).not.toHaveProperty('previous_attributes');
  });
});

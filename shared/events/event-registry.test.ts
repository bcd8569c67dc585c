/**
 * The event registry is the catalog webhook users subscribe from: an emitted event missing
 * from it could never be subscribed to by name, and would be refused as a pattern.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  eventRegistry,
  isAuditedEvent,
  isRegisteredEvent,
  isWebhookEvent,
  webhookCatalog,
} from './event-registry.ts';

async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

/** Quoted `<resource_path>.<verb>` literals in the arguments of the calls that emit events. */
const emitCall = /\b(?:domainEvent|systemEvent|userEvent)\(([^;]*?)\)/gs;
const eventName = /'([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+)'/g;

describe('Event registry', () => {
  it('holds every event name the service emits', async () => {
    const emitted = new Set<string>();
    for (const file of [...(await sourceFiles('shared')), ...(await sourceFiles('functions'))]) {
      const source = await readFile(file, 'utf8');
      for (const call of source.matchAll(emitCall)) {
        for (const name of (call[1] ?? '').matchAll(eventName)) emitted.add(name[1] ?? '');
      }
    }
    // The scan must find what is known to be emitted, or it proves nothing.
    expect([...emitted]).toEqual(expect.arrayContaining(['area.created', 'user.created', 'tenant.updated']));
    expect([...emitted].filter((name) => !isRegisteredEvent(name))).toEqual([]);
  });

  it('lists every webhook event once in the catalog, with its resource path and verb', () => {
    const catalog = webhookCatalog();
    expect(catalog.map((entry) => entry.type)).toEqual([...new Set(catalog.map((entry) => entry.type))]);
    expect(catalog).toContainEqual(
      expect.objectContaining({ type: 'area.created', resource_path: 'area', verb: 'created' }),
    );
    expect(catalog.map((entry) => entry.type)).not.toContain('webhook_endpoint.created');
    expect(catalog.length).toBe(
      Object.values(eventRegistry).filter((registration) => registration.webhook).length,
    );
  });

  it('publishes no webhook event whose verb names the property that changed', () => {
    // SPEC.md, "Event names": `updated` never encodes which property changed.
    const verbs = webhookCatalog().map((entry) => entry.verb);
    expect(verbs.filter((verb) => /_(updated|changed|set)$/.test(verb))).toEqual([]);
  });

  it.each([
    ['area.waiting_time_updated', 'AREA_WAITING_TIME_UPDATED:V1'],
    ['vehicle.location_updated', 'VEHICLE_LOCATION_UPDATED:V1'],
    ['case.external_id_updated', 'CASE_EXTERNAL_ID_UPDATED:V1'],
  ])('keeps %s, which feeds the event stream its %s, out of webhooks and the audit log', (type) => {
    expect(isRegisteredEvent(type)).toBe(true);
    expect(isWebhookEvent(type)).toBe(false);
    expect(isAuditedEvent(type)).toBe(false);
  });

  it('has no comment.deleted: a deleted comment is a restorable tombstone, announced as comment.updated', () => {
    expect(isRegisteredEvent('comment.deleted')).toBe(false);
    expect(webhookCatalog().find((entry) => entry.type === 'comment.updated')?.description).toContain(
      'is_deleted true',
    );
  });

  it('says in the catalog that vehicle location reports reach the event stream only', () => {
    const vehicleUpdated = webhookCatalog().find((entry) => entry.type === 'vehicle.updated');
    expect(vehicleUpdated?.description).toContain('VEHICLE_LOCATION_UPDATED:V1');
    expect(vehicleUpdated?.description).toContain('never reach webhooks');
  });
});

/**
 * Cases loaded straight into a bench service's DynamoDB Local through the data layer's own list
 * declaration (the item with its index attributes, tokens and the list counters summed), as
 * bench:cases does: 100,000 API writes take about 25 minutes locally. The outbox is skipped; no
 * consumer needs those events in a bench. The caller points this process's data layer at the
 * service's table first (FSM_DYNAMODB_ENDPOINT, FSM_TABLE_NAME).
 */
import { v7 as uuidv7 } from 'uuid';
import type { Case } from '../../shared/domain/cases/case.schema.ts';

const statuses = ['NEW', 'SCHEDULED', 'IN_PROGRESS', 'ON_HOLD', 'DONE', 'CANCELLED'] as const;
const priorities = ['LOW', 'NORMAL', 'HIGH', 'URGENT'] as const;

/**
 * Loads cases `from` … `to` - 1 of a workspace: case i is created i minutes after the first,
 * scheduled (every case has a window) and in the area `areaOf(i)` names.
 */
export async function loadCases(
  workspaceId: string,
  from: number,
  to: number,
  areaOf: (i: number) => string,
): Promise<void> {
  const { caseList } = await import('../../shared/domain/cases/case.list.ts');
  const { caseStore } = await import('../../shared/domain/cases/case.store.ts');
  const { DirectLoad } = await import('./direct-load.ts');
  const load = new DirectLoad<Case>(workspaceId, caseList, 'case', (id) => caseStore.of(workspaceId).key(id));
  const base = Date.parse('2026-01-01T00:00:00Z');
  for (let start = from; start < to; start += 1000) {
    for (let i = start; i < Math.min(to, start + 1000); i++) {
      const now = new Date(base + i * 60_000).toISOString();
      load.add({
        id: uuidv7(),
        title: `Case ${i}`,
        status: statuses[i % statuses.length] ?? 'NEW',
        priority: priorities[i % priorities.length] ?? 'NORMAL',
        area_id: areaOf(i),
        scheduled_start: new Date(base + 86_400_000 + i * 60_000).toISOString(),
        scheduled_end: new Date(base + 86_400_000 + i * 60_000 + 3_600_000).toISOString(),
        created_at: now,
        updated_at: now,
        lock_version: 0,
      } as Case);
    }
    // A busy emulator may miss a deadline: the same puts again are harmless.
    await load.flush(5);
  }
  await load.addCounters();
}

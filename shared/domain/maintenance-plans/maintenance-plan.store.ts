/**
 * Storage of maintenance plans, of the occurrence claims of their generated cases, and of each
 * plan's generation cursor (keys.ts `occurrenceClaim`, `maintenancePlanCursor`).
 *
 * A claim is created in the generated case's own transaction on the condition that it is absent:
 * whatever retries, crashes or concurrent generators, an occurrence has at most one case. The
 * cursor is bookkeeping only (how far the plan's revision was generated): losing or regressing it
 * costs a re-read of claims, never a second case.
 */
import { keys, occurrenceClaimPartition } from '../../data/keys.ts';
import { resourceStore, type StoreScope } from '../../data/resource-store.ts';
import { getRecords, putRecord, putRecords, queryPartition, type TableWrite } from '../../data/table.ts';
import { maintenancePlanList } from './maintenance-plan.list.ts';
import type { MaintenancePlan } from './maintenance-plan.schema.ts';

export const maintenancePlanStore = resourceStore<MaintenancePlan>(
  'maintenance-plan',
  'MAINTENANCE_PLAN',
  maintenancePlanList,
);

/** The workspaces that have maintenance plans (keys.ts `maintenanceWorkspace`). */
export const maintenanceWorkspaces = {
  /**
   * Before a plan's create, in a PutItem of its own: in the plan's transaction two plans created
   * at once in one workspace would meet on this item and cancel each other. Idempotent; a create
   * that then fails leaves a registered workspace, which costs one empty Query per run.
   */
  async register(workspaceId: string): Promise<void> {
    await putRecord(keys.maintenanceWorkspace(workspaceId), 'maintenance-workspace', {
      workspace_id: workspaceId,
    });
  },
  async all(): Promise<string[]> {
    const items = await queryPartition(keys.maintenanceWorkspace('').pk);
    return items.map((item) => String(item.workspace_id));
  },
};

export interface OccurrenceClaim {
  occurrence: string;
  case_id: string;
}

export interface GenerationCursor {
  /** The plan's lock_version the generated cases were brought in line with. */
  revision: number;
  /** Occurrences before this instant are generated for that revision. */
  through: string;
}

/** One workspace's claims and cursors. */
export interface WorkspaceGeneration {
  /** Claims of a plan at or after an occurrence (one Query, strongly consistent). */
  claimsFrom(planId: string, occurrence: string): Promise<OccurrenceClaim[]>;
  /** Part of a case's create: fails the transaction with already-exists when claimed. */
  claim(planId: string, occurrence: string, caseId: string): TableWrite;
  /** Part of a generated case's delete: the occurrence may be generated again. */
  release(planId: string, occurrence: string): TableWrite;
  /**
   * Which occurrences of many plans are claimed, as `<plan_id> <occurrence>` (BatchGetItem per
   * 100, strongly consistent): a run reads the claims of all its plans' windows together.
   */
  claimedOfPlans(wanted: ReadonlyArray<{ planId: string; occurrence: string }>): Promise<Set<string>>;
  cursors(planIds: readonly string[]): Promise<Array<GenerationCursor | undefined>>;
  saveCursor(planId: string, cursor: GenerationCursor): Promise<void>;
  /** Many cursors (BatchWriteItem per 25): a run moves the cursors of all its plans together. */
  saveCursors(entries: ReadonlyArray<{ planId: string; cursor: GenerationCursor }>): Promise<void>;
}

export const generationStore = {
  of(scope: StoreScope): WorkspaceGeneration {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const claimKey = (planId: string, occurrence: string) =>
      keys.occurrenceClaim(workspaceId, planId, occurrence);
    const cursorKey = (planId: string) => keys.maintenancePlanCursor(workspaceId, planId);
    return {
      async claimsFrom(planId, occurrence) {
        const items = await queryPartition(occurrenceClaimPartition(workspaceId, planId), {
          skBetween: [occurrence, '\u{10FFFF}'],
          consistent: true,
        });
        return items.map((item) => ({ occurrence: String(item.occurrence), case_id: String(item.case_id) }));
      },
      claim: (planId, occurrence, caseId) => ({
        kind: 'create',
        key: claimKey(planId, occurrence),
        entity: 'maintenance-occurrence',
        record: { case_id: caseId, maintenance_plan_id: planId, occurrence },
      }),
      release: (planId, occurrence) => ({ kind: 'discard', key: claimKey(planId, occurrence) }),
      async claimedOfPlans(wanted) {
        const found = await getRecords(
          wanted.map(({ planId, occurrence }) => claimKey(planId, occurrence)),
          { consistent: true },
        );
        return new Set(
          wanted.flatMap(({ planId, occurrence }, index) =>
            found[index] === undefined ? [] : [`${planId} ${occurrence}`],
          ),
        );
      },
      async cursors(planIds) {
        const found = await getRecords(planIds.map(cursorKey));
        return found.map((item) =>
          item ? { revision: Number(item.revision), through: String(item.through) } : undefined,
        );
      },
      async saveCursor(planId, cursor) {
        await putRecord(cursorKey(planId), 'maintenance-cursor', { ...cursor });
      },
      async saveCursors(entries) {
        await putRecords(
          entries.map(({ planId, cursor }) => ({
            key: cursorKey(planId),
            entity: 'maintenance-cursor',
            record: { ...cursor },
          })),
        );
      },
    };
  },
};

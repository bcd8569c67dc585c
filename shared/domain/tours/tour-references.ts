/**
 * What a tour write names must exist in the workspace: the vehicle (in service), the driver (a
 * user, not deactivated), the shift and every stop's case, each case once. Each violation is a field error
 * at its pointer (`#/vehicle_id`, `#/driver_id`, `#/stops/3/case_id`), all reported together in
 * one 422. An id of another workspace is not found here, like an unknown one.
 *
 * Only what a write sends is checked (SPEC.md rule 5): a tour keeps naming a vehicle that was
 * deleted or taken out of service later, until its vehicle_id is written again.
 *
 * Cost: 1 GetItem for the vehicle, 1 for the driver, 1 for the shift, 1 BatchGetItem per 100
 * distinct cases.
 */
import { getPrincipal } from '../../data/directory.store.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { caseStore } from '../cases/case.store.ts';
import { shiftStore } from '../shifts/shift.store.ts';
import { findVehicle } from '../vehicles/vehicle.service.ts';

export interface TourReferences {
  vehicle_id?: string | null | undefined;
  driver_id?: string | null | undefined;
  shift_id?: string | null | undefined;
  stops?: ReadonlyArray<{ case_id: string }> | undefined;
}

export async function referenceErrors(workspaceId: string, refs: TourReferences): Promise<FieldError[]> {
  const [vehicle, driver, shift, stops] = await Promise.all([
    refs.vehicle_id ? vehicleErrors(workspaceId, refs.vehicle_id) : [],
    refs.driver_id ? driverErrors(workspaceId, refs.driver_id) : [],
    refs.shift_id ? shiftErrors(workspaceId, refs.shift_id) : [],
    refs.stops ? stopErrors(workspaceId, refs.stops) : [],
  ]);
  return [...vehicle, ...driver, ...shift, ...stops];
}

async function vehicleErrors(workspaceId: string, vehicleId: string): Promise<FieldError[]> {
  const vehicle = await findVehicle(workspaceId, vehicleId);
  if (!vehicle) return [invalid('#/vehicle_id', 'no vehicle with this id exists in the workspace')];
  if (!vehicle.active) return [invalid('#/vehicle_id', 'the vehicle is out of service (is_active is false)')];
  return [];
}

async function driverErrors(workspaceId: string, driverId: string): Promise<FieldError[]> {
  const principal = await getPrincipal(workspaceId, driverId.toLowerCase());
  if (principal?.kind !== 'user') {
    return [invalid('#/driver_id', 'no user with this id exists in the workspace')];
  }
  if (principal.status === 'INACTIVE') return [invalid('#/driver_id', 'the user is deactivated')];
  return [];
}

async function shiftErrors(workspaceId: string, shiftId: string): Promise<FieldError[]> {
  const shift = await shiftStore.of(workspaceId).get(shiftId.toLowerCase());
  return shift ? [] : [invalid('#/shift_id', 'no shift with this id exists in the workspace')];
}

async function stopErrors(
  workspaceId: string,
  stops: ReadonlyArray<{ case_id: string }>,
): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  stops.forEach((stop, index) => {
    const id = stop.case_id.toLowerCase();
    if (seen.has(id))
      errors.push(invalid(`#/stops/${index}/case_id`, 'the case is already a stop of this tour'));
    seen.add(id);
  });
  const missing = await missingCaseIds(workspaceId, [...seen]);
  stops.forEach((stop, index) => {
    if (missing.has(stop.case_id.toLowerCase())) {
      errors.push(invalid(`#/stops/${index}/case_id`, 'no case with this id exists in the workspace'));
    }
  });
  return errors;
}

/** The ids (lower case) that name no case of the workspace: one BatchGetItem per 100. */
export async function missingCaseIds(workspaceId: string, caseIds: readonly string[]): Promise<Set<string>> {
  const found = await caseStore.of(workspaceId).getMany(caseIds);
  return new Set(caseIds.filter((_, index) => found[index] === undefined));
}

function invalid(pointer: string, detail: string): FieldError {
  return { type: 'field-invalid', pointer, detail };
}

/**
 * Skill and tag ids a write names must exist in the workspace: each unknown one is a field
 * error pointing at its index (`#/tag_ids/2`), all reported together.
 */
import type { FieldError } from '../../schema/field-error.ts';
import type { UserCatalogs } from './user.representation.ts';

export interface ReferencedIds {
  skill_ids?: readonly string[] | null | undefined;
  tag_ids?: readonly string[] | null | undefined;
}

export function referenceErrors(ids: ReferencedIds, catalogs: UserCatalogs): FieldError[] {
  const errors: FieldError[] = [];
  const check = (field: 'skill_ids' | 'tag_ids', catalog: ReadonlyMap<string, unknown>, what: string) => {
    (ids[field] ?? []).forEach((id, index) => {
      if (!catalog.has(id.toLowerCase())) {
        errors.push({
          type: 'field-invalid',
          pointer: `#/${field}/${index}`,
          detail: `no ${what} with this id exists in the workspace`,
        });
      }
    });
  };
  check('skill_ids', catalogs.skills, 'skill');
  check('tag_ids', catalogs.tags, 'tag');
  return errors;
}

/** Ids as stored: lower case (UUIDs compare case-insensitively). */
export function normalizedIds(ids: readonly string[] | null | undefined): string[] {
  return (ids ?? []).map((id) => id.toLowerCase());
}

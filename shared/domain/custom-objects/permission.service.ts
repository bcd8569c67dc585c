/**
 * The permission matrix of a PROTECTED custom-object type (SPEC.md, "Custom-object permission
 * entry"): read and replaced whole by holders of custom-objects:definitions:edit-permissions (or
 * the workspace owner); a STANDARD type has none (422). instance-access.ts applies it. A
 * replacement emits custom_object_definition.permissions.updated.
 */

import type { Actor } from '../../auth/actor.ts';
import { roleNames } from '../../auth/grants.ts';
import { domainEvent } from '../../events/domain-event.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { CustomObjectError } from './custom-object-error.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { findDefinition } from './definition.service.ts';
import { matrixOf, type PermissionEntry } from './instance-access.ts';
import { permissionStore } from './permission.store.ts';

async function protectedDefinition(ctx: Actor, slug: string): Promise<CustomObjectDefinition> {
  const definition = await findDefinition(ctx.workspaceId, slug);
  if (!definition) {
    throw new CustomObjectError('not-found', { detail: `No custom-object definition has the slug ${slug}.` });
  }
  const owner = ctx.principal.roles.includes('owner');
  if (!owner && !ctx.principal.grants.has('custom-objects:definitions:edit-permissions')) {
    throw new CustomObjectError('forbidden', {
      detail: 'The permission matrix is managed by holders of custom-objects:definitions:edit-permissions.',
      data: { reason: 'missing_grant', required_grants: ['custom-objects:definitions:edit-permissions'] },
    });
  }
  if (definition.access_class !== 'PROTECTED') {
    throw new CustomObjectError('invalid', {
      detail: 'Only PROTECTED types have a permission matrix.',
      fields: [
        {
          type: 'field-invalid',
          pointer: '#/definition_slug',
          detail: `${slug} is a STANDARD type: its instances follow the role grants; set access_class PROTECTED to give it a matrix`,
        },
      ],
    });
  }
  return definition;
}

function entryErrors(entries: readonly PermissionEntry[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const at = `#/entries/${index}`;
    if (entry.principal_type === 'role') {
      if (!entry.role_name) {
        errors.push({
          type: 'field-required',
          pointer: `${at}/role_name`,
          detail: 'names the role of a role entry',
        });
      } else if (!(roleNames as readonly string[]).includes(entry.role_name)) {
        errors.push({
          type: 'field-invalid',
          pointer: `${at}/role_name`,
          detail: `is no role of the workspace; roles: ${roleNames.join(', ')}`,
        });
      }
    } else if (entry.role_name !== undefined) {
      errors.push({
        type: 'field-invalid',
        pointer: `${at}/role_name`,
        detail: 'applies to role entries only',
      });
    }
    const principal = `${entry.principal_type}:${entry.role_name ?? ''}`;
    if (seen.has(principal)) {
      errors.push({ type: 'field-invalid', pointer: at, detail: 'names a principal an earlier entry names' });
    }
    seen.add(principal);
  });
  return errors;
}

const toEntry = (entry: PermissionEntry): PermissionEntry => ({
  principal_type: entry.principal_type,
  ...(entry.principal_type === 'role' ? { role_name: entry.role_name as string } : {}),
  level: entry.level,
});

export async function getPermissions(ctx: Actor, slug: string) {
  const definition = await protectedDefinition(ctx, slug);
  return {
    definition_slug: definition.slug,
    entries: (await matrixOf(ctx.workspaceId, definition.id)).map(toEntry),
  };
}

export async function replacePermissions(ctx: Actor, slug: string, body: { entries: PermissionEntry[] }) {
  const definition = await protectedDefinition(ctx, slug);
  const errors = entryErrors(body.entries);
  if (errors.length > 0) throw new CustomObjectError('invalid', { fields: errors });
  const entries = body.entries.map(toEntry);
  const previous = (await matrixOf(ctx.workspaceId, definition.id)).map(toEntry);
  const matrix = { definition_slug: definition.slug, entries };
  await permissionStore
    .of(ctx)
    .replace(
      definition.id,
      entries,
      domainEvent(
        ctx,
        'custom_object_definition.permissions.updated',
        { type: 'custom_object_definition', id: definition.id },
        { ...matrix, definition_id: definition.id },
        { entries: previous },
      ),
    );
  return matrix;
}

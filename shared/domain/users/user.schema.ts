/**
 * User: a person of the workspace who signs in through the identity provider. Published
 * schema names: User, CreateUser, UpdateUser, UserList, SkillOffering, TagReference, ...
 * Service accounts are principals too, but never Users: they appear in no list and no
 * /users/{user_id} read.
 */
import * as z from 'zod';
import { type RoleName, roleNames } from '../../auth/grants.ts';
import { dateTime, emailAddress, lockVersion, nonBlank, storedVersion, text } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { phoneNumber } from '../../schema/phone-number.ts';
import { paginationQuery, searchParam, sortParam } from '../../schema/query-params.ts';
import { roleNamed, roleNameOf } from '../roles/role.catalog.ts';

export const userStatuses = ['ACTIVE', 'BLOCKED', 'INACTIVE'] as const;

export const SkillOfferingSchema = z
  .object({
    id: z.uuid().meta({ description: 'Stable id of this user offering this skill.' }),
    name: z.string().meta({ description: 'Name of the skill definition.' }),
    skill: z.uuid().meta({ description: 'The skill definition (GET /api/v2/skills/{skill_id}).' }),
    skill_type: z.string().meta({ description: 'skill_type of the skill definition.' }),
    short_key: z.string().meta({ description: 'short_key of the skill definition.' }),
  })
  .meta({ id: 'SkillOffering', description: 'A skill definition as offered by one user.' });

export type SkillOffering = z.infer<typeof SkillOfferingSchema>;

export const TagReferenceSchema = z
  .object({
    id: z.uuid().meta({ description: 'The tag (GET /api/v2/tags/{tag_id}).' }),
    name: z.string().meta({ description: 'Name of the tag.' }),
    color: z.string().meta({ description: 'Colour of the tag, hex or CSS.' }),
  })
  .meta({ id: 'TagReference', description: 'A tag a record carries.' });

export type TagReference = z.infer<typeof TagReferenceSchema>;

export const UserSchema = z
  .object({
    id: z.uuid().meta({ description: "Stable id of the user; also the `sub` of the user's tokens." }),
    email: z.email().meta({ description: 'Login name, lower-cased; immutable after creation.' }),
    phone_number: z.string().optional().meta({ description: 'E.164; omitted when absent.' }),
    roles: z.array(z.enum(roleNames)).meta({ description: 'Role names.' }),
    skills: z
      .array(SkillOfferingSchema)
      .meta({ description: 'The skill definitions the user offers; deleted definitions are left out.' }),
    firstname: z.string().meta({ description: 'Given name.' }),
    lastname: z.string().meta({ description: 'Family name.' }),
    created_at: z.iso.datetime().meta({ description: 'When the user was created (invited).' }),
    updated_at: z.iso.datetime().meta({ description: 'When the user was last written.' }),
    status: z.enum(userStatuses).meta({
      description:
        'ACTIVE users may sign in; BLOCKED after too many failed sign-ins (unblock); INACTIVE after deactivate.',
    }),
    lock_version: storedVersion().meta({
      description:
        'Starts at 0 and grows with every write of the user: PATCH, skill and tag set replacements, ' +
        'status changes, and the changes the service makes itself (blocking, a password set through ' +
        'a link).',
    }),
    can_resend_set_password_email: z.boolean().meta({
      description: 'True from the invitation until the user has set a password.',
    }),
    tags: z
      .array(TagReferenceSchema)
      .meta({ description: 'The tags the user carries; deleted tags are left out.' }),
  })
  .meta({ id: 'User' });

export type User = z.infer<typeof UserSchema>;

/**
 * The caller of GET /api/v2/me. A user gets the User; a service-account token gets what a
 * service account has: no email, firstname or lastname, no skills or tags, and
 * can_resend_set_password_email false.
 */
export const CurrentUserSchema = UserSchema.extend({
  email: UserSchema.shape.email
    .optional()
    .meta({ description: 'Login name; omitted for a service account.' }),
  firstname: z.string().optional().meta({ description: 'Given name; omitted for a service account.' }),
  lastname: z.string().optional().meta({ description: 'Family name; omitted for a service account.' }),
}).meta({
  id: 'CurrentUser',
  description:
    'The caller as a User. For a service-account token email, firstname and lastname are omitted, skills and tags are empty and can_resend_set_password_email is false.',
});

/** An array of uuids in which each id appears once; a repeat is reported at its index. */
/**
 * Tags a user carries at most: each tag added or removed is a usage-counter change in the
 * user's transaction (100 items with its search tokens and list counters).
 */
export const maxUserTags = 25;

function uniqueUuids(max = 1000) {
  return z
    .array(z.uuid())
    .max(max)
    .check((ctx) => {
      const seen = new Set<string>();
      ctx.value.forEach((id, index) => {
        const normalized = id.toLowerCase();
        if (seen.has(normalized)) {
          ctx.issues.push({ code: 'custom', input: id, path: [index], message: 'is listed twice' });
        }
        seen.add(normalized);
      });
    })
    .meta({ uniqueItems: true });
}

/** Role ids (GET /api/v2/roles) resolved to role names; unknown ids are field errors. */
function roleIds(options: { allowOwner: boolean }) {
  return uniqueUuids()
    .min(1)
    .transform((ids, ctx) => {
      const names: RoleName[] = [];
      ids.forEach((id, index) => {
        const name = roleNameOf(id);
        if (!name) {
          ctx.issues.push({ code: 'custom', input: id, path: [index], message: 'no role has this id' });
        } else if (name === 'owner' && !options.allowOwner) {
          ctx.issues.push({
            code: 'custom',
            input: id,
            path: [index],
            message: 'the owner role moves only by POST /api/v2/users/{user_id}/transfer-ownership',
          });
        } else {
          names.push(name);
        }
      });
      return names;
    });
}

export const CreateUserSchema = z
  .object({
    email: emailAddress().meta({
      description: 'Required; unique in the identity realm (all workspaces that share it).',
    }),
    firstname: text({ max: 255 }).meta({ description: 'Given name; required.' }),
    lastname: text({ max: 255 }).meta({ description: 'Family name; required.' }),
    phone_number: phoneNumber()
      .optional()
      .meta({ description: 'With an explicit + country code; stored as E.164.' }),
    role_ids: roleIds({ allowOwner: false }).meta({
      description:
        'Required, non-empty, unique ids of GET /api/v2/roles. The owner role cannot be given: ownership moves by transfer-ownership.',
    }),
    skill_ids: uniqueUuids()
      .optional()
      .meta({ description: 'Skill definitions of this workspace; none when omitted.' }),
    tag_ids: uniqueUuids(maxUserTags)
      .optional()
      .meta({ description: 'Tags of this workspace; none when omitted.' }),
  })
  .meta({
    id: 'CreateUser',
    description:
      'The new user is ACTIVE and receives an invitation e-mail with a set-password link. Unknown keys are ignored.',
  });

export const UpdateUserSchema = z
  .object({
    email: text({ max: 254 })
      .optional()
      .meta({ description: 'Immutable: accepted only when equal to the stored e-mail (any case).' }),
    firstname: text({ max: 255 }).optional().meta({ description: 'Given name; null or blank is 422.' }),
    lastname: text({ max: 255 }).optional().meta({ description: 'Family name; null or blank is 422.' }),
    phone_number: phoneNumber().nullable().optional().meta({ description: 'null clears it.' }),
    role_ids: roleIds({ allowOwner: true }).optional().meta({
      description:
        'Replaces the roles; the owner role may be neither added nor removed here (transfer-ownership moves it).',
    }),
    skill_ids: uniqueUuids().nullable().optional().meta({ description: 'Replaces the skills; null clears.' }),
    tag_ids: uniqueUuids(maxUserTags)
      .nullable()
      .optional()
      .meta({ description: 'Replaces the tags; null clears.' }),
    lock_version: lockVersion(),
  })
  .meta({
    id: 'UpdateUser',
    description:
      'JSON Merge Patch of a user. null or blank firstname/lastname/role_ids is rejected. Unknown keys are ignored.',
  });

export const ReplaceUserSkillsSchema = z
  .object({
    skill_ids: uniqueUuids().meta({ description: 'The complete new set; [] removes all.' }),
    lock_version: lockVersion().meta({ description: "The user's lock_version; 409 on mismatch." }),
  })
  .meta({ id: 'ReplaceUserSkillSet', description: "The user's complete new set of skills." });

export const ReplaceUserTagsSchema = z
  .object({
    tag_ids: uniqueUuids(maxUserTags).meta({ description: 'The complete new set; [] removes all.' }),
    lock_version: lockVersion().meta({ description: "The user's lock_version; 409 on mismatch." }),
  })
  .meta({ id: 'ReplaceUserTagSet', description: "The user's complete new set of tags." });

/** A password as typed: blank is `field-required`; the policy minimum is checked where it applies. */
function password(min: number) {
  return nonBlank((ctx) => {
    if (ctx.value.length < min || ctx.value.length > 256) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: min > 1 ? `must be ${min} to 256 characters long` : 'must be at most 256 characters long',
      });
    }
  }).meta({ minLength: min, maxLength: 256, format: 'password' });
}

export const ChangePasswordSchema = z
  .object({
    current_password: password(1).meta({
      description: 'The password in force; a wrong one is 401 login-failed and counts as a failed sign-in.',
    }),
    new_password: password(8).meta({ description: 'At least 8 characters.' }),
  })
  .meta({ id: 'UpdatePassword', description: "The caller's password change." });

/** Sort keys of SPEC.md's example (`last_name`) and the field names (`lastname`) alike. */
export const userSortFields = [
  'last_name',
  'first_name',
  'lastname',
  'firstname',
  'email',
  'created_at',
  'updated_at',
] as const;

export const UserListQuery = z.object({
  ...paginationQuery,
  sort: sortParam(userSortFields).meta({
    description:
      'Repeated `sort=<field>:<asc|desc>`. Fields: last_name (= lastname; ties by first name), first_name (= firstname; ties by last name), email, created_at, updated_at. Default last_name:asc (then first name). Further keys order the ties of the first.',
  }),
  search: searchParam(
    'Words separated by spaces; a user matches when every word is the beginning of a word of its ' +
      'first name, last name or e-mail address (words split at anything that is not a letter or digit), ' +
      'of a whole name, or of the whole address. Case and accents are ignored: `mul` finds Müller, ' +
      '`lukas br` finds Lukas Brandt, `lukas.b` finds lukas.brandt@acme.example, `acme` every ' +
      'address at acme. Not a substring search: `andt` finds nobody.',
    255,
  ),
  role: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const name = roleNamed(value);
      if (!name) {
        ctx.issues.push({
          code: 'custom',
          input: value,
          message: `unknown role; roles: ${roleNames.join(', ')}`,
        });
        return z.NEVER;
      }
      return name;
    })
    .meta({ type: 'string', description: 'Role name, case-insensitive; unknown names are 422.' }),
  status: z
    .enum([...userStatuses, 'ALL'])
    .default('ACTIVE')
    .meta({ description: 'Default ACTIVE; ALL lists every status.' }),
  role_ids: z.array(z.uuid()).optional().meta({ description: 'Repeated; users with any of these roles.' }),
  skill_ids: z
    .array(z.uuid())
    .optional()
    .meta({ description: 'Repeated; users offering any of these skill definitions.' }),
  tag_names: z
    .array(z.string())
    .optional()
    .meta({ description: 'Repeated; users carrying a tag with any of these names (case-insensitive).' }),
  updated_from: dateTime().optional().meta({ description: 'Inclusive lower bound of updated_at.' }),
  updated_to: dateTime().optional().meta({ description: 'Exclusive upper bound of updated_at.' }),
});

export const UserIdParams = z.object({
  user_id: z.uuid().meta({ description: 'Id of a user of the workspace (never a service account).' }),
});

export const UserListSchema = pagedListSchema(UserSchema, 'UserList');

export const SkillOfferingListSchema = z
  .object({ items: z.array(SkillOfferingSchema) })
  .meta({ id: 'SkillOfferingList', description: 'Not paginated.' });

export const TagReferenceListSchema = z
  .object({ items: z.array(TagReferenceSchema) })
  .meta({ id: 'TagReferenceList', description: 'Not paginated.' });

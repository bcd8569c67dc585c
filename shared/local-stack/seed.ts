/**
 * FSM_SEED (API-DECISIONS.md, "Local stack contract"): workspaces with users and API clients,
 * applied at every start (idempotently). Without it a demo workspace is seeded, with six
 * technicians and a day of work to plan (demo-day.ts, applied after the seed).
 */
import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { roleNames } from '../auth/grants.ts';
import { defaultRealm, realmNamePattern } from '../auth/realm-name.ts';
import { provisionWorkspace, type WorkspaceSpec } from '../domain/workspaces/workspace-provisioning.ts';
import { fieldErrorsOf } from '../http/validation.ts';
import { text } from '../schema/fields.ts';
import { demoTechnicians, seedDemoDay } from './demo-day.ts';

const role = z.enum(roleNames);

export const SeedSchema = z.object({
  workspaces: z.array(
    z.object({
      name: text(),
      realm: z.string().regex(realmNamePattern).default(defaultRealm),
      status: z.enum(['ACTIVE', 'INACTIVE', 'BILLING_LOCKED']).default('ACTIVE'),
      users: z
        .array(
          z.object({
            email: z.email(),
            password: z.string().min(8).optional(),
            firstname: text(),
            lastname: text(),
            roles: z.array(role).min(1),
          }),
        )
        .default([]),
      clients: z
        .array(
          z.object({
            client_id: text({ max: 128 }),
            client_secret: z.string().min(8),
            roles: z.array(role).min(1),
            redirect_uris: z.array(z.url()).optional(),
          }),
        )
        .default([]),
    }),
  ),
});

export type Seed = z.infer<typeof SeedSchema>;

export const demoSeed: Seed = {
  workspaces: [
    {
      name: 'Demo Field Service',
      realm: defaultRealm,
      status: 'ACTIVE',
      users: [
        {
          email: 'owner@demo.test',
          password: 'demo-password-1',
          firstname: 'Dana',
          lastname: 'Demo',
          roles: ['owner'],
        },
        // No password: they are people to plan for, not accounts to sign in with.
        ...demoTechnicians.map(({ email, firstname, lastname }) => ({
          email,
          firstname,
          lastname,
          roles: ['technician' as const],
        })),
      ],
      clients: [{ client_id: 'demo-integration', client_secret: 'demo-secret-1', roles: ['admin'] }],
    },
  ],
};

export async function loadSeedFile(path: string): Promise<Seed> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`FSM_SEED ${path} could not be read as JSON: ${(error as Error).message}`);
  }
  const result = SeedSchema.safeParse(json, { reportInput: true });
  if (!result.success) {
    const problems = fieldErrorsOf(result.error, 'body').map((e) => `  ${e.pointer}: ${e.detail}`);
    throw new Error(`FSM_SEED ${path} is not a valid seed:\n${problems.join('\n')}`);
  }
  return result.data;
}

export async function applySeed(seed: Seed): Promise<void> {
  for (const workspace of seed.workspaces) await provisionWorkspace(workspace as WorkspaceSpec);
}

/** The demo workspace's day to plan (demo-day.ts), for its API client. */
export async function applyDemoDay(now = new Date()): Promise<void> {
  const [workspace] = demoSeed.workspaces;
  const client = workspace?.clients[0];
  if (workspace && client) await seedDemoDay(workspace.name, client.client_id, now);
}

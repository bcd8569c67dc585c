/**
 * Data written before the list indexes existed is listed after the next start, with exact
 * totals (shared/data/backfill.ts runs at every start). The records are written straight into
 * DynamoDB Local as the code before the indexes stored them: no index attributes, no counters,
 * no search tokens, the workspace list as the old index partition, no owner pointer. A second
 * restart changes nothing. Runs on a service of its own: it restarts it twice.
 */
import { createPrivateKey, randomBytes, randomUUID, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../shared/local-stack/service-process.ts';

let dataDir: string;
let service: RunningService;
const adminSecret = randomBytes(16).toString('hex');
const env = () => ({ DATA_DIR: dataDir, FSM_ADMIN_CLIENT_SECRET: adminSecret, FSM_LIST_QUERY_MAX: '5' });

async function token(realm: string, clientId: string, secret: string): Promise<string> {
  const response = await fetch(`${service.baseUrl}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: secret,
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

async function get(path: string, bearer: string): Promise<any> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** What the demo workspace and the admin plane list, after a (re)start. */
async function snapshot() {
  const demo = await token('shared', 'demo-integration', 'demo-secret-1');
  const admin = await token('fsm-admin', 'fsm-admin', adminSecret);
  const areas = await get('/api/v2/areas?sort=name:asc&size=100', demo);
  const users = await get('/api/v2/users?status=ALL&size=100', demo);
  const technicians = await get('/api/v2/users?role=technician&size=100', demo);
  const searched = await get('/api/v2/users?search=legacy%20tech', demo);
  const tags = await get('/api/v2/tags?sort=usage_count:desc&size=100', demo);
  const workspaces = await get('/admin-v1/workspaces?sort=created_at:asc&size=100', admin);
  return { areas, users, technicians, searched, tags, workspaces };
}

let legacyWorkspaceId: string;
let legacyOwnerId: string;
let demoWorkspaceId: string;
let legacyTechnicianId: string;
let legacyCaseId: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fsm-backfill-'));
  service = await startService(env());
  const demoToken = await token('shared', 'demo-integration', 'demo-secret-1');
  const workspaceId = JSON.parse(
    Buffer.from(demoToken.split('.')[1] ?? '', 'base64url').toString(),
  ).tenant_id;
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: service.dynamodbEndpoint,
      region: 'eu-central-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const now = Date.parse('2026-01-05T10:00:00.000Z');
  const at = (i: number) => new Date(now + i * 1000).toISOString();
  const items: Array<Record<string, unknown>> = [];
  const tagIds = Array.from({ length: 4 }, () => randomUUID());
  tagIds.forEach((id, i) => {
    items.push({
      pk: `T#${workspaceId}#TAG`,
      sk: id,
      entity: 'tag',
      id,
      name: `Legacy tag ${i}`,
      color: '#123456',
      created_at: at(i),
      updated_at: at(i),
      lock_version: 0,
    });
    // The old counter: `count` only, and only for tags someone carried.
    if (i < 3)
      items.push({ pk: `T#${workspaceId}#TAG_USAGE`, sk: id, entity: 'tag-usage', tag_id: id, count: 3 - i });
  });
  for (let i = 0; i < 12; i++) {
    const id = randomUUID();
    items.push({
      pk: `T#${workspaceId}#AREA`,
      sk: id,
      entity: 'area',
      id,
      name: `Legacy area ${i}`,
      color: '#abcdef',
      zip_ranges: [],
      created_at: at(i),
      updated_at: at(i),
      lock_version: 1,
    });
  }
  demoWorkspaceId = workspaceId;
  for (let i = 0; i < 9; i++) {
    const id = randomUUID();
    if (i === 1) legacyTechnicianId = id;
    items.push({
      pk: `T#${workspaceId}#PRINCIPAL`,
      sk: id,
      entity: 'principal',
      id,
      workspace_id: workspaceId,
      kind: 'user',
      status: i === 8 ? 'INACTIVE' : 'ACTIVE',
      roles: [i % 3 === 0 ? 'dispatcher' : 'technician'],
      email: `legacy.tech${i}@legacy.test`,
      firstname: 'Legacy',
      lastname: `Technician ${i}`,
      skill_ids: [],
      tag_ids: i < 3 ? [tagIds[0]] : [],
      created_at: at(i),
      updated_at: at(i),
      lock_version: 0,
    });
  }
  // A case of today, assigned before offline sync existed: no scope entry, no mark.
  legacyCaseId = uuidv7();
  const today = new Date().toISOString().slice(0, 10);
  items.push({
    pk: `T#${workspaceId}#CASE`,
    sk: legacyCaseId,
    entity: 'case',
    id: legacyCaseId,
    title: 'Legacy boiler service',
    status: 'SCHEDULED',
    priority: 'NORMAL',
    assignee_id: legacyTechnicianId,
    scheduled_start: `${today}T09:00:00.000Z`,
    scheduled_end: `${today}T10:00:00.000Z`,
    created_at: at(0),
    updated_at: at(0),
    lock_version: 2,
  });
  legacyWorkspaceId = randomUUID();
  legacyOwnerId = randomUUID();
  items.push(
    {
      pk: `T#${legacyWorkspaceId}`,
      sk: 'WORKSPACE',
      entity: 'workspace',
      id: legacyWorkspaceId,
      name: 'Legacy Ltd',
      realm: 'shared',
      status: 'ACTIVE',
      created_at: at(0),
      updated_at: at(0),
      lock_version: 0,
    },
    {
      pk: 'WORKSPACES',
      sk: legacyWorkspaceId,
      entity: 'workspace-index',
      id: legacyWorkspaceId,
      created_at: at(0),
    },
    {
      pk: `T#${legacyWorkspaceId}#PRINCIPAL`,
      sk: legacyOwnerId,
      entity: 'principal',
      id: legacyOwnerId,
      workspace_id: legacyWorkspaceId,
      kind: 'user',
      status: 'ACTIVE',
      roles: ['owner'],
      email: `owner-${legacyOwnerId}@legacy.test`,
      firstname: 'Lea',
      lastname: 'Legacy',
      created_at: at(0),
      updated_at: at(0),
      lock_version: 0,
    },
  );
  for (let i = 0; i < items.length; i += 25) {
    await db.send(
      new BatchWriteCommand({
        RequestItems: { fsm: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  }
  // A table from before offline sync has no record of its backfill.
  await db.send(
    new DeleteCommand({ TableName: 'fsm', Key: { pk: `T#${workspaceId}`, sk: 'SYNC_BACKFILL' } }),
  );
  db.destroy();
  await service.stop();
  service = await startService(env());
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('Lists: backfill of data written before the indexes', () => {
  it('lists the old records with exact totals after a start, and a further start changes nothing', async () => {
    // Act
    const first = await snapshot();
    await service.stop();
    service = await startService(env());
    const second = await snapshot();

    // Assess: areas, users (every status, by role, searched), tags by usage, workspaces with owners
    const legacyAreas = first.areas.items.filter((area: any) => area.name.startsWith('Legacy area'));
    expect(legacyAreas.map((area: any) => area.name)).toEqual(
      Array.from({ length: 12 }, (_, i) => `Legacy area ${i}`).sort(
        new Intl.Collator('en', { numeric: true }).compare,
      ),
    );
    expect(first.areas.page.total_elements).toBe(first.areas.items.length);
    const legacyUsers = first.users.items.filter((user: any) => user.email.endsWith('@legacy.test'));
    expect(legacyUsers).toHaveLength(9);
    expect(first.users.page.total_elements).toBe(first.users.items.length);
    expect(first.technicians.page.total_elements).toBe(first.technicians.items.length);
    expect(first.technicians.items.filter((user: any) => user.email.endsWith('@legacy.test'))).toHaveLength(
      5,
    );
    expect(first.searched.items.map((user: any) => user.lastname)).toEqual(
      Array.from({ length: 8 }, (_, i) => `Technician ${i}`),
    );
    const legacyTags = first.tags.items.filter((tag: any) => tag.name.startsWith('Legacy tag'));
    expect(legacyTags.map((tag: any) => [tag.name, tag.usage_count])).toEqual([
      ['Legacy tag 0', 3],
      ['Legacy tag 1', 2],
      ['Legacy tag 2', 1],
      ['Legacy tag 3', 0],
    ]);
    expect(first.tags.page.total_elements).toBe(first.tags.items.length);
    const legacy = first.workspaces.items.find((workspace: any) => workspace.id === legacyWorkspaceId);
    expect(legacy).toMatchObject({ name: 'Legacy Ltd', owner_id: legacyOwnerId });
    expect(first.workspaces.page.total_elements).toBe(first.workspaces.items.length);
    // The seed, re-applied at every start, changes its own records' timestamps: compare what lists show.
    const shown = (snap: Awaited<ReturnType<typeof snapshot>>) =>
      Object.fromEntries(
        Object.entries(snap).map(([name, list]) => [
          name,
          {
            total: list.page.total_elements,
            items: list.items.map((item: any) => [item.id, item.usage_count, item.owner_id]),
          },
        ]),
      );
    expect(shown(second)).toEqual(shown(first));
  }, 120_000);
});

/** An access token of a user of the demo workspace, signed with the service's own key. */
function userToken(userId: string): string {
  const jwk = JSON.parse(readFileSync(join(dataDir, 'identity', 'signing-key.json'), 'utf8')).keys[0];
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg: 'RS256', typ: 'at+jwt', kid: jwk.kid })}.${encode({
    iss: `${service.baseUrl}/realms/shared`,
    aud: 'fsm-api',
    sub: userId,
    tenant_id: demoWorkspaceId,
    iat: now,
    exp: now + 600,
    jti: randomUUID(),
  })}`;
  return `${input}.${sign('sha256', Buffer.from(input), createPrivateKey({ key: jwk, format: 'jwk' })).toString('base64url')}`;
}

describe('Offline sync: backfill of records written before it', () => {
  it("puts a case assigned before offline sync existed into its assignee's scope, merging over it conservatively", async () => {
    // Act: a full pull of the technician, then a push over an older base of the case.
    const token = userToken(legacyTechnicianId);
    const pull = await fetch(`${service.baseUrl}/api/v2/sync/pull`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ installation_id: 'legacy-phone' }),
    });
    const page = (await pull.json()) as {
      changes: Array<{ type: string; id: string; op: string; data: any }>;
    };
    const push = await fetch(`${service.baseUrl}/api/v2/sync/push`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        installation_id: 'legacy-phone',
        mutations: [
          {
            id: 1,
            type: 'case',
            record_id: legacyCaseId,
            op: 'update',
            base_version: 1,
            data: { status: 'DONE' },
          },
        ],
      }),
    });

    // Assess: the case came whole; what changed before the mark is unknown, so the server's value stays.
    expect(pull.status).toBe(200);
    expect(page.changes.find((change) => change.id === legacyCaseId)).toMatchObject({
      type: 'case',
      op: 'upsert',
      data: { title: 'Legacy boiler service', lock_version: 2 },
    });
    expect(push.status).toBe(200);
    expect(((await push.json()) as any).results).toEqual([
      {
        id: 1,
        status: 'merged',
        version: 2,
        conflicts: [{ field: 'status', yours: 'DONE', theirs: 'SCHEDULED' }],
      },
    ]);
  });
});

/**
 * Offline sync under chaos (issue 37): simulated devices of two technicians go offline, edit the
 * cases they hold and comment on them, come back, lose the answers of their pushes (the push was
 * applied, the app never heard, it pushes again), and pull with stale cursors, while a dispatcher
 * reassigns, reschedules (into and out of the window), renames, comments on and deletes the same
 * cases over REST. Some pushes crash part way (a test hook stops the function after k mutations,
 * answering 500). Random but seeded, so a failure replays.
 *
 * After every round, once every device has pushed what it holds and pulled to the end:
 * 1. each device's copy of cases and comments equals the server's projection of its user's scope
 *    (the cases assigned to them in the window, as GET reads them, and their comments);
 * 2. every mutation pushed was applied exactly once or refused: each offline comment (its body
 *    names its mutation) exists exactly once if its result was applied, and not at all if it was
 *    rejected; the installation's last_mutation_id is its last mutation.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, eventually, tokenFor } from '../support/api.ts';
import { directTable } from '../support/direct-table.ts';
import { generator } from '../support/optimizer/random-instances.ts';
import { SyncDevice } from '../support/sync-device.ts';
import { createUser, roleId, tokenOfUser } from '../support/users.ts';

let admin: string;
let dispatcher: string;

beforeAll(async () => {
  [admin, dispatcher] = await Promise.all([tokenFor('fleet-admin'), tokenFor('fleet-dispatcher')]);
});

/** The seeded generator of the optimizer's test instances, so a failing round replays. */
function seeded(seed: number) {
  const random = generator(seed);
  return {
    ...random,
    pick: <T>(items: readonly T[]): T => items[Math.floor(random.next() * items.length)] as T,
  };
}

const dayMs = 24 * 3600 * 1000;
const startIn = (days: number) =>
  `${new Date(Date.now() + days * dayMs).toISOString().slice(0, 10)}T09:00:00.000Z`;
const endOf = (start: string) => new Date(Date.parse(start) + 3600_000).toISOString();
const inWindow = (start: string | undefined) => {
  if (!start) return false;
  const day = start.slice(0, 10);
  const from = new Date(Date.now() - 7 * dayMs).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 14 * dayMs).toISOString().slice(0, 10);
  return day >= from && day <= to;
};

interface OfflineComment {
  device: SyncDevice;
  mutationId: number;
  caseId: string;
  body: string;
}

async function allComments(caseId: string): Promise<Array<Record<string, any>>> {
  const response = await call(
    'GET',
    `/api/v2/comments?target_type=core:case&target_id=${caseId}&sort=flat:asc&size=1000`,
    {
      token: dispatcher,
    },
  );
  if (response.status === 404 || response.status === 422) return [];
  expect(response.status, response.text).toBe(200);
  return response.body.items;
}

/** The server's projection of a user's scope: the cases assigned in the window and their comments. */
async function projection(userId: string, caseIds: readonly string[]) {
  const expected = new Map<string, Record<string, any>>();
  for (const id of caseIds) {
    const read = await call('GET', `/api/v2/cases/${id}`, { token: dispatcher });
    if (read.status !== 200 || read.body.assignee_id !== userId || !inWindow(read.body.scheduled_start))
      continue;
    expected.set(`case#${id}`, read.body);
    for (const comment of await allComments(id)) expected.set(`comment#${comment.id}`, comment);
  }
  return expected;
}

function ownCopy(device: SyncDevice) {
  return new Map([...device.copy].filter(([key]) => key.startsWith('case#') || key.startsWith('comment#')));
}

describe('Offline sync under chaos', () => {
  it('keeps every device equal to its scope and applies every pushed mutation exactly once', async () => {
    const random = seeded(Number(process.env.FSM_CHAOS_SEED ?? 37));
    const technicianRole = await roleId(admin, 'technician');
    const people = await Promise.all(
      [0, 1].map(async () => {
        const user = await createUser(admin, { role_ids: [technicianRole] });
        const token = tokenOfUser(admin, user.id);
        return { id: user.id as string, token, devices: [new SyncDevice(token), new SyncDevice(token)] };
      }),
    );
    const devices = people.flatMap((person) => person.devices);
    const caseIds: string[] = [];
    for (let index = 0; index < 8; index++) {
      const start = startIn(index % 5);
      const created = await call('POST', '/api/v2/cases', {
        token: dispatcher,
        body: {
          title: `Chaos ${index} ${randomUUID().slice(0, 6)}`,
          status: 'SCHEDULED',
          assignee_id: people[index % 2]?.id,
          scheduled_start: start,
          scheduled_end: endOf(start),
        },
      });
      expect(created.status, created.text).toBe(201);
      caseIds.push(created.body.id);
    }
    await Promise.all(devices.map((device) => device.sync()));
    const offlineComments: OfflineComment[] = [];
    const staleCursors = new Map<SyncDevice, string>();
    const statuses = ['IN_PROGRESS', 'ON_HOLD', 'DONE'];

    for (let round = 0; round < 6; round++) {
      // Devices go offline and edit what they hold; some keep an old cursor to pull with later.
      for (const device of devices) {
        if (device.cursor && random.chance(0.5)) staleCursors.set(device, device.cursor);
        const held = [...device.copy.values()].filter(
          (record) => 'assignee_id' in record && 'title' in record,
        );
        for (let edits = 0; edits < 2 && held.length > 0; edits++) {
          const job = random.pick(held);
          if (random.chance(0.5)) {
            device.edit({
              type: 'case',
              record_id: job.id,
              op: 'update',
              base_version: job.lock_version,
              data: { status: random.pick(statuses) },
            });
          } else {
            const body = `offline ${device.installationId} #${device.nextMutationId}`;
            const mutation = device.comment(job.id, body);
            offlineComments.push({ device, mutationId: mutation.id, caseId: job.id, body });
          }
        }
      }
      // Meanwhile dispatch edits the same cases over REST.
      for (let edits = 0; edits < 4; edits++) {
        const id = random.pick(caseIds);
        const roll = random.next();
        const start = startIn(random.pick([-9, -3, 0, 2, 6, 13, 16, 25]));
        const body =
          roll < 0.3
            ? { assignee_id: random.chance(0.2) ? null : random.pick(people).id }
            : roll < 0.6
              ? { scheduled_start: start, scheduled_end: endOf(start) }
              : roll < 0.85
                ? { title: `Renamed ${round}.${edits}` }
                : undefined;
        if (body) {
          const patched = await call('PATCH', `/api/v2/cases/${id}`, { token: dispatcher, body });
          expect([200, 404]).toContain(patched.status);
        } else {
          await call('POST', '/api/v2/comments', {
            token: dispatcher,
            body: {
              target_type: 'core:case',
              target_id: id,
              body_markdown: `dispatch note ${round}.${edits}`,
            },
          });
        }
      }
      if (round === 3) {
        const doomed = caseIds.splice(Math.floor(random.next() * caseIds.length), 1)[0] as string;
        expect((await call('DELETE', `/api/v2/cases/${doomed}`, { token: dispatcher })).status).toBe(204);
      }
      // Devices come back: some pushes crash part way (a 500 after k mutations applied), some lose
      // their answer (applied, never heard); the app pushes again either way.
      for (const device of devices) {
        if (device.pending.length === 0) continue;
        if (device.pending.length > 1 && random.chance(0.3)) {
          const table = directTable();
          await table.send(
            new PutCommand({
              TableName: 'fsm',
              Item: {
                pk: 'TESTHOOK',
                sk: `sync-push-crash#${device.installationId}`,
                after_mutations: 1 + Math.floor(random.next() * (device.pending.length - 1)),
              },
            }),
          );
          table.destroy();
          // Sent past `call`: a simulated crash is a fault of the test, not an answer of the contract
          // that test/contract/declared-answers.test.ts should hold against the document.
          const crashed = await fetch(`${baseUrl()}/api/v2/sync/push`, {
            method: 'POST',
            headers: { authorization: `Bearer ${device.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ installation_id: device.installationId, mutations: device.pending }),
          });
          expect(crashed.status).toBe(500);
        } else if (random.chance(0.4)) {
          const lost = await call('POST', '/api/v2/sync/push', {
            token: device.token,
            body: { installation_id: device.installationId, mutations: device.pending },
          });
          expect(lost.status, lost.text).toBe(200);
        }
        const pushed = await device.push();
        expect(pushed.status, pushed.text).toBe(200);
        expect(device.pending).toEqual([]);
        for (const result of pushed.body.results) {
          const offline = offlineComments.find((c) => c.device === device && c.mutationId === result.id);
          if (offline) Object.assign(offline, { status: result.original_status ?? result.status });
        }
      }
      // Some pull from a stale cursor first: changes come again, the copy still converges.
      for (const device of devices) {
        const stale = staleCursors.get(device);
        if (stale && random.chance(0.5)) {
          const page = await device.pullPage({ cursor: stale });
          expect(page.status, page.text).toBe(200);
          device.apply(page.body);
          device.cursor = page.body.cursor;
        }
      }

      // Invariants, once the change log has caught up.
      for (const person of people) {
        for (const device of person.devices) {
          await eventually(async () => {
            await device.sync();
            const copy = ownCopy(device);
            const want = await projection(person.id, caseIds);
            expect([...copy.keys()].sort(), `round ${round}`).toEqual([...want.keys()].sort());
            for (const [key, record] of want) {
              if (key.startsWith('case#')) expect(copy.get(key)).toEqual(record);
              else
                expect(copy.get(key)).toMatchObject({
                  body_markdown: record.body_markdown,
                  lock_version: record.lock_version,
                });
            }
          }, 15_000);
        }
      }
      for (const offline of offlineComments.filter((c) => caseIds.includes(c.caseId))) {
        const status = (offline as OfflineComment & { status?: string }).status;
        const matching = (await allComments(offline.caseId)).filter((c) => c.body_markdown === offline.body);
        if (status === 'applied') expect(matching, offline.body).toHaveLength(1);
        else if (status === 'rejected') expect(matching, offline.body).toHaveLength(0);
        else throw new Error(`mutation ${offline.body}: no result (${status})`);
      }
    }
    for (const device of devices) {
      const page = await device.pullPage();
      expect(page.body.last_mutation_id).toBe(device.nextMutationId - 1);
    }
  }, 180_000);
});

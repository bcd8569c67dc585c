/**
 * The demo workspace's day to plan (README.md, "Planning a day"): 60 cases around Berlin, six
 * technicians with skills and a shift each, on the day after the stack starts (UTC), so the
 * README's three commands work on any day. Applied with the demo seed at every start, through
 * the domain services (events and list indexes follow, as for any write):
 *
 * - skills (Gas, Electrical, Heat pump) by name, and each technician's offerings, when missing;
 * - the day counts as seeded once every technician has a shift overlapping it: then nothing is
 *   read beyond that one key range (starts stay fast);
 * - otherwise the day's cases that are missing are created first (each has an external_id
 *   `demo-day:<date>:<n>` and a time window on its day, so days never mix in a run's default
 *   selection), then the missing shifts: a start that dies midway completes the day next time.
 *
 * Times are UTC: shifts 06:00–16:00 (08:00–18:00 in Berlin in summer) with a 30-minute break.
 */
import type { Actor } from '../auth/actor.ts';
import { grantsOfRoles } from '../auth/grants.ts';
import { getPrincipal } from '../data/directory.store.ts';
import type { CreateCase } from '../domain/cases/case.schema.ts';
import { createCase } from '../domain/cases/case.service.ts';
import { planningCandidates } from '../domain/cases/case-planning.ts';
import { createShift } from '../domain/shifts/shift.service.ts';
import { shiftsOverlapping } from '../domain/shifts/shift.store.ts';
import { createSkill } from '../domain/skills/skill.service.ts';
import { skillStore } from '../domain/skills/skill.store.ts';
import { replaceUserSkills } from '../domain/users/user.service.ts';
import { serviceAccountIdOf, userIdOf, workspaceIdOf } from '../domain/workspaces/workspace-provisioning.ts';

export const demoSkills = ['Gas', 'Electrical', 'Heat pump'] as const;
type DemoSkill = (typeof demoSkills)[number];

/** Berlin, Alexanderplatz: the centre the cases lie around. */
export const demoCity = { name: 'Berlin', latitude: 52.5219, longitude: 13.4132 };
export const demoCaseCount = 60;

export const demoTechnicians: ReadonlyArray<{
  email: string;
  firstname: string;
  lastname: string;
  skills: readonly DemoSkill[];
  /** Where the shift starts and ends (the technician's home), around the centre. */
  home: { latitude: number; longitude: number };
}> = [
  {
    email: 'anna.weber@demo.test',
    firstname: 'Anna',
    lastname: 'Weber',
    skills: ['Gas', 'Heat pump'],
    home: { latitude: 52.5503, longitude: 13.4115 },
  },
  {
    email: 'ben.schulz@demo.test',
    firstname: 'Ben',
    lastname: 'Schulz',
    skills: ['Electrical'],
    home: { latitude: 52.4862, longitude: 13.4253 },
  },
  {
    email: 'clara.fischer@demo.test',
    firstname: 'Clara',
    lastname: 'Fischer',
    skills: ['Gas'],
    home: { latitude: 52.5163, longitude: 13.3002 },
  },
  {
    email: 'deniz.yilmaz@demo.test',
    firstname: 'Deniz',
    lastname: 'Yilmaz',
    skills: ['Electrical', 'Heat pump'],
    home: { latitude: 52.5145, longitude: 13.4951 },
  },
  {
    email: 'emil.wagner@demo.test',
    firstname: 'Emil',
    lastname: 'Wagner',
    skills: ['Gas', 'Electrical'],
    home: { latitude: 52.5701, longitude: 13.3402 },
  },
  {
    email: 'frieda.koch@demo.test',
    firstname: 'Frieda',
    lastname: 'Koch',
    skills: ['Electrical'],
    home: { latitude: 52.4651, longitude: 13.3301 },
  },
];

/** Kinds of work: title, skill needed (none for general work), minutes on site. */
const jobs: ReadonlyArray<{ title: string; skill?: DemoSkill; minutes: number }> = [
  { title: 'Boiler service', skill: 'Gas', minutes: 60 },
  { title: 'Gas leak check', skill: 'Gas', minutes: 30 },
  { title: 'Socket replacement', skill: 'Electrical', minutes: 30 },
  { title: 'Fuse box inspection', skill: 'Electrical', minutes: 45 },
  { title: 'Heat pump maintenance', skill: 'Heat pump', minutes: 60 },
  { title: 'Radiator bleeding', minutes: 30 },
  { title: 'Water meter reading', minutes: 15 },
  { title: 'Smoke detector check', minutes: 30 },
  { title: 'Thermostat installation', minutes: 45 },
  { title: 'Tap repair', minutes: 30 },
];

/** Start windows of a case, in UTC hours of its day: morning, midday, afternoon or all day. */
const windows: ReadonlyArray<readonly [number, number]> = [
  [6, 10],
  [9, 13],
  [12, 15],
  [6, 15],
  [6, 15],
];

/** A small deterministic generator (mulberry32): the same day every time. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const instant = (date: string, hours: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + hours * 3_600_000).toISOString();

/** The day the demo plans: the UTC day after `now`. */
export function demoDayOf(now = new Date()): string {
  return new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
}

/** The cases of the day (n = 0..59), the same places, work and windows every day. */
export function demoCases(date: string, skillIds: Record<DemoSkill, string>): CreateCase[] {
  const next = random(2027);
  return Array.from({ length: demoCaseCount }, (_, n) => {
    const job = jobs[Math.floor(next() * jobs.length)] ?? jobs[0];
    const [open, close] = windows[Math.floor(next() * windows.length)] ?? [6, 15];
    // Up to ~9 km from the centre, denser near it.
    const distance = 0.09 * Math.sqrt(next());
    const angle = next() * 2 * Math.PI;
    return {
      title: `${job?.title} #${n + 1}`,
      status: 'NEW',
      priority: next() < 0.15 ? 'HIGH' : 'NORMAL',
      external_id: `demo-day:${date}:${n + 1}`,
      location: {
        latitude: Math.round((demoCity.latitude + distance * 0.62 * Math.sin(angle)) * 1e5) / 1e5,
        longitude: Math.round((demoCity.longitude + distance * Math.cos(angle)) * 1e5) / 1e5,
      },
      duration: `PT${job?.minutes ?? 30}M`,
      ...(job?.skill ? { required_skill_ids: [skillIds[job.skill]] } : {}),
      time_windows: [{ start: instant(date, open), end: instant(date, close) }],
    } as CreateCase;
  });
}

function seedActor(workspaceId: string, clientId: string): Actor {
  return {
    workspaceId,
    principal: {
      id: serviceAccountIdOf(workspaceId, clientId),
      kind: 'service_account',
      workspaceId,
      roles: ['admin'],
      grants: grantsOfRoles(['admin']),
    },
    requestId: 'seed-demo-day',
    correlationId: 'seed-demo-day',
  };
}

async function skillIdsOf(ctx: Actor): Promise<Record<DemoSkill, string>> {
  const existing = await skillStore.of(ctx).list();
  const ids: Partial<Record<DemoSkill, string>> = {};
  for (const name of demoSkills) {
    ids[name] = existing.find((skill) => skill.name === name)?.id ?? (await createSkill(ctx, { name })).id;
  }
  return ids as Record<DemoSkill, string>;
}

async function offerSkills(ctx: Actor, skillIds: Record<DemoSkill, string>): Promise<void> {
  for (const technician of demoTechnicians) {
    const userId = userIdOf(ctx.workspaceId, technician.email);
    const principal = await getPrincipal(ctx.workspaceId, userId);
    if (!principal) continue;
    const wanted = technician.skills.map((name) => skillIds[name]);
    const has = new Set(principal.skill_ids ?? []);
    if (wanted.every((id) => has.has(id))) continue;
    await replaceUserSkills(ctx, userId, {
      skill_ids: [...new Set([...has, ...wanted])],
      lock_version: principal.lock_version,
    });
  }
}

/** Seeds the demo day of `now` in the workspace; idempotent (see the file's comment). */
export async function seedDemoDay(workspaceName: string, clientId: string, now = new Date()): Promise<void> {
  const workspaceId = workspaceIdOf(workspaceName);
  const ctx = seedActor(workspaceId, clientId);
  const date = demoDayOf(now);
  const [from, to] = [instant(date, 0), instant(date, 24)];
  const userIds = demoTechnicians.map((technician) => userIdOf(workspaceId, technician.email));
  const shifts = await shiftsOverlapping(ctx, from, to);
  const withShift = new Set(shifts.map((shift) => shift.user_id));
  if (userIds.every((id) => withShift.has(id))) return;

  const skillIds = await skillIdsOf(ctx);
  await offerSkills(ctx, skillIds);
  const present = new Set(
    (await planningCandidates(ctx, from, to)).flatMap((record) => record.external_id ?? []),
  );
  const missing = demoCases(date, skillIds).filter((input) => !present.has(input.external_id ?? ''));
  for (let i = 0; i < missing.length; i += 10) {
    await Promise.all(missing.slice(i, i + 10).map((input) => createCase(ctx, input)));
  }
  for (const [index, technician] of demoTechnicians.entries()) {
    const userId = userIds[index] as string;
    if (withShift.has(userId)) continue;
    await createShift(ctx, {
      user_id: userId,
      start: instant(date, 6),
      end: instant(date, 16),
      start_location: technician.home,
      breaks: [{ earliest_start: instant(date, 10), latest_end: instant(date, 12.5), duration: 'PT30M' }],
    });
  }
}

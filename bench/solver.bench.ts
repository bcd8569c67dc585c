/**
 * The optimizer against the VRPTW benchmark subset (../shared/benchmarks/vrptw, its README), run
 * the way the scorer runs it: one instance at a time, `npm run --silent solve` in its own process
 * group with the limit in VRPTW_TIME_LIMIT, killed at the wall-clock limit. Each answer is then
 * checked from the instance file alone (exact Euclidean distances in double precision, service
 * starts within [ready, due] with 0.01 of slack, capacity, fleet size, every customer once) and
 * compared with the best-known solution: vehicles, and the distance gap where the vehicle count
 * matches. A last run solves a generated field-service day (1,000 jobs, 50 vehicles, skills,
 * lunch breaks, several windows) and reports its time and peak memory.
 *
 *   npm run bench:solver
 *   npm run bench:solver -- --instances C101,R101 --limits 10
 *   npm run bench:solver -- --no-large           # skip the 1,000-job run
 *   npm run bench:solver -- --large-only --large-limit 30
 *   npm run bench:solver -- --dir /path/to/vrptw --seed 3
 *   npm run bench:solver -- --threads 1                 # one search (the CLI's default: one per core)
 *   npm run bench:solver -- --limits 1,10 --mid-limit 30 --scale-limit 60   # the defaults
 *
 * Instances of 1,000 customers or more run once, at `--scale-limit` (default 60 s), through
 * `node bin/solve.ts` with a probe that reports the process's peak memory (npm's launcher would
 * hide it); the others run at every limit of `--limits` through `npm run` as the scorer runs them.
 *
 * The benchmark folder defaults to ../shared/benchmarks/vrptw from the repository root, or
 * VRPTW_BENCH_DIR; when it is absent the instance runs are skipped with a note.
 * Goals (issue 40, this 2-core machine): at 1 s, mean gap ≤ 1.63 % where vehicles match and
 * vehicles ≤ best-known on ≥ 80 %; at 10 s, mean gap ≤ 0.3 % and vehicles ≤ best-known on all but
 * one; at 30 s on the 200-customer ones ≤ 0.8 %; 1,000 customers at 60 s always feasible, vehicles
 * ≤ best-known on ≥ 80 %, within 2 % of the best-known distance, peak memory stated.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSolution } from '../test/support/optimizer/vroom-checker.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function optionValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}
const flag = (name: string) => process.argv.includes(name);

const benchDir = resolve(
  optionValue('--dir') ??
    process.env.VRPTW_BENCH_DIR ??
    join(repoRoot, '..', 'shared', 'benchmarks', 'vrptw'),
);
const limits = (optionValue('--limits') ?? '1,10').split(',').map(Number);
// The 200-customer instances once more at this limit (issue 40's goal: ≤ 0.8 % at 30 s); 0 skips it.
const midLimit = Number(optionValue('--mid-limit') ?? 30);
const onlyInstances = optionValue('--instances')?.split(',');
const seed = optionValue('--seed');
// Searches at once (the CLI's --threads; its default is one per core).
const threads = optionValue('--threads');
const largeLimit = Number(optionValue('--large-limit') ?? 30);
const scaleLimit = Number(optionValue('--scale-limit') ?? 60);
const scaleCustomers = 1000;
const runLarge = !flag('--no-large');
const runInstances = !flag('--large-only');

interface Customer {
  id: number;
  x: number;
  y: number;
  demand: number;
  ready: number;
  due: number;
  service: number;
}
interface Instance {
  name: string;
  vehicles: number;
  capacity: number;
  depot: { x: number; y: number; ready: number; due: number };
  customers: Customer[];
}
interface Known {
  bks: { vehicles: number; distance: number };
  bks_distance_only?: { vehicles: number; distance: number };
}

interface RunResult {
  status: number | null;
  killed: boolean;
  seconds: number;
  stdout: string;
  stderr: string;
  peakKb?: number;
}

/** Writes the process's peak resident set size (KB) to fd 3 as it exits. */
const memoryProbe = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; import { isMainThread } from 'node:worker_threads'; if (isMainThread) process.on('exit', () => { try { writeSync(3, String(process.resourceUsage().maxRSS)); } catch {} });",
)}`;

/**
 * Runs the CLI like the scorer: `npm run --silent solve` in its own process group, the limit in
 * the environment, killed at the limit. The memory probe needs node itself (`--import`), so the
 * run that measures memory starts `node bin/solve.ts` directly.
 */
function runSolver(inputText: string, limitSeconds: number, probeMemory = false): Promise<RunResult> {
  return new Promise((resolvePromise) => {
    const solverArgs = [...(seed ? ['--seed', seed] : []), ...(threads ? ['--threads', threads] : [])];
    const [command, args] = probeMemory
      ? [process.execPath, ['--import', memoryProbe, 'bin/solve.ts', ...solverArgs]]
      : ['npm', ['run', '--silent', 'solve', '--', ...solverArgs]];
    const began = performance.now();
    const child = spawn(command, args, {
      cwd: repoRoot,
      detached: true,
      env: { ...process.env, VRPTW_TIME_LIMIT: String(limitSeconds) },
      stdio: ['pipe', 'pipe', 'pipe', ...(probeMemory ? (['pipe'] as const) : [])],
    });
    let stdout = '';
    let stderr = '';
    let memory = '';
    let killed = false;
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    if (probeMemory) {
      (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8');
      (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: string) => {
        memory += chunk;
      });
    }
    const timer = setTimeout(() => {
      killed = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    }, limitSeconds * 1000);
    child.on('close', (status) => {
      clearTimeout(timer);
      const result: RunResult = {
        status,
        killed,
        seconds: (performance.now() - began) / 1000,
        stdout,
        stderr,
      };
      if (memory) result.peakKb = Number(memory);
      resolvePromise(result);
    });
    child.stdin!.end(inputText);
  });
}

interface Score {
  feasible: boolean;
  problems: string[];
  vehicles: number;
  distance: number;
}

/** The scorer's check, from the instance file alone: exact Euclidean distances, 0.01 slack. */
function score(instance: Instance, output: any): Score {
  const problems: string[] = [];
  const byId = new Map(instance.customers.map((c) => [c.id, c]));
  const served = new Set<number>();
  let distance = 0;
  let vehicles = 0;
  if (output?.code !== 0) problems.push(`code ${output?.code}`);
  for (const route of output?.routes ?? []) {
    const ids: number[] = route.steps.filter((s: any) => s.type === 'job').map((s: any) => s.id);
    if (ids.length === 0) continue;
    vehicles++;
    let x = instance.depot.x;
    let y = instance.depot.y;
    let t = instance.depot.ready;
    let load = 0;
    for (const id of ids) {
      const customer = byId.get(id);
      if (!customer) {
        problems.push(`unknown customer ${id}`);
        continue;
      }
      if (served.has(id)) problems.push(`customer ${id} twice`);
      served.add(id);
      const leg = Math.hypot(customer.x - x, customer.y - y);
      distance += leg;
      t = Math.max(t + leg, customer.ready);
      if (t > customer.due + 0.01) problems.push(`customer ${id} late by ${(t - customer.due).toFixed(4)}`);
      t += customer.service;
      load += customer.demand;
      x = customer.x;
      y = customer.y;
    }
    const back = Math.hypot(instance.depot.x - x, instance.depot.y - y);
    distance += back;
    if (t + back > instance.depot.due + 0.01) problems.push(`vehicle ${route.vehicle} back late`);
    if (load > instance.capacity) problems.push(`vehicle ${route.vehicle} over capacity (${load})`);
  }
  if (vehicles > instance.vehicles) problems.push(`${vehicles} vehicles, fleet of ${instance.vehicles}`);
  const missing = instance.customers.length - served.size;
  if (missing > 0) problems.push(`${missing} customers not served`);
  return { feasible: problems.length === 0, problems, vehicles, distance };
}

interface Row {
  name: string;
  customers: number;
  limit: number;
  score: Score;
  known: Known;
  seconds: number;
  note: string;
  peakKb?: number;
}

const percent = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}%`;

function printTable(limit: number, rows: Row[]) {
  console.log(`\n### ${limit} s per instance (wall clock, killed at the limit)\n`);
  console.log(
    '| instance | customers | vehicles (BKS) | distance | BKS distance | gap | feasible | time s | peak MB |',
  );
  console.log('|---|---:|---:|---:|---:|---:|:---:|---:|---:|');
  for (const row of rows) {
    const { score: s, known } = row;
    const matched = s.feasible && s.vehicles <= known.bks.vehicles;
    const gap = matched ? percent((s.distance / known.bks.distance - 1) * 100) : '—';
    const extra =
      s.feasible && !matched && known.bks_distance_only
        ? ` (vs distance-only BKS ${known.bks_distance_only.distance}: ${percent((s.distance / known.bks_distance_only.distance - 1) * 100)})`
        : '';
    console.log(
      `| ${row.name} | ${row.customers} | ${s.vehicles} (${known.bks.vehicles}) | ${s.distance.toFixed(2)} | ${known.bks.distance} | ${gap}${extra} | ${s.feasible ? 'yes' : `NO: ${s.problems.slice(0, 2).join('; ')}`} | ${row.seconds.toFixed(2)} | ${row.peakKb ? (row.peakKb / 1024).toFixed(0) : ''} |${row.note ? ` ${row.note}` : ''}`,
    );
  }
  const feasible = rows.filter((r) => r.score.feasible);
  const atBks = feasible.filter((r) => r.score.vehicles <= r.known.bks.vehicles);
  const gaps = atBks.map((r) => (r.score.distance / r.known.bks.distance - 1) * 100);
  const meanGap = gaps.length ? gaps.reduce((a, b) => a + b, 0) / gaps.length : Number.NaN;
  const totalTime = rows.reduce((a, r) => a + r.seconds, 0);
  console.log(
    `\nTotal ${limit} s: ${feasible.length}/${rows.length} feasible; vehicles ≤ BKS on ${atBks.length}/${rows.length} (${((100 * atBks.length) / Math.max(1, rows.length)).toFixed(0)} %); ` +
      `mean gap where vehicles match ${Number.isNaN(meanGap) ? '—' : percent(meanGap)}; ` +
      `vehicles ${rows.reduce((a, r) => a + r.score.vehicles, 0)} vs BKS ${rows.reduce((a, r) => a + r.known.bks.vehicles, 0)}; ` +
      `time ${totalTime.toFixed(1)} s (max ${Math.max(...rows.map((r) => r.seconds)).toFixed(2)} s)`,
  );
  const groups = new Map<number, Row[]>();
  for (const row of rows) groups.set(row.customers, [...(groups.get(row.customers) ?? []), row]);
  if (groups.size < 2) return;
  for (const [customers, group] of groups) {
    const matched = group.filter((r) => r.score.feasible && r.score.vehicles <= r.known.bks.vehicles);
    const groupGaps = matched.map((r) => (r.score.distance / r.known.bks.distance - 1) * 100);
    console.log(
      `  ${customers} customers: ${group.filter((r) => r.score.feasible).length}/${group.length} feasible, vehicles ≤ BKS on ${matched.length}, mean gap ${groupGaps.length ? percent(groupGaps.reduce((x, y) => x + y, 0) / groupGaps.length) : '—'}`,
    );
  }
}

async function benchmarkInstances() {
  const vroomDir = join(benchDir, 'vroom');
  if (!existsSync(vroomDir)) {
    console.log(
      `Benchmark instances not found at ${vroomDir} (set --dir or VRPTW_BENCH_DIR): instance runs skipped.`,
    );
    return;
  }
  const bks: Record<string, Known> = JSON.parse(readFileSync(join(benchDir, 'bks.json'), 'utf8'));
  const names = readdirSync(vroomDir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.replace(/\.json$/, ''))
    .filter((name) => !onlyInstances || onlyInstances.includes(name))
    .sort((a, b) => a.length - b.length || a.localeCompare(b));
  const instances = new Map<string, Instance>(
    names.map((name) => [
      name,
      JSON.parse(readFileSync(join(benchDir, 'instances', `${name}.json`), 'utf8')),
    ]),
  );
  const isScale = (name: string) => instances.get(name)!.customers.length >= scaleCustomers;
  const plan: Array<[number, string[]]> = limits.map((limit) => [limit, names.filter((n) => !isScale(n))]);
  if (midLimit > 0 && !limits.includes(midLimit)) {
    const mid = (name: string) => !isScale(name) && instances.get(name)!.customers.length >= 200;
    plan.push([midLimit, names.filter(mid)]);
  }
  // --scale-limit 0 skips the 1,000-customer instances.
  if (scaleLimit > 0) plan.push([scaleLimit, names.filter(isScale)]);
  for (const [limit, group] of plan) {
    if (group.length === 0) continue;
    const rows: Row[] = [];
    for (const name of group) {
      const inputText = readFileSync(join(vroomDir, `${name}.json`), 'utf8');
      const instance = instances.get(name)!;
      const run = await runSolver(inputText, limit, isScale(name));
      let output: any;
      let note = '';
      if (run.killed) note = 'killed at the limit';
      else if (run.status !== 0) note = `exit ${run.status}: ${run.stderr.trim().split('\n')[0]}`;
      else output = JSON.parse(run.stdout);
      const row: Row = {
        name,
        customers: instance.customers.length,
        limit,
        score: output
          ? score(instance, output)
          : { feasible: false, problems: [note], vehicles: 0, distance: 0 },
        known: bks[name]!,
        seconds: run.seconds,
        note,
        ...(run.peakKb ? { peakKb: run.peakKb } : {}),
      };
      rows.push(row);
      process.stderr.write(
        `${name} @${limit}s: ${row.score.vehicles} vehicles, ${row.score.distance.toFixed(2)}, ${row.score.feasible ? 'feasible' : 'INFEASIBLE'}, ${run.seconds.toFixed(2)} s${row.peakKb ? `, peak ${(row.peakKb / 1024).toFixed(0)} MB` : ''}\n`,
      );
    }
    printTable(limit, rows);
  }
}

/** A seeded field-service day: jobs around a city, technicians with skills, lunch breaks. */
function fieldServiceDay(jobCount: number, vehicleCount: number, seedValue: number) {
  let state = seedValue >>> 0;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const int = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const hour = 3600;
  // Places: 5 depots, then one per job, in a 30 km × 30 km area (coordinates in metres).
  const depots = 5;
  const points = Array.from({ length: depots + jobCount }, (_, i) =>
    i < depots ? [15_000 + int(-6000, 6000), 15_000 + int(-6000, 6000)] : [int(0, 30_000), int(0, 30_000)],
  );
  // Road time at 40 km/h with a 1.3 detour, in seconds.
  const durations = points.map((a) =>
    points.map((b) => Math.round((Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!) * 1.3) / (40_000 / 3600))),
  );
  const jobs = Array.from({ length: jobCount }, (_, i) => {
    const job: Record<string, unknown> = {
      id: i + 1,
      location_index: depots + i,
      service: int(1, 5) * 5 * 60,
      delivery: [int(1, 3)],
    };
    const skill = random();
    if (skill < 0.5) job.skills = [int(1, 5)];
    const window = random();
    if (window < 0.6) {
      const start = (8 + int(0, 6)) * hour;
      job.time_windows = [[start, start + int(2, 4) * hour]];
    } else if (window < 0.8) {
      job.time_windows = [
        [8 * hour, 12 * hour],
        [14 * hour, 18 * hour],
      ];
    }
    if (random() < 0.2) job.priority = int(1, 100);
    return job;
  });
  const vehicles = Array.from({ length: vehicleCount }, (_, i) => {
    const depot = i % depots;
    const skills = new Set<number>();
    while (skills.size < int(2, 4)) skills.add(int(1, 5));
    return {
      id: i + 1,
      start_index: depot,
      end_index: depot,
      capacity: [int(60, 100)],
      skills: [...skills].sort(),
      time_window: [8 * hour, 18 * hour],
      breaks: [{ id: 1, service: 45 * 60, time_windows: [[12 * hour, 14 * hour]] }],
      costs: { fixed: 10 * hour },
    };
  });
  return { jobs, vehicles, matrices: { car: { durations } } };
}

async function benchmarkLarge() {
  const input = fieldServiceDay(1000, 50, 26);
  const run = await runSolver(JSON.stringify(input), largeLimit, true);
  console.log(
    `\n### Generated field-service day: 1,000 jobs, 50 vehicles, skills, breaks (limit ${largeLimit} s)\n`,
  );
  if (run.killed || run.status !== 0) {
    console.log(`failed: ${run.killed ? 'killed at the limit' : `exit ${run.status}: ${run.stderr.trim()}`}`);
    return;
  }
  const output = JSON.parse(run.stdout);
  const problems = checkSolution(input, output);
  console.log(
    '| jobs | vehicles | routes | unassigned | feasible (independent checker) | time s | peak memory MB |',
  );
  console.log('|---:|---:|---:|---:|:---:|---:|---:|');
  console.log(
    `| 1000 | 50 | ${output.summary.routes} | ${output.summary.unassigned} | ${problems.length === 0 ? 'yes' : `NO: ${problems.slice(0, 3).join('; ')}`} | ${run.seconds.toFixed(2)} | ${run.peakKb ? (run.peakKb / 1024).toFixed(0) : '?'} |`,
  );
  console.log(
    `  loading ${output.summary.computing_times.loading} ms, solving ${output.summary.computing_times.solving} ms, cost ${output.summary.cost}`,
  );
}

if (runInstances) await benchmarkInstances();
if (runLarge) await benchmarkLarge();

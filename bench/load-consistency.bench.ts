/**
 * `npm run bench:load`: 64 concurrent clients mixing creates, last-write-wins patches of ONE
 * contended area, lists and reads against the local stack. Prints the status codes (goal: no
 * 409 for writes without lock_version, no 5xx), whether every patch was applied (lock_version),
 * and whether the audit log got exactly one entry per committed change.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../shared/local-stack/service-process.ts';

const svc = await startService({ DATA_DIR: await mkdtemp(join(tmpdir(), 'lp-')), LOG_LEVEL: 'warn' });
const B = svc.baseUrl;
const tok = (
  (await (
    await fetch(`${B}/realms/shared/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'demo-integration',
        client_secret: 'demo-secret-1',
      }),
    })
  ).json()) as any
).access_token;
const h = { authorization: `Bearer ${tok}`, 'content-type': 'application/json' };
const a = (await (
  await fetch(`${B}/api/v2/areas`, {
    method: 'POST',
    headers: h,
    body: JSON.stringify({ name: 'x', color: '#000' }),
  })
).json()) as any;
const statuses = new Map<number, number>();
const t0 = Date.now();
await Promise.all(
  Array.from({ length: 64 }, async (_, w) => {
    for (let i = 0; i < 40; i++) {
      const r =
        i % 4 === 0
          ? await fetch(`${B}/api/v2/areas`, {
              method: 'POST',
              headers: h,
              body: JSON.stringify({ name: `n${w}-${i}`, color: '#111' }),
            })
          : i % 4 === 1
            ? await fetch(`${B}/api/v2/areas/${a.id}`, {
                method: 'PATCH',
                headers: { ...h, 'content-type': 'application/merge-patch+json' },
                body: JSON.stringify({ name: `p${w}-${i}` }),
              })
            : i % 4 === 2
              ? await fetch(`${B}/api/v2/areas?size=5`, { headers: h })
              : await fetch(`${B}/api/v2/areas/${a.id}`, { headers: h });
      await r.arrayBuffer();
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status >= 500) console.log('5xx', r.status);
    }
  }),
);
console.log('statuses', JSON.stringify([...statuses]), 'in', Date.now() - t0, 'ms');
const final = (await (await fetch(`${B}/api/v2/areas/${a.id}`, { headers: h })).json()) as any;
console.log('lock_version after', final.lock_version, '(640 patches)');
await new Promise((r) => setTimeout(r, 3000));
const audit = (await (await fetch(`${B}/api/v2/audit-logs?size=1`, { headers: h })).json()) as any;
console.log('audit total', audit.page.total_elements, '(expected', 1 + 640 + 640, ')');
await svc.stop();
process.exit(0);

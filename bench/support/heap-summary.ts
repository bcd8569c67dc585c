/**
 * Summarizes a V8 heap snapshot (.heapsnapshot): self size and count by constructor name (or
 * node type for native and string nodes), largest first. `node bench/support/heap-summary.ts
 * <file> [<baseline file>]`: with a baseline, the difference.
 */
import { readFileSync } from 'node:fs';

interface Summary {
  [name: string]: { count: number; bytes: number };
}

function summarize(file: string): Summary {
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field)) as [
    number,
    number,
    number,
  ];
  const summary: Summary = {};
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt] as number] ?? '?';
    const name = snapshot.strings[snapshot.nodes[i + nameAt] as number] ?? '?';
    const key =
      type === 'object' || type === 'native' || type === 'closure' ? `${type}:${name.slice(0, 60)}` : type;
    const entry = summary[key] ?? { count: 0, bytes: 0 };
    summary[key] = entry;
    entry.count++;
    entry.bytes += snapshot.nodes[i + sizeAt] as number;
  }
  return summary;
}

const [file, baselineFile] = process.argv.slice(2);
if (!file) throw new Error('usage: heap-summary.ts <file> [<baseline>]');
const after = summarize(file);
const before = baselineFile ? summarize(baselineFile) : {};
const rows = Object.entries(after)
  .map(([name, { count, bytes }]) => ({
    name,
    count: count - (before[name]?.count ?? 0),
    bytes: bytes - (before[name]?.bytes ?? 0),
  }))
  .sort((a, b) => b.bytes - a.bytes)
  .slice(0, 40);
const total = rows.reduce((sum, row) => sum + row.bytes, 0);
for (const row of rows) {
  console.log(
    `${(row.bytes / 1024).toFixed(0).padStart(9)} KB ${String(row.count).padStart(8)}  ${row.name}`,
  );
}
console.log(`${(total / 1024).toFixed(0).padStart(9)} KB in the rows above`);

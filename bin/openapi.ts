/**
 * `npm run openapi [-- --out <file>]`: the OpenAPI document this code serves, without starting
 * anything, for linters, client generators and reviews. Origins come from FSM_BASE_URL (default
 * http://127.0.0.1:3000), as for the running service.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { openApiDocument } from '../shared/openapi/openapi-document.ts';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const text = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
if (values.out) {
  await mkdir(dirname(values.out), { recursive: true });
  await writeFile(values.out, text);
} else {
  process.stdout.write(text);
}

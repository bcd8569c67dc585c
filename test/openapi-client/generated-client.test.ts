/**
 * The published document is consumable: openapi-typescript turns it into types, and a small
 * client (client.ts) type-checks against them with the project's own compiler, including the
 * misuses it must refuse.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../shared/openapi/openapi-document.ts';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = join(here, '..', '..', 'node_modules', '.bin', 'tsc');

function typecheck(): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(tsc, ['--noEmit', '-p', join(here, 'tsconfig.json')], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}`.trim() }),
    );
  });
}

describe('The published OpenAPI document, as a client generator reads it', () => {
  it('gives openapi-typescript types that a small client type-checks against', async () => {
    // Prepare
    const ast = await openapiTS(openApiDocument() as Parameters<typeof openapiTS>[0]);
    await mkdir(join(here, 'generated'), { recursive: true });
    await writeFile(join(here, 'generated', 'api.ts'), astToString(ast));

    // Act
    const { code, output } = await typecheck();

    // Assess
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 120_000);
});

/**
 * DynamoDB Local on a port that was free when chosen but taken before the JVM bound it (tests
 * start several stacks at once): the stack starts anyway, on another port; a port asked for is
 * not replaced.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkJava } from './prerequisites.ts';

const taken: { server?: Server; port: number } = { port: 0 };
const sockets = new Set<Socket>();

vi.mock('./free-port.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./free-port.ts')>();
  let first = true;
  return {
    // The first port handed out is the one another process holds by now.
    freePort: async () => {
      if (first) {
        first = false;
        return taken.port;
      }
      return original.freePort();
    },
  };
});

beforeAll(async () => {
  await checkJava();
  // Whoever holds the port accepts connections (the readiness probe's too) and never answers.
  taken.server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => taken.server?.listen({ host: '0.0.0.0', port: 0 }, resolve));
  const address = taken.server.address();
  taken.port = typeof address === 'object' && address ? address.port : 0;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => taken.server?.close(() => resolve()));
});

describe('Module: dynamodb-local', () => {
  it('starts on another free port when the chosen one was taken meanwhile', async () => {
    const { startDynamoDbLocal } = await import('./dynamodb-local.ts');
    const local = await startDynamoDbLocal({ dataDir: null });
    try {
      expect(new URL(local.endpoint).port).not.toBe(String(taken.port));
    } finally {
      await local.stop();
    }
  }, 60_000);

  it('fails, naming the bind, when the port asked for is taken', async () => {
    const { startDynamoDbLocal } = await import('./dynamodb-local.ts');
    await expect(startDynamoDbLocal({ dataDir: null, port: taken.port })).rejects.toThrow(
      /Failed to bind|in use/,
    );
  }, 60_000);
});

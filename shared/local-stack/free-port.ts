/**
 * The local stack runs several servers side by side (and tests run several stacks in parallel),
 * so fixed ports would collide; the OS hands out one that is free right now instead.
 */
import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (bind it soon: another process may take it). */
export async function freePort(): Promise<number> {
  return await new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('The OS did not report the port of a TCP listener'));
        return;
      }
      const { port } = address;
      server.close((error) => (error ? reject(error) : resolve(port)));
    });
  });
}

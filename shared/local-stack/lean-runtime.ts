/**
 * How the processes that hold event-stream connections run (`npm start`'s, and the Fargate
 * container's): measured by `npm run bench:event-stream` (docs/operations.md, "The event
 * stream's memory"), each idle connection cost 44 KB of RSS at 1,000 connections with Node's
 * defaults and 8 KB with these two settings:
 *
 * - `MALLOC_ARENA_MAX=2`: glibc otherwise keeps up to eight arenas per core, and the buffers a
 *   socket's first read allocates (64 KB, then cut to the request's size) leave each arena
 *   holding pages it never returns;
 * - `--max-semi-space-size=2` (MB): V8's young generation otherwise grows to 3 × 16 MB, which a
 *   process holding thousands of idle sockets keeps committed; scavenges of 2 MB stay short.
 *
 * package.json's `start` script and the Dockerfile state the same (test/contract/lean-runtime
 * checks that they do); the test and bench harnesses spawn the service with these.
 */
export const leanRuntime = {
  env: { MALLOC_ARENA_MAX: '2' },
  nodeFlags: ['--max-semi-space-size=2'],
} as const;

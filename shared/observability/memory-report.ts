/**
 * For `npm run bench:event-stream`: a process started with --expose-gc answers SIGUSR2 with a
 * full collection and one line `memory after collection {…process.memoryUsage()}`, so a memory
 * figure taken from outside counts what is held, not garbage waiting for the collector. Without
 * --expose-gc nothing is installed (and `otherwise` runs, if given).
 */
export function reportMemoryOnSignal(print: (line: string) => void, otherwise?: () => void): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) {
    if (otherwise) process.on('SIGUSR2', otherwise);
    return;
  }
  process.on('SIGUSR2', () => {
    collect();
    print(`memory after collection ${JSON.stringify(process.memoryUsage())}`);
  });
}

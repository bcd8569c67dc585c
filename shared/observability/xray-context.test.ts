import { describe, expect, it } from 'vitest';
import { createNamespace, getNamespace } from './xray-context.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the X-Ray context on AsyncLocalStorage', () => {
  it('refuses a value where no context is active, as cls-hooked does', () => {
    const namespace = createNamespace('refuses');
    expect(() => namespace.set('segment', 'a')).toThrow(/No context available/);
    expect(namespace.get('segment')).toBeUndefined();
  });

  it('keeps what was entered outside any run for everything after (the Lambda facade)', async () => {
    const namespace = createNamespace('entered');
    namespace.enter(namespace.createContext());
    namespace.set('segment', 'facade');
    await tick();
    expect(namespace.get('segment')).toBe('facade');
    expect(getNamespace('entered')).toBe(namespace);
  });

  it('gives each run its own child context through its awaits, without leaking', async () => {
    const namespace = createNamespace('runs');
    namespace.enter(namespace.createContext());
    namespace.set('segment', 'handler');
    const seen = await Promise.all(
      ['call-a', 'call-b'].map(
        (name) =>
          new Promise<unknown[]>((resolve) => {
            namespace.run(async () => {
              const inherited = namespace.get('segment');
              namespace.set('segment', name);
              await tick();
              resolve([inherited, namespace.get('segment')]);
            });
          }),
      ),
    );
    expect(seen).toEqual([
      ['handler', 'call-a'],
      ['handler', 'call-b'],
    ]);
    expect(namespace.get('segment')).toBe('handler');
  });

  it('runs a bound function in the context it was bound to', async () => {
    const namespace = createNamespace('bound');
    let bound: (() => unknown) | undefined;
    namespace.run(() => {
      namespace.set('segment', 'at-bind');
      bound = namespace.bind(() => namespace.get('segment'));
    });
    await tick();
    expect(namespace.get('segment')).toBeUndefined();
    expect(bound?.()).toBe('at-bind');
  });
});

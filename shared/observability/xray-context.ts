/**
 * The X-Ray SDK's "current segment" context on Node's AsyncLocalStorage, in place of cls-hooked:
 * the Lambda bundles alias `cls-hooked/context` to this module (lib/bundling.ts). cls-hooked
 * installs an async hook that runs on every promise of the process, traced or not: measured here,
 * a million awaits take 2.0 s of CPU with it and 0.09 s without (AsyncLocalStorage costs nothing
 * measurable on Node 24), and the AWS SDK makes hundreds of promises per call.
 *
 * Only what the X-Ray SDK's context_utils and capture functions use is here, with cls-hooked's
 * meaning: `enter` outside any `run` makes a context active for everything that follows, process
 * wide (the SDK does it once, at import on Lambda, for its facade segment; Lambda runs one
 * invocation at a time per process), and `run`/`bind` give a child context to a call and the
 * asynchronous work it starts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

type Context = Record<string | symbol, unknown>;

export class Namespace {
  readonly #storage = new AsyncLocalStorage<Context>();
  /** What `enter` made active outside any `run`: seen wherever no `run` context is. */
  #entered: Context | null = null;

  readonly name: string;

  constructor(name: string) {
    this.name = name;
  }

  get active(): Context | null {
    return this.#storage.getStore() ?? this.#entered;
  }

  /** A context inheriting the active one's values. */
  createContext(): Context {
    return Object.create(this.active ?? Object.prototype) as Context;
  }

  enter(context: Context): void {
    if (this.#storage.getStore() === undefined) this.#entered = context;
    else this.#storage.enterWith(context);
  }

  exit(context: Context): void {
    if (this.#entered === context) this.#entered = null;
  }

  set<T>(key: string, value: T): T {
    const active = this.active;
    if (!active) throw new Error('No context available. ns.run() or ns.bind() must be called first.');
    active[key] = value;
    return value;
  }

  get(key: string): unknown {
    return this.active?.[key];
  }

  run(fn: (context: Context) => void): Context {
    const context = this.createContext();
    this.#storage.run(context, fn, context);
    return context;
  }

  runAndReturn<T>(fn: (context: Context) => T): T {
    const context = this.createContext();
    return this.#storage.run(context, fn, context);
  }

  runPromise<T>(fn: (context: Context) => Promise<T>): Promise<T> {
    const context = this.createContext();
    return this.#storage.run(context, fn, context);
  }

  bind<A extends unknown[], R>(fn: (...args: A) => R, context?: Context): (...args: A) => R {
    const bound = context ?? this.active ?? this.createContext();
    const storage = this.#storage;
    return function (this: unknown, ...args: A): R {
      return storage.run(bound, () => fn.apply(this, args));
    };
  }
}

const namespaces = new Map<string, Namespace>();

export function getNamespace(name: string): Namespace | undefined {
  return namespaces.get(name);
}

export function createNamespace(name: string): Namespace {
  const namespace = new Namespace(name);
  namespaces.set(name, namespace);
  return namespace;
}

export function destroyNamespace(name: string): void {
  namespaces.delete(name);
}

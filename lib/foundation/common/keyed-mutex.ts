/**
 * Runs async work one at a time per key (e.g. per session workspace). Lives on
 * the process-wide core, not in a module, so route handlers and server.ts
 * share the same locks.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(fn);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  get size(): number {
    return this.tails.size;
  }
}

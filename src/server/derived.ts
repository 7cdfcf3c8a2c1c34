/**
 * The one cache of values derived from the state (`Store.derived`): each use declares its key once,
 * typed by what it holds, and every change of the state empties the whole cache (`Store.changed`).
 * A value computed while a handler may wait must be kept only if the state did not move meanwhile
 * (`Store.version`): the caller checks that.
 */

/** The key of one kind of derived value; compared by identity, its name is for reading only. */
export interface DerivedKey<T> {
  readonly name: string;
  /** Never set: carries the type of the value. */
  readonly type?: T;
}

export function derivedKey<T>(name: string): DerivedKey<T> {
  return { name };
}

export class Derived {
  private readonly values = new Map<DerivedKey<unknown>, unknown>();

  /** The value kept under `key`, computed and kept first when there is none. */
  get<T>(key: DerivedKey<T>, compute: () => T): T {
    if (this.values.has(key)) return this.values.get(key) as T;
    const value = compute();
    this.values.set(key, value);
    return value;
  }

  /** The value kept under `key`, if any, without computing it. */
  peek<T>(key: DerivedKey<T>): T | undefined {
    return this.values.get(key) as T | undefined;
  }

  set<T>(key: DerivedKey<T>, value: T): void {
    this.values.set(key, value);
  }

  clear(): void {
    if (this.values.size > 0) this.values.clear();
  }
}

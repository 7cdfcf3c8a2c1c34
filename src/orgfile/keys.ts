/** Keys: the stable names of an organization file's items, made from titles. */

/** A key from a title: lower-case letters, digits and dashes (`Getting started` → `getting-started`). */
export function slug(text: string, fallback = 'item'): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90)
    .replace(/-+$/, '');
  return s || fallback;
}

/** Hands out keys unique within one kind: `guides`, then `guides-2`, `guides-3`… */
export class KeyAllocator {
  private readonly taken = new Set<string>();

  /** Reserve keys given explicitly (they win over derived ones). */
  reserve(key: string): void {
    this.taken.add(key);
  }

  has(key: string): boolean {
    return this.taken.has(key);
  }

  /** `base` or the first free `base-N`, reserved. */
  take(base: string): string {
    let key = base;
    for (let i = 2; this.taken.has(key); i++) key = `${base}-${i}`;
    this.taken.add(key);
    return key;
  }
}

/**
 * `expand[]` (Stripe): in an answer, the ids at the paths asked for
 * (`customer`, `latest_charge`, `data.customer` through a list's page) are
 * replaced by the objects the twin holds with those ids. An id the twin does
 * not hold stays as it is. At most 4 levels deep, as Stripe allows.
 *
 * @module
 */

/** Finds a stored object by id. */
type Finder = (id: string) => Promise<Record<string, unknown> | undefined>;

async function expandPath(node: unknown, parts: readonly string[], find: Finder): Promise<void> {
  if (Array.isArray(node)) {
    for (const member of node) await expandPath(member, parts, find);
    return;
  }
  if (typeof node !== 'object' || node === null || parts.length === 0) return;
  const record = node as Record<string, unknown>;
  const [head, ...rest] = parts as [string, ...string[]];
  if (!Object.hasOwn(record, head)) return;
  const value = record[head];
  if (rest.length === 0) {
    if (typeof value === 'string') {
      const found = await find(value);
      if (found !== undefined) record[head] = structuredClone(found);
    }
    return;
  }
  if (typeof value === 'string') {
    const found = await find(value);
    if (found === undefined) return;
    record[head] = structuredClone(found);
  }
  await expandPath(record[head], rest, find);
}

/** Expands `paths` (dotted) in `answer`, in place. */
export async function expandAnswer(answer: unknown, paths: readonly string[], find: Finder): Promise<void> {
  for (const path of paths) {
    const parts = path.split('.').slice(0, 5);
    await expandPath(answer, parts, find);
  }
}

/**
 * Enums a provider keeps adding to after the document it ships was written (docs/twins.md, "Enums
 * of an older document"). A provider's flows name the document's extension that marks them
 * ({@link TwinFlows.openEnums}: Stripe's document, of 2024-04-10, marks `api_version`, event types,
 * tax id and payment method types so); each schema carrying it is marked open when the document is
 * loaded, and a request value outside an open enum is taken (twin-values.ts), where a closed enum's
 * refusal still holds. The document's own values stay: an example still draws from them.
 *
 * @module
 */
import type { Schema } from './twin-example.js';

/** The mark a schema of an open enum carries once loaded. */
export const OPEN_ENUM = 'x-mockpoint-open-enum';

/** Most schemas one document is walked through (a document past it is marked no further). */
const MAX_NODES = 5_000_000;

/**
 * Marks, in place, every schema of `document` with an `enum` and the extension `marked` set to
 * `true` as open. Walked without recursion, each node once, bounded by {@link MAX_NODES}.
 */
export function markOpenEnums(document: Record<string, unknown>, marked: string | undefined): void {
  if (marked === undefined) return;
  const stack: unknown[] = [document];
  let seen = 0;
  while (stack.length > 0 && seen < MAX_NODES) {
    const node = stack.pop();
    seen += 1;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    const schema = node as Schema;
    if (Array.isArray(schema.enum) && schema[marked] === true) schema[OPEN_ENUM] = true;
    for (const value of Object.values(schema)) if (typeof value === 'object' && value !== null) stack.push(value);
  }
}

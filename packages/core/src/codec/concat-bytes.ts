/**
 * Byte concatenation without Node's `Buffer` (the core runs on every runtime).
 *
 * @module
 */

/**
 * The bytes of `parts` one after the other, always in a new array (a part may be
 * a view the caller's source reuses or hands on). `length`, when the caller has
 * counted it, saves a pass over the parts.
 */
export function concatBytes(parts: readonly Uint8Array[], length?: number): Uint8Array {
  let total = length ?? 0;
  if (length === undefined) for (const part of parts) total += part.byteLength;
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

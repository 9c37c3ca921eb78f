/**
 * The one strict UTF-8 decoder: bytes that are not UTF-8 give `undefined`
 * (each caller says what that means: base64, a 400 `INVALID_UTF8`, an error
 * naming the offset), never U+FFFD.
 *
 * @module
 */

/** Drops a leading byte-order mark, as `TextDecoder` does by default. */
const strict = new TextDecoder('utf-8', { fatal: true });
/** Keeps a leading byte-order mark as U+FEFF. */
const strictKeepingBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The text of `bytes` when they are UTF-8 (a leading byte-order mark dropped),
 * otherwise `undefined`. With `truncated` (bytes cut off at a limit), a
 * character cut in half at the end is dropped, not counted as bad.
 */
export function utf8Text(bytes: Uint8Array, truncated = false): string | undefined {
  try {
    // `stream: true` holds back an incomplete last character instead of failing on
    // it; a fresh decoder then, so no streaming state is left behind.
    if (truncated) return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

/** {@link utf8Text} of whole bytes, keeping a leading byte-order mark (a file served as it is). */
export function utf8TextKeepingBom(bytes: Uint8Array): string | undefined {
  try {
    return strictKeepingBom.decode(bytes);
  } catch {
    return undefined;
  }
}

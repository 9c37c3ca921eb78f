/**
 * JSON Merge Patch (RFC 7396) from JSON text to JSON text, so that what a patch
 * does not name keeps its exact text: a big integer, `1.50`, a key written with
 * an escape and the order of keys all stay as they were. A member the patch
 * names is replaced where it stands; a new one is added at the end; `null`
 * removes one.
 *
 * @module
 */
import { scanJson } from '../codec/json-text.js';

/**
 * `target` with `patch` applied (both valid JSON text; the result is minified).
 * A patch that is not an object replaces the target; a target that is not an
 * object is taken as `{}` under a patch that is.
 * @throws JsonSyntaxError when either is not JSON
 * @example mergePatchText('{"id":1,"n":12345678901234567890}', '{"a":{"b":null}}') // '{"id":1,"n":12345678901234567890,"a":{}}'
 */
export function mergePatchText(target: string, patch: string): string {
  const patched = scanJson(patch);
  if (patched.members === undefined) return patched.text;
  const { members, keyTexts } = scanJson(target);
  /** Key → [key as written, value text], in the target's order. */
  const result = new Map<string, [string, string]>();
  if (members !== undefined) {
    for (const [key, value] of members) result.set(key, [keyTexts?.get(key) ?? JSON.stringify(key), value]);
  }
  for (const [key, value] of patched.members) {
    if (value === 'null') {
      result.delete(key);
      continue;
    }
    const current = result.get(key);
    const keyText = current?.[0] ?? patched.keyTexts?.get(key) ?? JSON.stringify(key);
    result.set(key, [keyText, mergePatchText(current?.[1] ?? 'null', value)]);
  }
  return objectText(result.values());
}

/** `{k:v,…}` from members given as [key as written, value text]. */
export function objectText(members: Iterable<readonly [string, string]>): string {
  let text = '';
  for (const [key, value] of members) text += `${text === '' ? '' : ','}${key}:${value}`;
  return `{${text}}`;
}

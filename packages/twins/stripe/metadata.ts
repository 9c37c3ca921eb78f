/**
 * Stripe's bounds of `metadata` (its API reference, "Metadata"): up to 50
 * keys, each key up to 40 characters and without square brackets, each value
 * up to 500 characters. Checked wherever a request sends `metadata`, at the top
 * or inside another parameter (`subscription_data[metadata]`, `items[0][metadata]`), before the twin
 * stores, copies or sends it on.
 *
 * @module
 */

import type { FlowError } from '@mockpoint/core/internal';
import { invalidRequest } from './errors.js';

export const METADATA_KEYS = 50;
export const METADATA_KEY_LENGTH = 40;
export const METADATA_VALUE_LENGTH = 500;

/** How deep below the request's top a `metadata` parameter is looked for (the form's own bound is 8). */
const DEPTH = 8;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A long text as Stripe shows it in an error: its first and last ten characters. */
function shown(text: string): string {
  return text.length > 20 ? `${text.slice(0, 10)}...${text.slice(-10)}` : text;
}

/** Why one `metadata` object (sent as `param`) is out of Stripe's bounds, or `undefined`. */
function checkOne(metadata: Record<string, unknown>, param: string): FlowError | undefined {
  const keys = Object.keys(metadata);
  if (keys.length > METADATA_KEYS) {
    return invalidRequest(
      `Invalid ${param}: metadata can have up to ${METADATA_KEYS} keys, but you passed in ${keys.length} keys.`,
      param,
    );
  }
  for (const key of keys) {
    if (key.length > METADATA_KEY_LENGTH || /[[\]]/.test(key)) {
      return invalidRequest(
        `Invalid ${param}: metadata keys can have up to ${METADATA_KEY_LENGTH} characters and no square brackets, but you passed in ${shown(key)} (${key.length} characters).`,
        param,
      );
    }
    const value = metadata[key];
    if (typeof value === 'string' && value.length > METADATA_VALUE_LENGTH) {
      return invalidRequest(
        `Invalid ${param}: metadata values can have up to ${METADATA_VALUE_LENGTH} characters, but you passed in a value of ${value.length} characters for ${shown(key)}: ${shown(value)}.`,
        `${param}[${shown(key)}]`,
      );
    }
  }
  return undefined;
}

/** Stripe's refusal of a request's `metadata` out of its bounds, at any of the first levels, or `undefined`. */
export function checkMetadata(sent: Record<string, unknown> | unknown[], at = '', depth = 0): FlowError | undefined {
  if (depth > DEPTH) return undefined;
  for (const [key, value] of Object.entries(sent)) {
    const param = at === '' ? key : `${at}[${key}]`;
    if (Array.isArray(value)) {
      const found = checkMetadata(value, param, depth + 1);
      if (found !== undefined) return found;
    }
    if (!isRecord(value)) continue;
    const found =
      key === 'metadata' && !Array.isArray(sent) ? checkOne(value, param) : checkMetadata(value, param, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

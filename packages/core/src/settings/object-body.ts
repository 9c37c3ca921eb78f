/**
 * A setting's PUT body as a plain object: read within the body limit as a JSON object
 * (`readJsonObjectBody`), each member parsed.
 *
 * @module
 */
import { readJsonObjectBody } from '../codec/body.js';

/** The members of `request`'s JSON object body as own properties (a `__proto__` member is then reported as unknown). */
export async function objectBody(
  request: Request,
  maxBytes: number,
  options?: { inTurnsFrom?: number },
): Promise<Record<string, unknown>> {
  const members = await readJsonObjectBody(request, maxBytes, options);
  return Object.fromEntries([...members].map(([member, text]) => [member, JSON.parse(text)]));
}

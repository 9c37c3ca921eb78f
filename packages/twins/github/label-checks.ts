/**
 * What GitHub refuses of a label (`issues.createLabel`, `issues.updateLabel`): a `color` other
 * than six hex digits (a leading `#` aside) is `422 Validation Failed` with `invalid` on `color`,
 * and a name another label of the repository has, case aside (`BUG` beside `bug`), `422
 * Validation Failed` with `already_exists` on `name`; nothing is made or changed.
 *
 * @module
 */
import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { invalidField, validationFailed } from './events.js';

const LABELS = '/repos/{owner}/{repo}/labels';

/** GitHub's refusal of a label's `color` sent that is not six hex digits; `undefined` for none sent or one taken. */
export function labelColorRefused(template: string, sent: Record<string, unknown>): FlowError | undefined {
  if (template !== LABELS || sent.color === undefined || sent.color === null) return undefined;
  if (typeof sent.color === 'string' && /^#?[0-9a-fA-F]{6}$/.test(sent.color)) return undefined;
  return invalidField('Label', 'color');
}

/** A label's `color` as GitHub keeps it: without the `#` it may be sent with. */
export function labelColorKept(template: string, object: Record<string, unknown>): void {
  if (template === LABELS && typeof object.color === 'string') object.color = object.color.replace(/^#/, '');
}

/**
 * GitHub's refusal of a label named as another label of the repository is, case aside: `name` of a
 * create, `new_name` of a rename (`from` the label renamed, which may change its own name's case).
 */
export async function labelNameTaken(name: unknown, kit: FlowKit, from?: string): Promise<FlowError | undefined> {
  if (typeof name !== 'string' || name === '') return undefined;
  const wanted = name.toLowerCase();
  const labels = await kit.objects(LABELS, kit.values);
  const taken = labels.some((label) => String(label.name).toLowerCase() === wanted && label.name !== from);
  if (!taken) return undefined;
  return validationFailed('already_exists', [{ resource: 'Label', code: 'already_exists', field: 'name' }]);
}

/**
 * The answer members that are settings of every kind (docs/design.md#every-feature-composes: `delay`,
 * `setState`), and the one refusal of such a member beside a kind that cannot
 * honour it: `SETTING_NOT_FOR_KIND`, naming the setting, the kind and what to
 * use instead. Any other member beside a kind stays that kind's own refusal
 * (`INVALID_ANSWER`, `INVALID_PROXY`).
 *
 * @module
 */

/** What a person does instead, by setting. */
const INSTEAD: Readonly<Record<string, string>> = {
  delay: 'to slow its answers, give the name chaos latency (PUT /api/endpoints/{name}/chaos with "latency")',
  setState:
    'move the state with a queued answer (POST /api/endpoints/{name}/queue with "setState") or a route of mockpoint’s own answer',
};

/** The members of `keys` that are cross-cutting settings, in the order given. */
export function crossCuttingOf(keys: readonly string[]): string[] {
  return keys.filter((key) => Object.hasOwn(INSTEAD, key));
}

/**
 * The message refusing `settings` (cross-cutting members, at least one) beside
 * `noun` (`"an mcp answer"`), which is `what` (`"the fake server"`): the
 * caller raises it as `SETTING_NOT_FOR_KIND`, prefixed with where the answer is.
 */
export function notForKindMessage(settings: readonly string[], noun: string, what: string): string {
  const named = settings.join(' and ');
  const verb = settings.length === 1 ? 'is not a setting' : 'are not settings';
  return `${named} ${verb} of ${noun}, which is ${what}; ${settings.map((setting) => INSTEAD[setting]).join('; ')}`;
}

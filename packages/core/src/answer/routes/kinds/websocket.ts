/**
 * The websocket kind's compile: the upgrade answer, its script prepared once.
 *
 * @module
 */

import type { RouteAnswer } from '../../../api/route.js';
import type { UpgradeAnswer } from '../../endpoint-answer.js';
import { prepareScript, scriptBytes } from '../../websocket/socket-script.js';
import { type CompiledAnswer, lowerHeaders } from '../compile-parts.js';

/**
 * A WebSocket answer: the script prepared once; the route step gives each
 * upgrade request its own copy with the session (see `engine/pipeline/route-step.ts`).
 */
export function compileSocketAnswer(answer: RouteAnswer): CompiledAnswer {
  const websocket = answer.websocket as NonNullable<RouteAnswer['websocket']>;
  const headers: Record<string, string | readonly string[]> = {};
  for (const [name, values] of lowerHeaders(answer))
    headers[name] = values.length === 1 ? (values[0] as string) : values;
  const script = prepareScript(websocket);
  const upgrade: UpgradeAnswer = Object.freeze({
    kind: 'upgrade',
    status: 101,
    headers: Object.freeze(headers),
    script,
    delay: answer.delay ?? 0,
  });
  return { statusCode: 101, templated: false, bytes: scriptBytes(script), answer: () => upgrade };
}

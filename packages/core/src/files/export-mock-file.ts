/**
 * A daemon's endpoints as a mock file (JSON or YAML): the exact state, so that
 * export → reset → apply answers the same bytes.
 *
 * @module
 */
import { parseAnswerJson } from '../api/answer-json.js';
import { chaosSettingsJson } from '../api/chaos.js';
import { JsonText, stringifyExact } from '../codec/json-text.js';
import { type AdminTarget, holdsSetting, listNames, readNamespaceChaos, readState, stateEntry } from './admin-calls.js';
import { MOCK_FILE_VERSION } from './mock-file-schema.js';
import { stringifyYamlExact } from './yaml-text.js';

/** Options for {@link exportMockFile}. */
export interface ExportOptions {
  /** Only these names. @default every name that holds anything a mock file carries (docs/files.md#what-export-holds) */
  names?: readonly string[];
  /** The file's format. @default 'json' */
  format?: 'json' | 'yaml';
}

/** A queued answer (exact JSON text) as an object of its fields, `data` still exact: block YAML reads better. */
function queueEntry(answer: unknown): unknown {
  if (!(answer instanceof JsonText)) return answer;
  const { times } = JSON.parse(answer.text) as { times?: number };
  const fields: Record<string, unknown> = { ...parseAnswerJson(answer.text) };
  if (times !== undefined) fields.times = times;
  return fields;
}

/**
 * The text of a mock file holding the target's endpoints in name order, every
 * `data` as its exact minified JSON text: JSON with a two-space indent, or YAML
 * (block style, each `data` in JSON flow form, which the reader keeps as written).
 * @example await exportMockFile({ url: 'http://127.0.0.1:16540' }, { format: 'yaml' })
 */
export async function exportMockFile(target: AdminTarget, options: ExportOptions = {}): Promise<string> {
  const names = options.names ?? (await listNames(target));
  const endpoints: Record<string, unknown>[] = [];
  for (const name of names) {
    const state = await readState(target, name);
    const empty = state.routes.length === 0 && state.queue.length === 0 && state.collections === undefined;
    if (!state.record && empty && !holdsSetting(state) && state.state === undefined) continue;
    endpoints.push(stateEntry(state));
  }
  // The namespace's chaos goes with a whole export, not with a few names.
  const chaos = options.names === undefined ? await readNamespaceChaos(target) : undefined;
  const file: Record<string, unknown> = { version: MOCK_FILE_VERSION, endpoints };
  if (chaos !== undefined) file.chaos = JSON.parse(chaosSettingsJson(chaos));
  if (options.format === 'yaml') {
    for (const entry of endpoints) if (Array.isArray(entry.queue)) entry.queue = entry.queue.map(queueEntry);
    return stringifyYamlExact(file);
  }
  return `${stringifyExact(file, 2)}\n`;
}

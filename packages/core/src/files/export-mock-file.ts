/**
 * A daemon's endpoints as a mock file (JSON): the exact state, so that
 * export → reset → apply answers the same bytes.
 *
 * @module
 */
import { stringifyExact } from '../wire/json-text.js';
import { type AdminTarget, listNames, readState, stateEntry } from './admin-calls.js';
import { MOCK_FILE_VERSION } from './mock-file-schema.js';

/** Options for {@link exportMockFile}. */
export interface ExportOptions {
  /** Only these names (they need not have a record: routes-only names are found too). @default every name with a record */
  names?: readonly string[];
}

/**
 * The text of a mock file (JSON, two-space indent; every `data` as its exact
 * minified text) holding the target's endpoints in name order.
 */
export async function exportMockFile(target: AdminTarget, options: ExportOptions = {}): Promise<string> {
  const names = options.names ?? (await listNames(target));
  const endpoints: Record<string, unknown>[] = [];
  for (const name of names) {
    const state = await readState(target, name);
    if (!state.record && state.routes.length === 0 && state.queue.length === 0) continue;
    endpoints.push(stateEntry(state));
  }
  return `${stringifyExact({ version: MOCK_FILE_VERSION, endpoints }, 2)}\n`;
}

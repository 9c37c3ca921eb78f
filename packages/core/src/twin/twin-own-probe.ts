/**
 * The provider's own flows (twin-own.ts) asked what they hold, changing nothing: their records'
 * writes kept apart for the request ({@link dryState}), so a flow answers as it would. Whether an
 * object a path names is held where the flows keep it (GitHub's branches, environments, git refs)
 * and not the collections: twin-references.ts, twin-unheld-writes.ts.
 *
 * @module
 */
import type { Twin } from './twin-context.js';
import type { FlowState, OwnRequest } from './twin-flows.js';
import type { MatchedOperation } from './twin-operation.js';
import { flowState } from './twin-state.js';

/** Thrown by a flow's change of a collection's object while it is only asked what it holds. */
const WOULD_CHANGE = new Error('a change while the flows are asked what they hold');

/**
 * The flows' state, its records' writes kept apart (read back by the same request, never stored):
 * a flow asked what it holds answers as it would, changing nothing.
 */
export function dryState(twin: Twin): FlowState {
  const state = flowState(twin);
  const kept = new Map<string, Map<string, object | undefined>>();
  return {
    ...state,
    async read<T extends object>(kind: string) {
      const records = await state.read<T>(kind);
      for (const [key, record] of kept.get(kind) ?? []) {
        if (record === undefined) records.delete(key);
        else records.set(key, record as T);
      }
      return records;
    },
    async keep(kind, key, record) {
      const records = kept.get(kind) ?? new Map<string, object | undefined>();
      records.set(key, record);
      kept.set(kind, records);
    },
    amend: () => Promise.reject(WOULD_CHANGE),
  };
}

/** Whether the provider's own flows hold the object `read` reads: they answer it, changing nothing, not refuse it. */
export async function ownHolds(twin: Twin, read: MatchedOperation): Promise<boolean> {
  const own = twin.parts.flows?.own;
  if (own === undefined) return false;
  const sent: OwnRequest = {
    body: {},
    query: {},
    raw: '',
    bytes: new Uint8Array(),
    header: () => undefined,
    root: undefined,
  };
  try {
    const answer = await own(read, sent, dryState(twin));
    return answer !== undefined && !('error' in answer) && !('values' in answer);
  } catch {
    return false;
  }
}

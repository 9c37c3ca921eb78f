/**
 * The queue methods of the client: one-shot answers queued for a name.
 *
 * @module
 */
import type { QueuedAnswer, QueuedAnswerInput } from '../api/answer-json.js';
import { seg, type Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function queueMethods({ call, json }: Transport) {
  const queued = async (name: string): Promise<QueuedAnswer[]> =>
    (await json<{ answers: QueuedAnswer[] }>('GET', `/api/endpoints/${seg(name)}/queue`)).answers;
  return {
    /**
     * Queues one-shot answers for `name`: the next requests get them in order,
     * each once (`times` repeats one), before the stored record answers. Absent
     * fields fall back to the record; a `data` that is a {@link JsonText} is sent as its
     * exact text. Resolves with everything queued now.
     * @throws MockpointError `QUEUE_FULL` past the bound (nothing is queued).
     * @example await client.queue('hook', [{ statusCode: 503, times: 2 }, { fault: 'reset' }])
     */
    async queue(name: string, answers: QueuedAnswerInput[]): Promise<QueuedAnswer[]> {
      return (await json<{ answers: QueuedAnswer[] }>('POST', `/api/endpoints/${seg(name)}/queue`, { answers }))
        .answers;
    },

    /** The answers still queued for `name`, first answer first (`times` is what remains). */
    getQueue: queued,

    /** @deprecated Use {@link getQueue}: the client reads every per-name setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/api.md). */
    queued,

    /** Drops the answers queued for `name` (requests hanging on a queued `hang` are released). */
    async clearQueue(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/queue`);
    },
  };
}

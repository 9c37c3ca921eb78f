/**
 * workerd notices that a client went away only while it is sending that client
 * a body. A long-poll sends nothing until it ends, so a hung-up long-poll would
 * hold its waiter until its `wait` ran out. Here a long-poll that is still
 * waiting after a moment is answered at once with `200` and a body that starts
 * with a space every heartbeat (JSON allows leading whitespace), then the page;
 * when the client has gone, the body is cancelled and the wait released.
 *
 * @module
 */

/** `GET /api/endpoints/{name}/requests`: the only request held with a known status (200). */
const JOURNAL_READ = /^\/api\/endpoints\/[^/]+\/requests$/;
const SPACE = new Uint8Array([0x20]);

/** Resolves `undefined` after `ms`. */
function pause(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
}

/**
 * Calls `handler` with a request whose signal aborts when the client goes away:
 * when `request.signal` aborts, or when a heartbeat answer's body is cancelled.
 */
export async function answerNoticingHangUp(
  request: Request,
  handler: (request: Request) => Response | Promise<Response>,
  heartbeatMs: number,
): Promise<Response> {
  const controller = new AbortController();
  const abort = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) abort();
  else request.signal.addEventListener('abort', abort, { once: true });
  const answer = Promise.resolve(handler(new Request(request, { signal: controller.signal })));
  void answer.finally(() => request.signal.removeEventListener('abort', abort)).catch(() => undefined);

  const held = request.method === 'GET' && JOURNAL_READ.test(new URL(request.url).pathname);
  const first = held ? await Promise.race([answer, pause(heartbeatMs)]) : await answer;
  if (first !== undefined) return first;

  let timer: ReturnType<typeof setInterval> | undefined;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(stream) {
      stream.enqueue(SPACE);
      timer = setInterval(() => stream.enqueue(SPACE), heartbeatMs);
      answer.then(
        async (response) => {
          const bytes = new Uint8Array(await response.arrayBuffer());
          clearInterval(timer);
          if (cancelled) return;
          stream.enqueue(bytes);
          stream.close();
        },
        (error: unknown) => {
          clearInterval(timer);
          if (!cancelled) stream.error(error);
        },
      );
    },
    cancel(reason) {
      cancelled = true;
      clearInterval(timer);
      controller.abort(reason);
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

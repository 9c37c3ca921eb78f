/**
 * The health service's answers (`grpc.health.v1.Health`): `SERVING` for the
 * server as a whole (`""`) and for each service the daemon answers; `Check` of
 * any other is `NOT_FOUND`, and `Watch` of it sends `SERVICE_UNKNOWN`, as the
 * protocol says. `Watch` sends the status, then each change of it (looked at
 * once a second), until the client ends the call.
 *
 * @module
 */
import { Code, ConnectError } from '@connectrpc/connect';
import type { GrpcView } from './reflection.js';

/** `HealthCheckResponse.ServingStatus` values. */
export const SERVING = 1;
export const SERVICE_UNKNOWN = 3;

/** How often `Watch` looks at the status again. */
const WATCH_INTERVAL_MS = 1000;

/** `SERVING` when the daemon answers `service` (`""`: the server); `SERVICE_UNKNOWN` otherwise. */
export async function statusOf(view: GrpcView, service: string): Promise<number> {
  if (service === '') return SERVING;
  return (await view.services()).includes(service) ? SERVING : SERVICE_UNKNOWN;
}

/** `Check`: the status, or `NOT_FOUND` for a service the daemon does not answer. */
export async function check(view: GrpcView, service: string): Promise<{ status: number }> {
  const status = await statusOf(view, service);
  if (status === SERVICE_UNKNOWN) throw new ConnectError(`unknown service ${service}`, Code.NotFound);
  return { status };
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** `Watch`: the status now, then each change, until `signal` aborts. */
export async function* watch(view: GrpcView, service: string, signal: AbortSignal): AsyncGenerator<{ status: number }> {
  let last = await statusOf(view, service);
  yield { status: last };
  while (!signal.aborted) {
    await pause(WATCH_INTERVAL_MS, signal);
    if (signal.aborted) return;
    const status = await statusOf(view, service);
    if (status !== last) {
      last = status;
      yield { status };
    }
  }
}

/**
 * The one hook on this process's clients (the global `fetch`, `node:http`,
 * `node:https`) that mockpoint's features share: `intercept` (answers some
 * origins here) and test sessions (add the session header to requests to the
 * daemon). Built on `@mswjs/interceptors`, applied while at least one listener
 * is on and disposed with the last, which restores every client. One hook, not
 * one per feature: two of its interceptors at once share their patches, and
 * disposing them in the wrong order leaves the clients patched.
 *
 * @module
 */
import { BatchInterceptor, RequestController } from '@mswjs/interceptors';
import { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';

/** What a listener gets: the request (its headers may be changed) and what answers it. */
export interface HookedRequest {
  request: Request;
  controller: RequestController;
}

/** A listener: answers the request (`controller.respondWith`/`errorWith`), changes it, or leaves it. */
export type RequestHook = (hooked: HookedRequest) => void | Promise<void>;

interface Hooks {
  listeners: Set<RequestHook>;
  stop: (() => void) | undefined;
}

// On globalThis: the setup files and the test's own import of the package may be two copies of this module.
const KEY = Symbol.for('mockpoint.vitest.request-hooks');

function hooks(): Hooks {
  const holder = globalThis as { [KEY]?: Hooks };
  holder[KEY] ??= { listeners: new Set(), stop: undefined };
  return holder[KEY];
}

function start(state: Hooks): () => void {
  const interceptor = new BatchInterceptor({
    name: 'mockpoint-request-hooks',
    interceptors: [new ClientRequestInterceptor(), new FetchInterceptor()],
  });
  interceptor.apply();
  interceptor.on('request', async ({ request, controller }) => {
    // In the order they were added; the first that answers (or fails) the request ends it.
    for (const listener of [...state.listeners]) {
      await listener({ request, controller });
      if (controller.readyState !== RequestController.PENDING) return;
    }
  });
  return () => interceptor.dispose();
}

/**
 * Hooks `listener` to every outgoing request of this process, in the async
 * context of the code that made it. Returns the function that unhooks it; with
 * the last one, the clients are the original functions again.
 */
export function addRequestHook(listener: RequestHook): () => void {
  const state = hooks();
  state.listeners.add(listener);
  state.stop ??= start(state);
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    state.listeners.delete(listener);
    if (state.listeners.size > 0) return;
    const stop = state.stop;
    state.stop = undefined;
    stop?.();
  };
}

/**
 * Bedrock's event stream codec from `node_modules`, for the adapters of
 * runtimes that have it (Node, Bun, Deno): their `serve()` names it here, so
 * the Workers entry (whose bundle cannot take `@smithy/core`'s `node:`
 * imports, nor a dynamic import it cannot resolve) never refers to it.
 *
 * @module
 */
import { useEventStreamCodec } from '../answer/llm/bedrock-stream.js';

/** Lets a ConverseStream answer load the installed codec (with its first answer). */
export function useInstalledEventStreamCodec(): void {
  useEventStreamCodec(() => import('@smithy/core/event-streams'));
}

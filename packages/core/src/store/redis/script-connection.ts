/**
 * What a part of the Redis backend needs from the store's connection to run
 * its Lua scripts (see `RedisStore.openDeliveries`, `RedisStore.openCollections`):
 * the store adds its deadline and its error handling around each call.
 *
 * @module
 */

/** Runs a Lua script with its keys and arguments and resolves with Redis's reply. */
export interface ScriptConnection {
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}

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

/** The members of the set at `key`: the names a part of the Redis backend keeps anything for. */
export async function setMembers(connection: ScriptConnection, key: string): Promise<string[]> {
  const reply = await connection.eval("return redis.call('SMEMBERS', KEYS[1])", [key], []);
  return (reply as unknown[]).map(String);
}

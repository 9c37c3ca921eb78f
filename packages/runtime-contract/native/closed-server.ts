/**
 * What both native runners' test files check after a server has closed: the
 * error the client gets from its URL. Plain code, so each runner asserts on it
 * with its own test API.
 */
import { createClient } from '@mockpoint/core';
import { createMockServer } from '@mockpoint/vitest/server';

/** Starts a mock server, closes it, then calls its health check: the URL it had and what the call threw. */
export async function callClosedServer(): Promise<{ url: string; error: unknown }> {
  const mock = await createMockServer();
  const url = mock.url;
  await mock.close();
  const error = await createClient({ baseUrl: url })
    .health()
    .catch((e: unknown) => e);
  return { url, error };
}

/**
 * A small typed REST client for a users service. Every call resolves to a
 * result (never throws for HTTP answers): 200/201 → `ok`, 404 → `not-found`,
 * 5xx → `server`, no answer in time → `timeout`, a connection that fails (reset,
 * or closed partway through the body) → `network`.
 *
 * @module
 */

export interface User {
  id: number;
  name: string;
  email: string;
}

export type NewUser = Omit<User, 'id'>;

/** Why a call did not produce a value. */
export type ApiError =
  | { kind: 'not-found'; status: 404 }
  | { kind: 'server'; status: number; message: string }
  | { kind: 'unexpected'; status: number }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'network'; message: string };

export type ApiResult<T> = { ok: true; status: number; value: T } | { ok: false; error: ApiError };

/** Options for {@link createUsersClient}. */
export interface UsersClientOptions {
  /**
   * Base URL the resource paths (`users`, `user-<id>`) are resolved against; ends with `/`.
   * @example 'https://api.example.com/v1/'
   */
  baseUrl: string;
  /** Time allowed per call, in milliseconds. @default 2000 */
  timeoutMs?: number;
}

/** Creates the client. */
export function createUsersClient(options: UsersClientOptions) {
  const timeoutMs = options.timeoutMs ?? 2000;

  async function call<T>(path: string, init: RequestInit = {}): Promise<ApiResult<T>> {
    try {
      const response = await fetch(new URL(path, options.baseUrl), { ...init, signal: AbortSignal.timeout(timeoutMs) });
      // The body is read inside the try too: a connection can break after the status arrived.
      const text = await response.text();
      if (response.status === 200 || response.status === 201) {
        return { ok: true, status: response.status, value: JSON.parse(text) as T };
      }
      if (response.status === 404) return { ok: false, error: { kind: 'not-found', status: 404 } };
      if (response.status >= 500) {
        const message = (JSON.parse(text || '{}') as { message?: string }).message ?? response.statusText;
        return { ok: false, error: { kind: 'server', status: response.status, message } };
      }
      return { ok: false, error: { kind: 'unexpected', status: response.status } };
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') return { ok: false, error: { kind: 'timeout', timeoutMs } };
      return { ok: false, error: { kind: 'network', message: (error as Error).message } };
    }
  }

  return {
    /** `GET users`. */
    listUsers: () => call<User[]>('users'),
    /** `GET user-<id>`. */
    getUser: (id: number) => call<User>(`user-${id}`),
    /** `POST users`; the service answers 201 with the stored user. */
    createUser: (user: NewUser) =>
      call<User>('users', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(user),
      }),
  };
}

/** The part of `har-validator` (no types of its own) the HAR tests use: each check resolves with the data, or rejects naming what does not fit. */
declare module 'har-validator' {
  export function har(data: unknown): Promise<unknown>;
}

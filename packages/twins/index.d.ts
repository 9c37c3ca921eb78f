/** The providers shipped here. */
export declare const providers: readonly string[];
/** The document and profile of `provider`. */
export declare function load(
  provider: string,
): Promise<{ document: Record<string, unknown>; profile: Record<string, unknown> }>;

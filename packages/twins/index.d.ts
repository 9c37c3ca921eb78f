/** The providers shipped here. */
export declare const providers: readonly string[];
/** What one operation takes beyond the document: names it takes, required names it no longer needs. */
export interface Addition {
  added?: string[];
  optional?: string[];
}
/** The document and profile of `provider`, and the parameters it takes today that the document lacks. */
export declare function load(provider: string): Promise<{
  document: Record<string, unknown>;
  profile: Record<string, unknown>;
  additions?: Record<string, Addition>;
}>;

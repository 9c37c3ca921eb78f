import type { TwinProvider } from '@mockpoint/core/internal';

/** The providers shipped here, one folder each. */
export declare const providers: readonly string[];
/** What one operation takes beyond the document: names it takes, required names it no longer needs. */
export interface Addition {
  added?: string[];
  optional?: string[];
}
/** What a twin of a provider is made of. */
export interface ProviderTwin {
  document: Record<string, unknown>;
  profile: Record<string, unknown>;
  /** The parameters it takes today that the document lacks, by `METHOD /path`. */
  additions?: Record<string, Addition>;
  /** Its code: flows, trigger fixtures, words. */
  provider: TwinProvider;
}
/** The code of `provider` alone, its object (its trigger's events and fields). */
export declare function code(provider: string): Promise<TwinProvider>;
/** The document, profile, added parameters and code of `provider`. */
export declare function load(provider: string): Promise<ProviderTwin>;

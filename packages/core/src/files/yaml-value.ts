/**
 * A YAML (or JSON) text's value, read by the core's one copy of the `yaml` parser: the daemon's
 * commands (OpenAPI documents, stateful imports, verify) read theirs with it, so that an installed
 * daemon holds the parser once, in the core.
 *
 * @module
 */
import { parse } from 'yaml';

/** What {@link parseYaml} takes: `maxAliasCount` bounds alias expansion (the parser's default, 100). */
export interface ParseYamlOptions {
  maxAliasCount?: number;
}

/**
 * The value of `text`; throws the parser's error (its message's first line names the place).
 * @example parseYaml('a: [1, 2]') // { a: [1, 2] }
 */
export function parseYaml(text: string, options: ParseYamlOptions = {}): unknown {
  return parse(text, options);
}

/**
 * How far YAML aliases may expand in one mock file. The `yaml` parser's own
 * `maxAliasCount` guards only its `toJS()`; mock files are walked by our own
 * code (exact-yaml.ts keeps numbers and key order exact), so that walk carries
 * this budget: every node reached through an alias, and the text such nodes
 * resolve to, is counted, and the file is refused as soon as either passes its
 * limit (a 450-byte "billion laughs" document stops after 100,000 nodes
 * instead of expanding to a billion).
 *
 * @module
 */
import { type Alias, type Document, isAlias, type Node, visit } from 'yaml';
import { NodeError } from './node-error.js';

/** Nodes that aliases may repeat in one file (each node of each expansion counts). */
export const MAX_ALIAS_NODES = 100_000;

/** Characters of text that aliases may resolve to in one file (16 MiB). */
export const MAX_ALIAS_TEXT = 16 * 1024 * 1024;

/** An alias whose expansion passed a limit; `node` is the outermost alias being expanded. */
export class AliasLimitError extends NodeError<Alias> {
  override readonly name = 'AliasLimitError';
}

/**
 * One file's aliases: what each names (found in one pass; the parser's own
 * `Alias.resolve` walks the whole document for every alias), and the expansion
 * spent so far.
 */
export class AliasBudget {
  readonly #targets = new Map<Alias, Node | undefined>();
  #nodes = 0;
  #text = 0;

  constructor(doc: Document) {
    // The last node with the alias's anchor before it, as YAML defines it.
    const last = new Map<string, Node>();
    visit(doc, {
      Node: (_key, node) => {
        if (isAlias(node)) this.#targets.set(node, last.get(node.source));
        else if (node.anchor) last.set(node.anchor, node);
      },
    });
  }

  /**
   * The node `alias` names, `undefined` when no anchor before it has its name.
   * @throws AliasLimitError when the alias is inside the node it names (a cycle)
   */
  resolve(alias: Alias): Node | undefined {
    const target = this.#targets.get(alias);
    const at = alias.range?.[0];
    if (target?.range && at !== undefined && at >= target.range[0] && at < target.range[1]) {
      throw new AliasLimitError(alias, `the alias *${alias.source} is inside the node it names (a cycle)`);
    }
    return target;
  }

  /** Counts one node reached through `via` (nothing when it is not reached through an alias). */
  node(via: Alias | undefined): void {
    if (via === undefined) return;
    this.#nodes++;
    if (this.#nodes > MAX_ALIAS_NODES) {
      throw new AliasLimitError(
        via,
        `the alias *${via.source} expands past ${MAX_ALIAS_NODES} nodes (aliases in one file may repeat at most ${MAX_ALIAS_NODES}; a nested alias of aliases multiplies): write the repeated part out, or nest fewer levels`,
      );
    }
  }

  /** Counts `length` characters of text reached through `via`. */
  text(via: Alias | undefined, length: number): void {
    if (via === undefined) return;
    this.#text += length;
    if (this.#text > MAX_ALIAS_TEXT) {
      throw new AliasLimitError(
        via,
        `the alias *${via.source} resolves to more than ${MAX_ALIAS_TEXT} characters (aliases in one file may repeat at most ${MAX_ALIAS_TEXT}): use a $file fixture, or fewer copies`,
      );
    }
  }
}

/**
 * A YAML node (or a JSON text parsed as YAML) as exact JSON text: how a mock
 * file's `data` keeps big integers, `-0`, `1.50` and key order. Numbers are
 * kept as written (their source text), so they must be written as JSON numbers;
 * a flow collection that is valid JSON as written (`{"id": 1e400}`) is kept
 * as its own text, escapes included.
 *
 * @module
 */
import { type Alias, isAlias, isMap, isScalar, isSeq, type Node } from 'yaml';
import { JsonSyntaxError, scanJson } from '../codec/json-text.js';
import type { AliasBudget } from './alias-budget.js';
import { NodeError } from './node-error.js';

/** A value in `data` that has no JSON form, with the node at fault. */
export class NotJsonError extends NodeError {
  override readonly name = 'NotJsonError';
}

/** RFC 8259's number grammar. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The exact, minified JSON text of `node`. `source` is the document's text:
 * when the node's own text is valid JSON (a flow collection or a quoted string
 * in JSON form, or any node of a `.json` file) that text is kept. Aliases are
 * resolved through `aliases`, which counts what they expand to; `via` is the
 * outermost alias being expanded (none at the top).
 * @throws NotJsonError for a value JSON cannot hold (`0x1F`, `.inf`, a date, a non-string key)
 * @throws AliasLimitError when aliases expand past the file's budget
 */
export function exactJsonText(node: Node | null, source: string, aliases: AliasBudget, via?: Alias): string {
  if (node === null) return 'null';
  let resolved = node;
  let outer = via;
  if (isAlias(node)) {
    outer ??= node;
    const target = aliases.resolve(node);
    if (target === undefined) throw new NotJsonError(node, 'an alias that names no anchor');
    resolved = target;
  }
  aliases.node(outer);
  if (resolved.range && (isMap(resolved) || isSeq(resolved) || isScalar(resolved))) {
    const own = source.slice(resolved.range[0], resolved.range[1]);
    if (own.startsWith('{') || own.startsWith('[') || own.startsWith('"')) {
      try {
        const text = scanJson(own).text;
        aliases.text(outer, text.length);
        return text;
      } catch (error) {
        if (!(error instanceof JsonSyntaxError) || error.problem !== 'syntax') throw error;
        // YAML, not JSON, as written (a comment, a plain string, a YAML escape): built from the nodes below.
      }
    }
  }
  const text = built(resolved, source, aliases, outer);
  if (!isMap(resolved) && !isSeq(resolved)) aliases.text(outer, text.length);
  return text;
}

function built(node: Node, source: string, aliases: AliasBudget, via: Alias | undefined): string {
  if (isMap(node)) {
    const members = node.items.map((pair) => {
      const key = pair.key as Node | null;
      const keyValue = key !== null && isScalar(key) ? key.value : undefined;
      if (typeof keyValue !== 'string') {
        throw new NotJsonError(key ?? node, 'a key that is not a string (JSON object keys are strings: quote it)');
      }
      const keyText = JSON.stringify(keyValue);
      aliases.text(via, keyText.length);
      return `${keyText}:${exactJsonText(pair.value as Node | null, source, aliases, via)}`;
    });
    return `{${members.join(',')}}`;
  }
  if (isSeq(node)) {
    return `[${node.items.map((item) => exactJsonText(item as Node | null, source, aliases, via)).join(',')}]`;
  }
  if (isScalar(node)) {
    const { value } = node;
    if (value === null) return 'null';
    if (typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
    if (typeof value === 'number' || typeof value === 'bigint') {
      const text = node.source ?? String(value);
      if (JSON_NUMBER.test(text)) return text;
      throw new NotJsonError(
        node,
        `${text} is not a JSON number (write it in decimal, e.g. 31 or 1.5e3, or quote it to keep it a string)`,
      );
    }
    throw new NotJsonError(node, `a ${node.tag ?? typeof value} value has no JSON form`);
  }
  throw new NotJsonError(node, 'a value that has no JSON form');
}

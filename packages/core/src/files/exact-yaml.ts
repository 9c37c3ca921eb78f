/**
 * A YAML node (or a JSON text parsed as YAML) as exact JSON text: how a mock
 * file's `data` keeps big integers, `-0`, `1.50` and key order. Numbers are
 * kept as written (their source text), so they must be written as JSON numbers;
 * a flow collection that is valid JSON as written (`{"id": 1e400}`) is kept
 * as its own text, escapes included.
 *
 * @module
 */
import { type Document, isAlias, isMap, isScalar, isSeq, type Node } from 'yaml';
import { JsonSyntaxError, scanJson } from '../wire/json-text.js';

/** A value in `data` that has no JSON form, with the node at fault. */
export class NotJsonError extends Error {
  override readonly name = 'NotJsonError';
  readonly node: Node;
  constructor(node: Node, message: string) {
    super(message);
    this.node = node;
  }
}

/** RFC 8259's number grammar. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The exact, minified JSON text of `node`. `source` is the document's text:
 * when the node's own text is valid JSON (a flow collection or a quoted string
 * in JSON form, or any node of a `.json` file) that text is kept.
 * @throws NotJsonError for a value JSON cannot hold (`0x1F`, `.inf`, a date, a non-string key)
 */
export function exactJsonText(node: Node | null, doc: Document, source: string): string {
  if (node === null) return 'null';
  const resolved = isAlias(node) ? (node.resolve(doc) as Node | undefined) : node;
  if (resolved === undefined) throw new NotJsonError(node, 'an alias that names no anchor');
  if (resolved.range && (isMap(resolved) || isSeq(resolved) || isScalar(resolved))) {
    const own = source.slice(resolved.range[0], resolved.range[1]);
    if (own.startsWith('{') || own.startsWith('[') || own.startsWith('"')) {
      try {
        return scanJson(own).text;
      } catch (error) {
        if (!(error instanceof JsonSyntaxError) || error.problem !== 'syntax') throw error;
        // YAML, not JSON, as written (a comment, a plain string, a YAML escape): built from the nodes below.
      }
    }
  }
  return built(resolved, doc, source);
}

function built(node: Node, doc: Document, source: string): string {
  if (isMap(node)) {
    const members = node.items.map((pair) => {
      const key = pair.key as Node | null;
      const keyValue = key !== null && isScalar(key) ? key.value : undefined;
      if (typeof keyValue !== 'string') {
        throw new NotJsonError(key ?? node, 'a key that is not a string (JSON object keys are strings: quote it)');
      }
      return `${JSON.stringify(keyValue)}:${exactJsonText(pair.value as Node | null, doc, source)}`;
    });
    return `{${members.join(',')}}`;
  }
  if (isSeq(node)) return `[${node.items.map((item) => exactJsonText(item as Node | null, doc, source)).join(',')}]`;
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

/**
 * A value as YAML text for a mock file, every {@link JsonText} inside it (each
 * `data`) written as its own exact JSON text in flow form: JSON is YAML, and
 * the mock file reader keeps a flow value written as JSON as its own text, so
 * big integers, `-0`, `1.50`, escapes and key order come back byte for byte.
 * The structure around those texts is written by the `yaml` package.
 *
 * @module
 */
import { stringify } from 'yaml';
import { JsonText } from '../codec/json-text.js';

/** `value` with each JsonText replaced by `marker + index`, the texts collected in order. */
function marked(value: unknown, marker: string, texts: string[]): unknown {
  if (value instanceof JsonText) {
    texts.push(value.text);
    return `${marker}${texts.length - 1}`;
  }
  if (Array.isArray(value)) return value.map((item) => marked(item, marker, texts));
  if (typeof value === 'object' && value !== null) {
    // fromEntries keeps every own key as a key (`__proto__` included) and the order as given.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, marked(item, marker, texts)]));
  }
  return value;
}

/**
 * The YAML text of `value` (block style, two-space indent, lines never folded),
 * each JsonText as its exact minified JSON text.
 * @example stringifyYamlExact({ data: new JsonText('{"id":12345678901234567890}') }) // 'data: {"id":12345678901234567890}\n'
 */
export function stringifyYamlExact(value: unknown): string {
  const texts: string[] = [];
  // A per-call word that no string of the value holds: it is written as a plain scalar, then replaced.
  let marker: string;
  const all = JSON.stringify(value) ?? '';
  do marker = `mockpoint-exact-${Math.random().toString(36).slice(2)}-`;
  while (all.includes(marker));
  const text = stringify(marked(value, marker, texts), { lineWidth: 0, indent: 2 });
  if (texts.length === 0) return text;
  return text.replace(new RegExp(`${marker}(\\d+)`, 'g'), (_, i: string) => texts[Number(i)] as string);
}

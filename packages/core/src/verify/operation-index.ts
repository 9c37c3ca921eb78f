/**
 * The document's operation for a request as it was sent (`GET /pets/42`), not
 * as a route matches it: each path template (`/pets/{petId}`) made a matcher
 * over decoded segments, kept by segment count and first literal segment, a
 * template with more literal text tried first (OpenAPI: `/pets/mine` before
 * `/pets/{id}`). Also with one of the servers' base paths taken off.
 *
 * @module
 */
import type { TurnBudget } from '../turns/turn-budget.js';
import { type DocumentPath, isObject, type OpenApiDocument, templateShape } from './openapi-document.js';

/** A template made ready to match decoded segments with. */
interface Template {
  path: DocumentPath;
  /** Per segment: the literal text, or a regular expression and the parameter names it captures. */
  segments: ({ literal: string } | { pattern: RegExp; names: string[] })[];
  /** Characters of literal text: more is tried first. */
  weight: number;
}

/** A request's operation found: its template, path item (as written), and parameter values by the document's names. */
export interface FoundPath {
  path: DocumentPath;
  params: Record<string, string>;
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function compile(path: DocumentPath): Template {
  let weight = 0;
  const segments = path.template
    .split('/')
    .slice(1)
    .map((segment): Template['segments'][number] => {
      const pieces = segment.split(/(\{[^}]*\})/).filter((piece) => piece !== '');
      if (!pieces.some((piece) => piece.startsWith('{') && piece.endsWith('}'))) {
        const literal = decoded(segment);
        weight += literal.length;
        return { literal };
      }
      const names: string[] = [];
      let source = '';
      for (const piece of pieces) {
        if (piece.startsWith('{') && piece.endsWith('}')) {
          names.push(piece.slice(1, -1));
          source += '(.+?)';
        } else {
          const literal = decoded(piece);
          weight += literal.length;
          source += escaped(literal);
        }
      }
      return { pattern: new RegExp(`^${source}$`, 's'), names };
    });
  return { path, segments, weight };
}

/** The index's key of a template or a request: its segment count and first segment (when literal). */
function keyOf(count: number, first: string | undefined): string {
  return `${count}/${first ?? ''}`;
}

/** Templates compiled between two yields of an index built in turns. */
const FILL_STEP = 200;

/** Request paths to the document's operations. */
export class OperationIndex {
  readonly #byKey = new Map<string, Template[]>();

  constructor(doc: OpenApiDocument, fill = true) {
    this.basePaths = doc.basePaths;
    if (fill) for (const _ of this.#fill(doc));
  }

  /** An index of `doc` built a slice per event-loop turn (`budget`): 80,000 paths take about a second. */
  static async inTurns(doc: OpenApiDocument, budget: TurnBudget): Promise<OperationIndex> {
    const index = new OperationIndex(doc, false);
    for (const _ of index.#fill(doc)) await budget.pause();
    return index;
  }

  /** Compiles and files each template, yielding every {@link FILL_STEP} of them. */
  *#fill(doc: OpenApiDocument): Generator<void> {
    let filled = 0;
    for (const list of doc.paths.values()) {
      for (const path of list) {
        if (++filled % FILL_STEP === 0) yield;
        const template = compile(path);
        const first = template.segments[0];
        const key = keyOf(
          template.segments.length,
          first !== undefined && 'literal' in first ? first.literal : undefined,
        );
        const at = this.#byKey.get(key) ?? [];
        at.push(template);
        this.#byKey.set(key, at);
      }
    }
    for (const list of this.#byKey.values()) list.sort((a, b) => b.weight - a.weight);
  }

  readonly basePaths: readonly string[];

  /** The template `path` (as sent: percent-encoded) is an instance of, or `undefined`. */
  find(path: string): FoundPath | undefined {
    const own = this.#find(path);
    if (own !== undefined) return own;
    for (const base of this.basePaths) {
      if (templateShape(path).startsWith(`${base}/`)) {
        const found = this.#find(path.slice(path.split('/').slice(0, base.split('/').length).join('/').length));
        if (found !== undefined) return found;
      }
    }
    return undefined;
  }

  #find(path: string): FoundPath | undefined {
    const segments = path.split('/').slice(1).map(decoded);
    const candidates = [
      ...(this.#byKey.get(keyOf(segments.length, segments[0])) ?? []),
      ...(this.#byKey.get(keyOf(segments.length, undefined)) ?? []),
    ].sort((a, b) => b.weight - a.weight);
    for (const template of candidates) {
      const params = match(template, segments);
      if (params !== undefined) return { path: template.path, params };
    }
    return undefined;
  }
}

function match(template: Template, segments: readonly string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (const [i, segment] of template.segments.entries()) {
    const text = segments[i] ?? '';
    if ('literal' in segment) {
      if (segment.literal !== text) return undefined;
      continue;
    }
    const found = segment.pattern.exec(text);
    if (found === null) return undefined;
    segment.names.forEach((name, n) => {
      params[name] = found[n + 1] ?? '';
    });
  }
  return params;
}

/** The path item's operations' methods, upper case. */
export function methodsOf(item: unknown): string[] {
  if (!isObject(item)) return [];
  return ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
    .filter((method) => isObject(item[method]))
    .map((method) => method.toUpperCase());
}

/**
 * OpenAI's Embeddings API (`POST /v1/embeddings`), as the `openai` SDK reads
 * it: `{ object: "list", data: [{ object: "embedding", index, embedding }],
 * model, usage }`. Each vector is deterministic for its input (seeded by the
 * input's text: the same string gives the same vector on every run and for
 * every route), of unit length, `dimensions` long (the request's, else 1536, or
 * 3072 for a `…-3-large` model), as numbers or, with `encoding_format:
 * "base64"` (what the SDK asks for by default), the little-endian float32
 * bytes in base64. A request the API would refuse (no input, more than 2048
 * inputs, bad dimensions), or more than {@link MAX_EMBEDDING_VALUES} values, gets OpenAI's 400.
 *
 * @module
 */
import { toBase64 } from '../../codec/base64.js';
import { seededRandom } from '../../random/seeded-random.js';
import { JSON_TYPE, type LlmParts, type LlmSource, type LlmWire, openaiHeaders } from './llm-wire.js';

/** Most inputs in one request (OpenAI's limit). */
export const MAX_EMBEDDING_INPUTS = 2048;
/** Most dimensions (text-embedding-3-large's). */
export const MAX_EMBEDDING_DIMENSIONS = 3072;
/** The model named when neither the answer nor the request names one. */
export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';

/**
 * Most values (inputs × dimensions) in one answer: 4 MiB of JSON numbers at
 * most (9 significant digits, a sign, an exponent, a comma), 1.4 MiB of
 * base64, and a bounded time to make them.
 */
export const MAX_EMBEDDING_VALUES = 262_144;

/** The inputs' texts (a token array is one input, keyed by its JSON), or why the request is refused. */
export function embeddingInputs(input: unknown): string[] | string {
  const invalid =
    "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";
  if (input === undefined) return "'input' is a required property";
  if (typeof input === 'string') return input === '' ? invalid : [input];
  if (!Array.isArray(input) || input.length === 0 || input.length > MAX_EMBEDDING_INPUTS) return invalid;
  if (input.every((item) => typeof item === 'number' && Number.isInteger(item))) return [JSON.stringify(input)];
  const texts: string[] = [];
  for (const item of input) {
    if (typeof item === 'string' && item !== '') texts.push(item);
    else if (
      Array.isArray(item) &&
      item.length > 0 &&
      item.every((n) => typeof n === 'number' && Number.isInteger(n))
    ) {
      texts.push(JSON.stringify(item));
    } else return invalid;
  }
  return texts;
}

/** FNV-1a over the UTF-16 code units: the seed of a text's vector. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The vector of `text`: `dimensions` float32 values of unit length, the same for the same text. */
export function embeddingVector(text: string, dimensions: number): Float32Array {
  const random = seededRandom(seedOf(text));
  const values = new Float64Array(dimensions);
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    const value = random() * 2 - 1;
    values[i] = value;
    norm += value * value;
  }
  const scale = 1 / (Math.sqrt(norm) || 1);
  const vector = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) vector[i] = (values[i] as number) * scale;
  return vector;
}

/** The float32 values as JSON numbers (9 significant digits: each reads back as the same float32). */
function jsonNumbers(vector: Float32Array): string {
  let text = '[';
  for (let i = 0; i < vector.length; i++) {
    if (i > 0) text += ',';
    text += (vector[i] as number).toPrecision(9);
  }
  return `${text}]`;
}

/** The float32 values' bytes, little-endian (as OpenAI sends them, whatever this machine's order). */
function littleEndian(vector: Float32Array): Uint8Array {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i] as number, true);
  return bytes;
}

function badRequest(message: string, param: string | null, source: LlmSource): LlmWire {
  return {
    kind: 'json',
    status: 400,
    headers: openaiHeaders(source, JSON_TYPE, undefined),
    body: JSON.stringify({ error: { message, type: 'invalid_request_error', param, code: null } }),
  };
}

/** What one embeddings request gets. */
export function embeddingsJson(parts: LlmParts, source: LlmSource): LlmWire {
  const { answer, request } = parts;
  const inputs = embeddingInputs(request.input);
  if (typeof inputs === 'string') return badRequest(inputs, 'input', source);
  const model = answer.model ?? request.model ?? DEFAULT_EMBEDDING_MODEL;
  const asked = request.dimensions;
  if (
    asked !== undefined &&
    (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 1 || asked > MAX_EMBEDDING_DIMENSIONS)
  ) {
    return badRequest(
      `Invalid value for 'dimensions': must be an integer from 1 to ${MAX_EMBEDDING_DIMENSIONS}.`,
      'dimensions',
      source,
    );
  }
  const dimensions = (asked as number | undefined) ?? (model.includes('3-large') ? 3072 : 1536);
  const base64 = request.encodingFormat === 'base64';
  const values = inputs.length * dimensions;
  if (values > MAX_EMBEDDING_VALUES) {
    return badRequest(
      `mockpoint: ${inputs.length} embeddings of ${dimensions} dimensions are ${values} values, more than ${MAX_EMBEDDING_VALUES} in one answer; ask for fewer inputs or dimensions`,
      'input',
      source,
    );
  }
  const data = inputs.map((text, index) => {
    const vector = embeddingVector(text, dimensions);
    const embedding = base64 ? `"${toBase64(littleEndian(vector))}"` : jsonNumbers(vector);
    return `{"object":"embedding","index":${index},"embedding":${embedding}}`;
  });
  const tokens =
    answer.usage?.inputTokens ?? inputs.reduce((sum, text) => sum + Math.max(1, Math.ceil(text.length / 4)), 0);
  const tail = JSON.stringify({ model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  return {
    kind: 'json',
    status: 200,
    headers: openaiHeaders(source, JSON_TYPE, undefined),
    body: `{"object":"list","data":[${data.join(',')}],${tail.slice(1)}`,
  };
}

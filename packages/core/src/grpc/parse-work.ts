/**
 * A bound on what parsing `.proto` sources costs, counted before they are
 * parsed. protobufjs's parser adds each field to its message by rebuilding the
 * message's field table (its cost grows with the square of the message's
 * fields: 4,000 fields took 3.4 s, 12,000 26 s, 60,000 minutes), and checks
 * each field and enum value against every `reserved` range. The sources are
 * tokenized (linear) and, per message, fields² + fields × reserved ranges
 * counted (per enum, values × reserved ranges); past {@link MAX_PARSE_WORK}
 * they are refused with `GRPC_DEFINITIONS_TOO_COMPLEX` before any parse.
 *
 * @module
 */
import protobuf from 'protobufjs';
import { MockpointError } from '../wire/errors.js';

/**
 * The most parse work one set of sources may take: a message of 4,000 fields
 * (about a second of protobufjs's parse), or many smaller messages (1,000
 * messages of 100 fields take a tenth of it).
 */
export const MAX_PARSE_WORK = 16_000_000;

type Kind = 'message' | 'oneof' | 'enum' | 'other';

interface Block {
  kind: Kind;
  /** Fields (or enum values) declared directly in it (a oneof's count for its message). */
  members: number;
  reserved: number;
}

/** What parsing `source` would cost (see the module), and the most fields one message has. */
export function parseWork(source: string): { work: number; widest: number } {
  let work = 0;
  let widest = 0;
  const stack: Block[] = [];
  let next: Kind | undefined;
  let inReserved = false;
  let tokens: ReturnType<typeof protobuf.tokenize>;
  try {
    tokens = protobuf.tokenize(source, false);
    for (let token = tokens.next(); token !== null; token = tokens.next()) {
      const top = stack.at(-1);
      if (token === 'message' || token === 'group') next = 'message';
      else if (token === 'oneof') next = 'oneof';
      else if (token === 'enum') next = 'enum';
      else if (token === '{') {
        stack.push({ kind: next ?? 'other', members: 0, reserved: 0 });
        next = undefined;
      } else if (token === '}') {
        const done = stack.pop();
        if (done?.kind === 'message') {
          work += done.members * done.members + done.members * done.reserved;
          widest = Math.max(widest, done.members);
        } else if (done?.kind === 'enum') work += done.members * done.reserved;
      } else if (token === ';') {
        next = undefined;
        inReserved = false;
      } else if (token === 'reserved' && top !== undefined) {
        inReserved = true;
        top.reserved++;
      } else if (token === ',' && inReserved && top !== undefined) top.reserved++;
      else if (token === '=' && top !== undefined) {
        const owner = top.kind === 'oneof' ? stack.at(-2) : top;
        if (owner !== undefined && (owner.kind === 'message' || owner.kind === 'enum')) owner.members++;
      }
    }
  } catch {
    // Not tokens (an unterminated string): the parse itself refuses it, at once.
  }
  return { work, widest };
}

/** Throws `GRPC_DEFINITIONS_TOO_COMPLEX` when parsing `files` would take more than {@link MAX_PARSE_WORK}. */
export function checkParseWork(files: Record<string, string>): void {
  let work = 0;
  let widest = 0;
  for (const source of Object.values(files)) {
    const one = parseWork(source);
    work += one.work;
    widest = Math.max(widest, one.widest);
  }
  if (work <= MAX_PARSE_WORK) return;
  throw new MockpointError(
    'GRPC_DEFINITIONS_TOO_COMPLEX',
    `the .proto sources would take too long to parse: ${work} steps (each message's fields squared, and its fields times its reserved ranges), more than ${MAX_PARSE_WORK} (a message of 4,000 fields); the widest message has ${widest} fields. Split large messages, or send a descriptor set (protoc --include_imports -o / buf build -o), which needs no parsing`,
    { details: { work, widest } },
  );
}

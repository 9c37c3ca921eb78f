/**
 * A bound on what parsing `.proto` sources costs, counted before they are
 * parsed. protobufjs's parser adds each field to its message by rebuilding the
 * message's field table (its cost grows with the square of the message's
 * fields: 4,000 fields took 3.4 s, 12,000 26 s, 60,000 minutes), and checks
 * each field and enum value against every `reserved` range. The sources are
 * tokenized (linear) and, per message, fields² + fields × reserved ranges
 * counted (per enum, values × reserved ranges). A field of an `extend B`
 * block is added to `B` the same way (`tryHandleExtension` → `Type.add`), so it
 * counts as one of `B`'s fields: `B`'s own fields plus those of every `extend`
 * of it, in any source, squared (the target is matched by its last dotted
 * segment: over-counting is safe, under-counting not). A oneof's fields and a
 * `group`'s field count for their message, a group's own fields for the
 * group's message. Past {@link MAX_PARSE_WORK}
 * they are refused with `GRPC_DEFINITIONS_TOO_COMPLEX` before any parse.
 *
 * @module
 */
import protobuf from 'protobufjs';
import { MockpointError } from '../registry/errors.js';

/**
 * The most parse work one set of sources may take: a message of 4,000 fields
 * (about a second of protobufjs's parse), or many smaller messages (1,000
 * messages of 100 fields take a tenth of it).
 */
export const MAX_PARSE_WORK = 16_000_000;

type Kind = 'message' | 'oneof' | 'enum' | 'extend' | 'other';

interface Block {
  kind: Kind;
  /** Its name: a message's, or the type an `extend` block extends (its last dotted segment). */
  name?: string;
  /** Fields (or enum values) declared directly in it (a oneof's count for its message). */
  members: number;
  reserved: number;
}

/** What one source declares: its messages' and enums' own work, and the sizes extensions add to. */
interface SourceCount {
  work: number;
  widest: number;
  /** Per message name (its last segment): the most own fields and reserved ranges a message of that name has. */
  messages: Map<string, { fields: number; reserved: number }>;
  /** Per extended type's name (its last segment): the fields its `extend` blocks declare. */
  extensions: Map<string, number>;
}

/** A name's last dotted segment (`.a.b.B` → `B`): extends resolve loosely, over-counting rather than under. */
function lastSegment(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

/** Whether a token can be a message's or an extended type's name. */
function isName(token: string): boolean {
  return /^[A-Za-z_.]/.test(token);
}

/** A block closed: its work, or its size remembered for the extensions of its name. */
function close(done: Block | undefined, count: SourceCount): void {
  if (done?.kind === 'message') {
    count.work += done.members * done.members + done.members * done.reserved;
    count.widest = Math.max(count.widest, done.members);
    if (done.name === undefined) return;
    const seen = count.messages.get(done.name);
    count.messages.set(done.name, {
      fields: Math.max(seen?.fields ?? 0, done.members),
      reserved: Math.max(seen?.reserved ?? 0, done.reserved),
    });
  } else if (done?.kind === 'enum') count.work += done.members * done.reserved;
  else if (done?.kind === 'extend' && done.name !== undefined)
    count.extensions.set(done.name, (count.extensions.get(done.name) ?? 0) + done.members);
}

/** One source's messages, enums and `extend` blocks, counted from its tokens. */
function countSource(source: string): SourceCount {
  const count: SourceCount = { work: 0, widest: 0, messages: new Map(), extensions: new Map() };
  const stack: Block[] = [];
  let next: Kind | undefined;
  let name: string | undefined;
  let inReserved = false;
  try {
    const tokens = protobuf.tokenize(source, false);
    for (let token = tokens.next(); token !== null; token = tokens.next()) {
      const top = stack.at(-1);
      if (token === 'message' || token === 'group') next = 'message';
      else if (token === 'oneof') next = 'oneof';
      else if (token === 'enum') next = 'enum';
      else if (token === 'extend') next = 'extend';
      else if (token === '{') {
        stack.push({ kind: next ?? 'other', name, members: 0, reserved: 0 });
        next = undefined;
        name = undefined;
      } else if (token === '}') close(stack.pop(), count);
      else if (token === ';') {
        next = undefined;
        name = undefined;
        inReserved = false;
      } else if (token === 'reserved' && top !== undefined) {
        inReserved = true;
        top.reserved++;
      } else if (token === ',' && inReserved && top !== undefined) top.reserved++;
      else if (token === '=' && top !== undefined) {
        const owner = top.kind === 'oneof' ? stack.at(-2) : top;
        if (owner !== undefined && ['message', 'enum', 'extend'].includes(owner.kind)) owner.members++;
      } else if ((next === 'message' || next === 'extend') && name === undefined && isName(token))
        name = lastSegment(token);
    }
  } catch {
    // Not tokens (an unterminated string): the parse itself refuses it, at once.
  }
  return count;
}

/**
 * The work of `sources` together: each message's own, and for each type extended, its fields with all
 * the fields its `extend` blocks (in any of the sources) add to it, squared, and times its reserved
 * ranges (protobufjs adds each extension field to the type it extends, rebuilding its field table).
 */
function sourcesWork(sources: readonly string[]): { work: number; widest: number } {
  let work = 0;
  let widest = 0;
  const messages = new Map<string, { fields: number; reserved: number }>();
  const extensions = new Map<string, number>();
  for (const source of sources) {
    const one = countSource(source);
    work += one.work;
    widest = Math.max(widest, one.widest);
    for (const [name, size] of one.messages) {
      const seen = messages.get(name);
      messages.set(name, {
        fields: Math.max(seen?.fields ?? 0, size.fields),
        reserved: Math.max(seen?.reserved ?? 0, size.reserved),
      });
    }
    for (const [name, fields] of one.extensions) extensions.set(name, (extensions.get(name) ?? 0) + fields);
  }
  for (const [name, added] of extensions) {
    const own = messages.get(name) ?? { fields: 0, reserved: 0 };
    const all = own.fields + added;
    // The target's own work is counted already; the extension fields add the rest of the square.
    work += all * all - own.fields * own.fields + added * own.reserved;
    widest = Math.max(widest, all);
  }
  return { work, widest };
}

/** What parsing `source` would cost (see the module), and the most fields one message has. */
export function parseWork(source: string): { work: number; widest: number } {
  return sourcesWork([source]);
}

/** Throws `GRPC_DEFINITIONS_TOO_COMPLEX` when parsing `files` would take more than {@link MAX_PARSE_WORK}. */
export function checkParseWork(files: Record<string, string>): void {
  const { work, widest } = sourcesWork(Object.values(files));
  if (work <= MAX_PARSE_WORK) return;
  throw new MockpointError(
    'GRPC_DEFINITIONS_TOO_COMPLEX',
    `the .proto sources would take too long to parse: ${work} steps (each message's fields, with those its extend blocks add, squared, and its fields times its reserved ranges), more than ${MAX_PARSE_WORK} (a message of 4,000 fields); the widest message has ${widest} fields. Split large messages, or send a descriptor set (protoc --include_imports -o / buf build -o), which needs no parsing`,
    { details: { work, widest } },
  );
}

/**
 * A verify report's findings and notes as they are found, capped (the rest
 * counted): shared by the route check (verify-routes.ts), the journal check
 * (journal-requests.ts) and the live replay (live-replay.ts).
 *
 * @module
 */
import type { VerifyEntry, VerifyFinding, VerifyFindingCode, VerifyNote } from '../api/verify-json.js';

/** Characters of a value a finding quotes at most. */
const MAX_SHOWN = 200;

/** A value as a finding quotes it: its JSON (a string in quotes), cut short. */
export function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

/** Where a finding points: the endpoint, the route (or recorded request), and its `METHOD /path`. */
export interface At {
  endpoint: string;
  route?: { id: string; index: number };
  entry?: VerifyEntry;
  operation: string;
}

/** Who a finding or note is about, as its message names it. */
function whose(at: { route?: { id: string }; entry?: VerifyEntry }): string {
  if (at.entry !== undefined) return `journal #${at.entry.id} at ${at.entry.receivedAt}`;
  return at.route === undefined ? 'no route' : `route ${at.route.id}`;
}

/** The report being built, counting past the cap. */
export class Collector {
  readonly findings: VerifyFinding[] = [];
  readonly notes: VerifyNote[] = [];
  moreFindings = 0;
  moreNotes = 0;
  constructor(readonly max: number) {}

  /** A finding; its message ends in `says` when given (a schema finding's sentence), else in what was expected and found. */
  finding(at: At, code: VerifyFindingCode, path: string, expected: string, found: string, says?: string): void {
    if (this.findings.length >= this.max) {
      this.moreFindings++;
      return;
    }
    const message = `${at.operation} (${whose(at)}): ${code} at ${path}: ${says ?? `expected ${expected}, found ${found}`}`;
    this.findings.push({
      code,
      endpoint: at.endpoint,
      ...(at.route === undefined ? {} : { route: at.route }),
      ...(at.entry === undefined ? {} : { entry: at.entry }),
      operation: at.operation,
      path,
      expected,
      found,
      message,
    });
  }

  note(at: { endpoint: string; route?: { id: string; index: number }; entry?: VerifyEntry }, note: string): void {
    if (this.notes.length >= this.max) {
      this.moreNotes++;
      return;
    }
    this.notes.push({
      endpoint: at.endpoint,
      ...(at.route === undefined ? {} : { route: at.route }),
      ...(at.entry === undefined ? {} : { entry: at.entry }),
      note,
    });
  }

  /** Whether nothing drifted (no finding, none past the cap). */
  get ok(): boolean {
    return this.findings.length === 0 && this.moreFindings === 0;
  }
}

/**
 * `mockpoint verify`'s live-API flags made the `upstream` of a verify request:
 * `--upstream URL`, `--ignore PATH` and `--header 'name: value'` (both
 * repeatable), `--har FILE`, `--concurrency N`, `--timeout MS`, `--total MS`.
 * The daemon (or, with `--config`, this process) checks the values themselves
 * (`INVALID_VERIFY_UPSTREAM`); here only what a flag's text must be.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { VerifyUpstream } from '@mockpoint/core';
import { type ParsedArgs, UsageError } from '../command-args.js';

/** The flags this module reads, for parseArgs. */
export const UPSTREAM_VALUES = ['--upstream', '--har', '--concurrency', '--timeout', '--total'] as const;
export const UPSTREAM_REPEATED = ['--ignore', '--header'] as const;

function whole(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text)) throw new UsageError(`${flag} takes a whole number; received ${text}`);
  return Number(text);
}

/** `name: value` lines as a record (a name given twice: the last). */
function headersOf(lines: readonly string[]): Record<string, string> | undefined {
  if (lines.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header takes 'name: value'; received ${line}`);
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}

async function harOf(file: string | undefined): Promise<unknown> {
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--har ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--har ${file}: is not JSON (a HAR file is)`);
  }
}

/** The `upstream` the flags ask for; `undefined` without `--upstream` (the other flags then refused). */
export async function upstreamOf(args: ParsedArgs): Promise<VerifyUpstream | undefined> {
  const url = args.values.get('--upstream');
  if (url === undefined) {
    const stray = [...UPSTREAM_VALUES, ...UPSTREAM_REPEATED].find(
      (flag) => args.values.has(flag) || args.lists.has(flag),
    );
    if (stray === undefined && args.switches.has('--unsafe')) throw new UsageError('--unsafe is for --upstream');
    if (stray !== undefined) throw new UsageError(`${stray} is for --upstream: give the live API's URL with it`);
    return undefined;
  }
  const upstream: VerifyUpstream = { url };
  const ignore = args.lists.get('--ignore');
  if (ignore !== undefined) upstream.ignore = ignore;
  const headers = headersOf(args.lists.get('--header') ?? []);
  if (headers !== undefined) upstream.headers = headers;
  if (args.switches.has('--unsafe')) upstream.unsafe = true;
  const har = await harOf(args.values.get('--har'));
  if (har !== undefined) upstream.har = har;
  const concurrency = whole('--concurrency', args.values.get('--concurrency'));
  if (concurrency !== undefined) upstream.concurrency = concurrency;
  const timeoutMs = whole('--timeout', args.values.get('--timeout'));
  if (timeoutMs !== undefined) upstream.timeoutMs = timeoutMs;
  const totalMs = whole('--total', args.values.get('--total'));
  if (totalMs !== undefined) upstream.totalMs = totalMs;
  return upstream;
}

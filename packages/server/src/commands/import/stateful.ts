/**
 * `mockpoint import doc.yaml --stateful --name <name> [--profile profile.json] [--unseen examples]`
 * (docs/twins.md): the document made a stateful twin rather than a route per
 * operation — written as the twin setting (`{ document, profile }`, what
 * `PUT /api/endpoints/{name}/twin` takes), or with `--apply` put on a running
 * daemon. The document is read as it is (YAML or JSON); its local `$ref`s stay
 * for the twin to follow.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { parseYaml } from '@mockpoint/core/files';
import { UsageError } from '../command-args.js';

/**
 * The twin setting of the document at `path`, with the profile at `profilePath` (or the defaults)
 * and what an id or list the twin never made answers (`unseen`; the setting's default when absent).
 */
export function statefulSetting(
  path: string,
  profilePath: string | undefined,
  unseen?: 'missing' | 'examples',
): string {
  const read = (file: string, what: string): unknown => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(
        `${file}: cannot read the ${what}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`,
      );
    }
    try {
      return parseYaml(text, { maxAliasCount: 1000 });
    } catch (error) {
      throw new UsageError(`${file}: the ${what} is not YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
    }
  };
  const document = read(path, 'OpenAPI document');
  if (
    typeof document !== 'object' ||
    document === null ||
    typeof (document as { paths?: unknown }).paths !== 'object'
  ) {
    throw new UsageError(`${path}: not an OpenAPI document (no paths)`);
  }
  const profile = profilePath === undefined ? undefined : read(profilePath, 'profile');
  return `${JSON.stringify({
    document,
    ...(profile === undefined ? {} : { profile }),
    ...(unseen === undefined ? {} : { unseen }),
  })}\n`;
}

/** Puts `setting` as the twin of `name` on the daemon at `target`; the daemon's answer (JSON) or its refusal. */
export async function applyTwin(
  setting: string,
  name: string,
  target: { url: string; token?: string },
): Promise<{ ok: boolean; text: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
  const url = `${target.url.replace(/\/$/, '')}/api/endpoints/${encodeURIComponent(name)}/twin`;
  let response: Response;
  try {
    response = await fetch(url, { method: 'PUT', headers, body: setting });
  } catch (error) {
    throw new UsageError(`cannot reach the daemon at ${target.url}: ${(error as Error).message}`);
  }
  return { ok: response.ok, text: await response.text() };
}

/**
 * A twin setting file: what `mockpoint import doc.yaml --stateful --out twin.json` writes
 * (`{ "document", "profile" }`, or `{ "provider": "stripe" }`: what `PUT
 * /api/endpoints/{name}/twin` takes, docs/twins.md) read as the mock file of one endpoint
 * holding that twin, as `import --stateful --apply` puts it. Told apart from a json-server
 * database (an object of objects too) by its keys and by the document being OpenAPI.
 *
 * @module
 */

import { JsonSyntaxError, scanCheckedJson, scanJson } from '../codec/json-text.js';
import { MOCK_FILE_VERSION } from './mock-file-schema.js';

/** The members a twin setting takes (twin/twin-setting.ts). */
export const TWIN_KEYS: ReadonlySet<string> = new Set(['provider', 'document', 'profile', 'unseen']);

/** Members an OpenAPI (or Swagger) document has and a json-server resource has not. */
const OPENAPI_KEYS = ['openapi', 'swagger', 'paths'];

/**
 * Whether `text` is a twin setting as JSON: an object of the setting's members only, with a
 * provider's name or an OpenAPI document (one with `openapi`, `swagger` or `paths`).
 */
export function isTwinSettingText(text: string): boolean {
  let members: ReadonlyMap<string, string> | undefined;
  try {
    members = scanJson(text).members;
  } catch (error) {
    if (error instanceof JsonSyntaxError) return false;
    throw error;
  }
  if (members === undefined || members.size === 0) return false;
  for (const key of members.keys()) if (!TWIN_KEYS.has(key)) return false;
  if (members.get('provider')?.startsWith('"')) return true;
  const document = members.get('document');
  if (document === undefined || !document.startsWith('{')) return false;
  const inner = scanCheckedJson(document).members;
  return OPENAPI_KEYS.some((key) => inner?.has(key) === true);
}

/**
 * The mock file (JSON text) of the twin setting `text`: one endpoint `name` whose `twin:` is the
 * setting as written. The setting starts on the first line, so a problem in it keeps its line.
 */
export function twinSettingMockFile(text: string, name: string): string {
  const setting = text.replace(/^\uFEFF/, '');
  return `{"version":${MOCK_FILE_VERSION},"endpoints":[{"name":${JSON.stringify(name)},"twin":${setting}\n}]}\n`;
}

/**
 * The per-name setting `signature`: the signature check, secrets included (docs/signatures.md). The
 * route refuses a check a name's streams cannot take (`http/routes/signature.ts`) and shows it masked.
 *
 * @module
 */
import { MockpointError } from '../registry/errors.js';
import {
  checkSignatureInput,
  decodeSignatureSettings,
  parseSignatureInput,
  type SignatureSettings,
  signatureSchemas,
  signatureSettingsJson,
} from '../signing/signature-settings.js';
import { objectBody } from './object-body.js';
import { BODY_LIMIT, type NameSetting, type SettingGet } from './setting-declaration.js';

/**
 * The signature check of `name` with its secrets (`GET …/signature?secrets=true`, asked only
 * when the name has one: with an admin token set, only that token reads the secrets);
 * `undefined` when it has none, or the daemon is older than signature checks.
 */
async function readSignature(get: SettingGet, name: string): Promise<SignatureSettings | undefined> {
  if ((await get('signature')) === undefined) return undefined;
  let text: string | undefined;
  try {
    text = await get('signature?secrets=true');
  } catch (error) {
    if (!(error instanceof MockpointError) || error.code !== 'UNAUTHORIZED') throw error;
    throw new MockpointError(
      'UNAUTHORIZED',
      `"${name}" checks signatures, and their secrets are read with the admin token only: give it with --token or MOCKPOINT_ADMIN_TOKEN`,
      { status: 401 },
    );
  }
  if (text === undefined) return undefined;
  const secrets = (JSON.parse(text) as { secrets?: unknown[] }).secrets;
  if (!secrets?.every((secret) => typeof secret === 'string')) {
    // A daemon older than ?secrets=true answers the hints only: the secrets cannot be read back.
    throw new MockpointError(
      'UNEXPECTED_RESPONSE',
      `"${name}" checks signatures, and this daemon does not answer their secrets (GET …/signature?secrets=true): update it to export them`,
    );
  }
  return decodeSignatureSettings(text);
}

export const signatureSetting: NameSetting<SignatureSettings> = {
  key: 'signature',
  redisHash: 'signatures',
  label: 'signature check',
  encode: signatureSettingsJson,
  decode: decodeSignatureSettings,
  limit: BODY_LIMIT,
  input: {
    schema: () => signatureSchemas().input,
    read: async (request, limits) => parseSignatureInput(await objectBody(request, limits.maxBodyBytes)),
  },
  file: {
    member: () =>
      signatureSchemas()
        .input.optional()
        .describe(
          'The signature check of requests to /endpoint/{name}, as PUT /api/endpoints/{name}/signature takes it: { scheme, secret or secrets, toleranceSec?, enforce?, hmac? } (docs/webhooks.md). The secrets are in the file in full: keep it as you keep them.',
        ),
    // A secret that does not decode is refused too.
    check: checkSignatureInput,
    read: readSignature,
    body: signatureSettingsJson,
    // The secrets as stored: a mock file is a fixture, kept like the configuration that holds them (docs/files.md).
    entry: (signature) => JSON.parse(signatureSettingsJson(signature)),
    clear: { unknown: true, olderOk: true },
  },
};

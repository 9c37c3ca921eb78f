/**
 * The signature check of one endpoint name as it crosses the wire and as stores
 * keep it: `PUT /api/endpoints/{name}/signature` takes {@link SignatureInput},
 * stores keep {@link SignatureSettings} (with the secrets) beside the record,
 * and `GET` answers {@link SignatureView}, whose secrets are masked.
 *
 * @module
 */
import { z } from 'zod';
import { onFirstUse } from '../cache/on-first-use.js';
import { type ErrorCode, MockpointError } from '../registry/errors.js';
import { HMAC_ALGORITHMS } from './hmac.js';
import { checkSigningSettings, DEFAULT_TOLERANCE_SEC, type SignatureScheme } from './signature.js';
import { signatureSchemes } from './signature-schemes.js';

/** Secrets one name may check against at once (key rotation needs two or three). */
export const MAX_SIGNATURE_SECRETS = 10;
/** Characters one secret may have. */
export const MAX_SECRET_LENGTH = 1024;
/** The largest `toleranceSec`: one day. */
export const MAX_TOLERANCE_SEC = 86_400;

/** The generic `hmac` scheme's settings, every field filled in. */
export interface HmacSettings {
  header: string;
  algorithm: keyof typeof HMAC_ALGORITHMS;
  encoding: 'hex' | 'base64';
  prefix: string;
}

/** A name's signature check as stored (never answered as it is: it holds the secrets). */
export interface SignatureSettings {
  scheme: SignatureScheme;
  /** Any of these may have signed (key rotation); at least one. */
  secrets: string[];
  /** How far (seconds) a signed timestamp may be from now, and how long the id of a scheme with a timestamp is remembered for replays. */
  toleranceSec: number;
  /** Answer `401 SIGNATURE_INVALID` to a request whose signature is not valid. */
  enforce: boolean;
  /** Only with scheme `hmac`. */
  hmac?: HmacSettings;
}

/** What `GET /api/endpoints/{name}/signature` answers: the settings with each secret masked. */
export interface SignatureView extends Omit<SignatureSettings, 'secrets'> {
  /** One hint per secret, e.g. `whsec_…Q2xk`: the last 4 characters of secrets of 16 or more, never more. */
  secrets: { hint: string }[];
}

/** The body of `PUT /api/endpoints/{name}/signature`. */
export interface SignatureInput {
  scheme: SignatureScheme;
  /** The secret; or give `secrets`. */
  secret?: string;
  /** Several secrets, any of which may sign (key rotation); or give `secret`. */
  secrets?: string[];
  /** @default 300 */
  toleranceSec?: number;
  /** @default false */
  enforce?: boolean;
  /** Required with scheme `hmac`: the header, and how the signature is written. */
  hmac?: {
    header: string;
    algorithm?: HmacSettings['algorithm'];
    encoding?: HmacSettings['encoding'];
    prefix?: string;
  };
}

/** One scheme as `GET /api/signature-schemes` lists it (and the page offers it). */
export interface SignatureSchemeView {
  /** What `scheme` names it by. */
  name: string;
  /** What it is, in a few words. */
  title: string;
  /** Its signature carries a timestamp (`toleranceSec` and `tamper: "stale"` apply). */
  timed: boolean;
  /** It takes the `hmac` settings (header, algorithm, encoding, prefix). */
  settings: boolean;
  /** What a secret looks like, when it is not just text (`whsec_<base64>`). */
  secretHint?: string;
}

/** Every registered scheme, the built-in ones first, then those of the providers loaded so far. */
export function signatureSchemeViews(): SignatureSchemeView[] {
  return signatureSchemes().map((scheme) => ({
    name: scheme.name,
    title: scheme.title,
    timed: scheme.timed,
    settings: scheme.settings !== undefined,
    ...(scheme.secretHint === undefined ? {} : { secretHint: scheme.secretHint }),
  }));
}

/** The statuses a checked request can have (see the journal entry's `signature`). */
export const SIGNATURE_STATUSES = ['valid', 'invalid', 'missing', 'stale', 'replayed'] as const;

/** One of {@link SIGNATURE_STATUSES}. */
export type SignatureCheckStatus = (typeof SIGNATURE_STATUSES)[number];

/** What the journal says of a checked request. */
export interface SignatureMark {
  scheme: SignatureScheme;
  status: SignatureCheckStatus;
  /** What was found or what differed; never a secret. */
  reason: string;
}

/** The zod schemas of the signature routes, for validation and the OpenAPI document: built on their first use (docs/performance.md, "Ready"). */
export const signatureSchemas = onFirstUse(() => {
  const secret = z.string().min(1).max(MAX_SECRET_LENGTH);
  const algorithm = z.enum(Object.keys(HMAC_ALGORITHMS) as [keyof typeof HMAC_ALGORITHMS]);
  const encoding = z.enum(['hex', 'base64']);

  return {
    input: z
      .strictObject({
        scheme: z
          .string()
          .describe(
            'A registered scheme (GET /api/signature-schemes): the generic ones, and those of the providers loaded.',
          ),
        secret: secret.optional().describe('The signing secret (standard: whsec_<base64>). Give this or secrets.'),
        secrets: z
          .array(secret)
          .min(1)
          .max(MAX_SIGNATURE_SECRETS)
          .optional()
          .describe('Several secrets, any of which may sign (key rotation). Give this or secret.'),
        toleranceSec: z
          .number()
          .int()
          .min(0)
          .max(MAX_TOLERANCE_SEC)
          .optional()
          .describe(
            'Seconds a signed timestamp may be from now (either way); also how long ids are remembered. Default 300.',
          ),
        enforce: z
          .boolean()
          .optional()
          .describe(
            'Answer 401 SIGNATURE_INVALID to requests whose signature is not valid (they are still journaled). Default false.',
          ),
        hmac: z
          .strictObject({
            header: z.string().min(1).max(256).describe('The header carrying the signature, e.g. X-Signature.'),
            algorithm: algorithm.optional().describe('Default sha256.'),
            encoding: encoding.optional().describe('Default hex.'),
            prefix: z.string().max(64).optional().describe('Text before the signature, e.g. sha256=. Default none.'),
          })
          .optional()
          .describe('Only with scheme hmac (and required there).'),
      })
      .describe('How requests to /endpoint/{name} are checked.'),
    view: z
      .object({
        scheme: z.string(),
        secrets: z.array(z.object({ hint: z.string() })).describe('Each secret masked: never answered in full.'),
        toleranceSec: z.number().int(),
        enforce: z.boolean(),
        hmac: z.object({ header: z.string(), algorithm, encoding, prefix: z.string() }).optional(),
      })
      .describe('The signature check of this name; secrets masked.'),
    schemes: z
      .array(
        z.object({
          name: z.string(),
          title: z.string(),
          timed: z.boolean().describe('Its signature carries a timestamp: toleranceSec and tamper stale apply.'),
          settings: z.boolean().describe('It takes the hmac settings.'),
          secretHint: z.string().optional().describe('What a secret looks like, when it is not just text.'),
        }),
      )
      .describe('The signature schemes: the generic ones, then those of the providers loaded so far.'),
    mark: z
      .object({
        scheme: z.string(),
        status: z.enum(SIGNATURE_STATUSES),
        reason: z.string().describe('What was found or what differed; never a secret.'),
      })
      .describe('Present when the name checks signatures: the outcome for this request.'),
  };
});

/** The code for an invalid field of the input. */
const FIELD_CODES: Record<string, ErrorCode> = {
  scheme: 'UNKNOWN_SIGNATURE_SCHEME',
  secret: 'INVALID_SIGNATURE_SECRET',
  secrets: 'INVALID_SIGNATURE_SECRET',
};

/** The rule stated for an invalid field. */
const FIELD_RULES: Record<string, string> = {
  scheme: 'scheme must be a registered scheme (GET /api/signature-schemes)',
  secret: `secret must be a string of 1 to ${MAX_SECRET_LENGTH} characters`,
  secrets: `secrets must be a list of 1 to ${MAX_SIGNATURE_SECRETS} strings of 1 to ${MAX_SECRET_LENGTH} characters`,
  toleranceSec: `toleranceSec must be a whole number of seconds from 0 to ${MAX_TOLERANCE_SEC}`,
  enforce: 'enforce must be true or false',
  hmac: `hmac must be { header, algorithm?: ${Object.keys(HMAC_ALGORITHMS).join(' | ')}, encoding?: hex | base64, prefix? }`,
};

/**
 * Validates a `PUT …/signature` body (already parsed JSON) into the settings to
 * store, or throws a {@link MockpointError} with a specific code. Every secret
 * is tried once with the scheme, so a secret that does not decode is refused now,
 * not at the first request.
 */
export async function parseSignatureInput(body: unknown): Promise<SignatureSettings> {
  return checkSignatureInput(body);
}

/** {@link parseSignatureInput}, synchronously: the one check of a signature check, for the API and mock files. */
export function checkSignatureInput(body: unknown): SignatureSettings {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new MockpointError('INVALID_BODY', 'request body must be a JSON object: { "scheme": …, "secret": … }');
  }
  const result = signatureSchemas().input.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    if (issue?.code === 'unrecognized_keys') {
      const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      throw new MockpointError(
        'UNKNOWN_FIELD',
        `${where}unknown field(s): ${issue.keys.join(', ')}; a signature check has scheme, secret or secrets, toleranceSec, enforce and (for hmac) hmac`,
      );
    }
    const field = String(issue?.path[0] ?? '');
    throw new MockpointError(
      FIELD_CODES[field] ?? 'INVALID_SIGNATURE_OPTIONS',
      FIELD_RULES[field] ?? issue?.message ?? 'is invalid',
    );
  }
  const input = result.data;
  if ((input.secret === undefined) === (input.secrets === undefined)) {
    throw new MockpointError(
      'INVALID_SIGNATURE_SECRET',
      input.secret === undefined
        ? 'give the signing secret as secret (or several as secrets)'
        : 'give either secret or secrets, not both',
    );
  }
  if (input.scheme === 'hmac' && input.hmac === undefined) {
    throw new MockpointError(
      'INVALID_SIGNATURE_OPTIONS',
      'the hmac scheme needs hmac: { header, algorithm?, encoding?, prefix? }, e.g. { "header": "X-Signature" }',
    );
  }
  if (input.scheme !== 'hmac' && input.hmac !== undefined) {
    throw new MockpointError(
      'INVALID_SIGNATURE_OPTIONS',
      `hmac settings apply only to scheme hmac, not ${input.scheme}`,
    );
  }
  const settings: SignatureSettings = {
    scheme: input.scheme,
    secrets: input.secrets ?? [input.secret as string],
    toleranceSec: input.toleranceSec ?? DEFAULT_TOLERANCE_SEC,
    enforce: input.enforce ?? false,
  };
  if (input.hmac !== undefined) {
    settings.hmac = {
      header: input.hmac.header,
      algorithm: input.hmac.algorithm ?? 'sha256',
      encoding: input.hmac.encoding ?? 'hex',
      prefix: input.hmac.prefix ?? '',
    };
  }
  // The signing module is the one judge of a secret and of the hmac settings.
  for (const [index, each] of settings.secrets.entries()) {
    try {
      checkSigningSettings({ scheme: settings.scheme, secret: each, hmac: settings.hmac });
    } catch (error) {
      if (error instanceof MockpointError && settings.secrets.length > 1 && error.code === 'INVALID_SIGNATURE_SECRET') {
        throw new MockpointError(error.code, `secrets[${index}]: ${error.message}`);
      }
      throw error;
    }
  }
  return settings;
}

/** The stored text of settings (secrets included: for stores only). */
export function signatureSettingsJson(settings: SignatureSettings): string {
  const { scheme, secrets, toleranceSec, enforce, hmac } = settings;
  return JSON.stringify(
    hmac === undefined ? { scheme, secrets, toleranceSec, enforce } : { scheme, secrets, toleranceSec, enforce, hmac },
  );
}

/** Settings from their stored text; throws on text that is not settings (damaged storage). */
export function decodeSignatureSettings(text: string): SignatureSettings {
  const value = JSON.parse(text) as SignatureSettings;
  if (
    typeof value !== 'object' ||
    value === null ||
    // A provider's scheme is registered once its provider is loaded: any name is read back.
    typeof value.scheme !== 'string' ||
    !Array.isArray(value.secrets) ||
    value.secrets.length === 0 ||
    typeof value.toleranceSec !== 'number' ||
    typeof value.enforce !== 'boolean'
  ) {
    throw new Error('stored signature settings are damaged');
  }
  return value;
}

/** A secret as `GET` shows it: a prefix such as `whsec_`, and the last 4 characters only of a secret of 16 or more. */
export function secretHint(secret: string): string {
  const prefix = /^(whsec_|sk_|shpss_)/.exec(secret)?.[0] ?? '';
  const rest = secret.slice(prefix.length);
  return rest.length >= 16 ? `${prefix}…${rest.slice(-4)}` : `${prefix}…`;
}

/** The settings as `GET` answers them: each secret masked. */
export function signatureView(settings: SignatureSettings): SignatureView {
  const view: SignatureView = {
    scheme: settings.scheme,
    secrets: settings.secrets.map((each) => ({ hint: secretHint(each) })),
    toleranceSec: settings.toleranceSec,
    enforce: settings.enforce,
  };
  if (settings.hmac !== undefined) view.hmac = { ...settings.hmac };
  return view;
}

/**
 * `/api/endpoints/{name}/signature`: how the requests arriving at
 * `/endpoint/{name}` are checked (PUT sets it, GET shows it with the secrets
 * masked, DELETE removes it). Kept beside the record, like routes: the name's
 * record need not exist, and replacing the record leaves the check.
 *
 * @module
 */
import type { Hono } from 'hono';
import { refuseSignedStreams } from '../../engine/grpc-signature-rule.js';
import { MockpointError } from '../../registry/errors.js';
import { NAME_SETTINGS } from '../../settings/name-settings.js';
import {
  signatureSchemas,
  signatureSchemeViews,
  signatureSettingsJson,
  signatureView,
} from '../../signing/signature-settings.js';
import type { AppContext } from '../context.js';
import { pathName } from './manage.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, readDoc, STORE_ERRORS } from './responses.js';

export function registerSignatureRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'describe' | 'endpoints' | 'options' | 'schemas'>,
): void {
  const { schemas, endpoints, options } = ctx;

  // The one list of schemes (signing/signature-schemes.ts), for the page's forms and clients.
  app.get('/api/signature-schemes', (c) => c.json(signatureSchemeViews()));

  app.get('/api/endpoints/:name/signature', async (c) => {
    const name = pathName(c.req.param('name'));
    const settings = await endpoints.setting('signature', name);
    if (settings === undefined) {
      throw new MockpointError(
        'NOT_FOUND',
        `"${name}" checks no signatures; set a check with PUT /api/endpoints/${name}/signature`,
      );
    }
    // `?secrets=true`: the check as stored, secrets included, in the shape PUT takes (for `mockpoint export`;
    // with an admin token set, only for the admin token: http/auth.ts).
    if (c.req.query('secrets') === 'true') return c.json(JSON.parse(signatureSettingsJson(settings)));
    return c.json(signatureView(settings));
  });

  app.put('/api/endpoints/:name/signature', async (c) => {
    const name = pathName(c.req.param('name'));
    // Its input, read and checked by its declaration (settings/signature-setting.ts).
    const settings = await NAME_SETTINGS.signature.input.read(c.req.raw, options, schemas);
    await refuseSignedStreams(endpoints, name, settings, options);
    await endpoints.setSetting('signature', name, settings);
    return c.json(signatureView(settings));
  });

  app.delete('/api/endpoints/:name/signature', async (c) => {
    await endpoints.setSetting('signature', pathName(c.req.param('name')), undefined);
    return c.body(null, 204);
  });

  const params = {
    name: { description: 'Endpoint name (the record need not exist).', schema: schemas.name },
  };
  const refused = [REQUEST_ERRORS, BODY_ERRORS, STORE_ERRORS, ADMIN_ERRORS];
  ctx.describe?.push(
    readDoc(
      schemas,
      {
        path: '/api/signature-schemes',
        summary:
          'The signature schemes a delivery is signed with and a check reads: the generic ones, then those the providers loaded so far registered.',
        tag: 'webhooks',
      },
      { description: 'The schemes.', schema: signatureSchemas().schemes },
    ),
    readDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/signature',
        summary:
          'How requests to /endpoint/{name} are checked; each secret masked. With ?secrets=true, the check as PUT takes it, secrets in full (for mockpoint export; with an admin token set, it needs that token).',
        tag: 'webhooks',
        params,
      },
      { description: 'The check.', schema: signatureSchemas().view },
      'NOT_FOUND',
    ),
    {
      method: 'put',
      path: '/api/endpoints/{name}/signature',
      summary:
        'Check the signature of every request to /endpoint/{name} and its subpaths: each journal entry gets signature { scheme, status, reason }; with enforce, a request whose signature is not valid is answered 401 SIGNATURE_INVALID (and still journaled).',
      tag: 'webhooks',
      params,
      body: NAME_SETTINGS.signature.input.schema(schemas),
      admin: true,
      responses: {
        200: { description: 'Saved; the check with each secret masked.', schema: signatureSchemas().view },
        ...errorResponses(
          schemas,
          ...refused,
          'UNKNOWN_SIGNATURE_SCHEME',
          'INVALID_SIGNATURE_SECRET',
          'INVALID_SIGNATURE_OPTIONS',
          'SETTING_NOT_FOR_KIND',
        ),
      },
    },
    {
      method: 'delete',
      path: '/api/endpoints/{name}/signature',
      summary: 'Stop checking signatures for this name (the record and the journal stay).',
      tag: 'webhooks',
      params,
      admin: true,
      responses: { 204: { description: 'Removed (or there was none).' }, ...errorResponses(schemas, ...refused) },
    },
  );
}

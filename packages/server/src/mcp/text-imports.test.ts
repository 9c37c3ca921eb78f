import { describe, expect, it } from 'vitest';
import { FILE_TOOLS } from './file-tools.js';
import { TEXT_IMPORT_KINDS, textImporter } from './text-imports.js';

const tool = FILE_TOOLS.find(({ name }) => name === 'import_mock_file');

describe('import_mock_file: one table of the kinds it reads', () => {
  it('lists in its schema exactly the kinds the table imports', () => {
    const kind = tool?.inputSchema.properties.kind as { enum: string[] };
    expect(kind.enum).toEqual(['openapi', 'har', 'pact', 'json-server', 'graphql']);
    expect(kind.enum).toEqual(TEXT_IMPORT_KINDS);
  });

  it('has no importer for another kind, nor for an inherited member', () => {
    for (const kind of ['wiremock', 'toString', '__proto__', 'constructor', 1, undefined]) {
      expect(textImporter(kind), String(kind)).toBeUndefined();
    }
  });

  it('imports a small document of each kind as a mock file of the endpoint named', async () => {
    const documents: Record<(typeof TEXT_IMPORT_KINDS)[number], string> = {
      openapi: JSON.stringify({
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        paths: { '/pets': { get: { responses: { 200: { description: 'ok' } } } } },
      }),
      har: JSON.stringify({
        log: {
          version: '1.2',
          entries: [
            {
              request: { method: 'GET', url: 'https://api.example.com/pets', headers: [] },
              response: { status: 200, headers: [], content: { mimeType: 'application/json', text: '[]' } },
            },
          ],
        },
      }),
      pact: JSON.stringify({
        consumer: { name: 'c' },
        provider: { name: 'p' },
        interactions: [
          { description: 'pets', request: { method: 'GET', path: '/pets' }, response: { status: 200, body: [] } },
        ],
        metadata: { pactSpecification: { version: '2.0.0' } },
      }),
      'json-server': JSON.stringify({ pets: [{ id: 1 }] }),
      graphql: 'type Query { pets: [String] }',
    };
    for (const kind of TEXT_IMPORT_KINDS) {
      const imported = await (textImporter(kind) as NonNullable<ReturnType<typeof textImporter>>)(
        documents[kind],
        'pets',
      );
      const file = JSON.parse(imported.text) as { endpoints: { name: string }[] };
      expect([kind, file.endpoints.map(({ name }) => name)]).toEqual([kind, ['pets']]);
    }
  });
});

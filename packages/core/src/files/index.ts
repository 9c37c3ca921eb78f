/**
 * @mockpoint/core/files: mock endpoints kept as files (`mockpoint.yaml` /
 * `mockpoint.json`): read and check one, apply it to a daemon, export a daemon
 * into one, and the format's JSON Schema. Node only (it reads files).
 *
 * @module
 */

export type { HostMove } from '../pattern/host-mapping.js';
export { type AdminTarget, journalHar, journalPact } from './admin-calls.js';
export {
  type ApplyOptions,
  type ApplyPlan,
  applyChanges,
  applyMockFile,
  describeMove,
  describePlan,
} from './apply-mock-file.js';
export { type ExportOptions, exportMockFile } from './export-mock-file.js';
export { type HarImport, type HarImportOptions, harMockFile, isHar } from './har-mock-file.js';
export {
  isJsonServerDb,
  type JsonServerImport,
  type JsonServerImportOptions,
  jsonServerMockFile,
} from './json-server-db.js';
export type { LeftOut } from './left-out.js';
export { type LoadMockFileOptions, loadMockFile } from './load-mock-file.js';
export {
  createMockFileSchema,
  MOCK_FILE_VERSION,
  mockFileJsonSchema,
  mockFileJsonSchemaText,
} from './mock-file-schema.js';
export {
  isMockoonEnvironment,
  type MockoonImport,
  type MockoonImportOptions,
  mockoonMockFile,
} from './mockoon-environment.js';
export { type MockoonExport, mockoonEnvironment } from './mockoon-export.js';
export {
  isPact,
  type PactImport,
  type PactImportOptions,
  pactMockFile,
  pactMockFileInTurns,
} from './pact-mock-file.js';
export {
  formatPath,
  type MockFile,
  type MockFileEndpoint,
  type ParseMockFileOptions,
  parseMockFile,
} from './parse-mock-file.js';
export { parseMockFileInTurns } from './parse-mock-file-in-turns.js';
export {
  isPostmanCollection,
  type PostmanImport,
  type PostmanImportOptions,
  postmanMockFile,
} from './postman-collection.js';
export {
  ReadInsideError,
  type ReadInsideOptions,
  type ReadRefusal,
  readInside,
  realPathInside,
} from './read-inside.js';
export { type WireMockExport, wireMockMappings } from './wiremock-export.js';
export {
  isWireMock,
  type WireMockFile,
  type WireMockImport,
  type WireMockImportOptions,
  wireMockMockFile,
} from './wiremock-mock-file.js';
export { type ParseYamlOptions, parseYaml } from './yaml-value.js';

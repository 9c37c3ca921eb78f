/**
 * Google's well-known types (`google/protobuf/timestamp.proto`, …) as Buf's
 * runtime embeds them: an import of one needs no file of the user's.
 *
 * @module
 */
import type { DescFile } from '@bufbuild/protobuf';
import * as wkt from '@bufbuild/protobuf/wkt';

let byName: Map<string, DescFile> | undefined;

/** The embedded file of a well-known type's import path, or `undefined`. */
export function wellKnownFile(path: string): DescFile | undefined {
  byName ??= new Map(
    Object.entries(wkt)
      .filter(([key]) => key.startsWith('file_'))
      .map(([, file]) => [(file as DescFile).proto.name, file as DescFile]),
  );
  return byName.get(path);
}

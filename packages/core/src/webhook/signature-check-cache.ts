/**
 * The cache of signature checks by endpoint name, in front of the store (as
 * `answer/routes/route-cache.ts` is for route tables).
 *
 * @module
 */
import { BoundedNameCache } from '../cache/bounded-name-cache.js';
import type { SignatureCheck } from './signature-check.js';

/** The signature checks known here by name (`null`: none), bounded by count. */
export class SignatureCheckCache extends BoundedNameCache<SignatureCheck> {}

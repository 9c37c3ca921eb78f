/**
 * What an import or export could not carry over, one thing at a time: every
 * converter lists it this way, and `mockpoint import` prints each as
 * `mockpoint import: left out <what>: <why>` (and in `--json` output).
 *
 * @module
 */

/** One thing left out: what it is (a request, a field, a helper's name) and why. */
export interface LeftOut {
  what: string;
  why: string;
}

/**
 * The problems of a twin request's parameters (twin-body.ts reads them, twin-values.ts holds each
 * value to its schema), each naming the parameter; the engine answers them in the provider's form.
 *
 * @module
 */

/** A parameter problem, with the parameter it names. */
export class ParamProblem extends Error {
  constructor(
    message: string,
    readonly param: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * A value its schema refuses, or a required one missing: Stripe's message, the parameter
 * (`items[0][price]`), the keyword broken (`enum`, `pattern`, `minimum`, `type`, `required`, …)
 * and Stripe's code when it names one (`parameter_missing`, `parameter_invalid_integer`).
 */
export class InvalidValue extends ParamProblem {
  constructor(
    message: string,
    param: string,
    readonly keyword: string,
    code?: string,
  ) {
    super(message, param, code);
  }
}

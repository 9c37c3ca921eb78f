/**
 * A Connect unary call whose binary body is no message of the input type:
 * Connect's handler (connect-es 2.1) answers it `internal`, HTTP 500
 * (`parse binary: premature EOF`), where it answers a JSON body that is no
 * message `invalid_argument`, HTTP 400, and where connect-go, the protocol's
 * reference, answers both `invalid_argument`. A mock answering 500 to a bad
 * request reads as a crash, so this answer becomes the 400 `invalid_argument`
 * with the same message. gRPC and gRPC-Web keep `internal` in their trailers
 * (what grpc-go answers there), with HTTP 200.
 *
 * @module
 */

/** `response`, or the 400 `invalid_argument` of Connect's 500 `parse binary: …`. */
export async function parseFailureAsInvalidArgument(response: Response): Promise<Response> {
  if (response.status !== 500 || !(response.headers.get('content-type') ?? '').startsWith('application/json')) {
    return response;
  }
  let body: { code?: unknown; message?: unknown };
  try {
    body = (await response.clone().json()) as typeof body;
  } catch {
    return response;
  }
  if (body.code !== 'internal' || typeof body.message !== 'string' || !body.message.startsWith('parse binary:')) {
    return response;
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify({ code: 'invalid_argument', message: body.message }), { status: 400, headers });
}

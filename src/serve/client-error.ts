/**
 * Requests Node's HTTP parser refuses before the app sees them (a bad request line, headers
 * over the size limit, bad chunking, a request too slow to arrive) get the same error
 * envelope as everything else, written straight to the socket, then the socket closes.
 */
import { STATUS_CODES } from 'node:http';
import type { ErrorCode } from '../errors.js';

export interface ClientErrorAnswer {
  status: number;
  code: ErrorCode;
  message: string;
}

/** What to answer for a parser error code (`HPE_*`, `ERR_HTTP_REQUEST_TIMEOUT`). */
export function clientErrorFor(parserCode: string | undefined, limits: { headersTimeout: number; requestTimeout: number }): ClientErrorAnswer {
  switch (parserCode) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'too-large', message: 'The request headers are over the size limit (16 KiB).' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'too-large', message: 'The chunk extensions of the request body are over the size limit.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        code: 'invalid',
        message: `The request did not arrive in time (headers within ${limits.headersTimeout / 1000} s, the whole request within ${limits.requestTimeout / 1000} s).`,
      };
    default:
      return { status: 400, code: 'invalid', message: `The request is not well-formed HTTP/1.1 (${parserCode ?? 'parse error'}).` };
  }
}

/** The raw HTTP/1.1 response for a parser error: the JSON envelope, and the connection closes. */
export function clientErrorAnswer(parserCode: string | undefined, limits: { headersTimeout: number; requestTimeout: number }): string {
  const answer = clientErrorFor(parserCode, limits);
  const body = JSON.stringify({ error: { code: answer.code, message: answer.message, details: { parserError: parserCode ?? null } } });
  return [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

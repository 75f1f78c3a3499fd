/**
 * Requests Node's HTTP parser refuses before any handler runs (a target that is no
 * path, a bad header line, a head over 16 KB) get the API's JSON error, where Node
 * would send a bare `400 Bad Request` with no body.
 */
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

const STATUS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request head is over 16 KB; send a shorter URL or fewer headers.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request did not arrive in time.'],
};

/**
 * A CONNECT request (a proxy tunnel) goes to the server's 'connect' listener, not to
 * the request handler; without one Node drops the connection without a word. This
 * server is no proxy: 405, in the API's JSON, and the connection closed.
 */
export function answerConnect(_req: unknown, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const message = 'CONNECT is not allowed: this server is not a proxy. Read with GET or HEAD; POST to /mcp and to the WebSub hub.';
  const body = `${JSON.stringify({ error: 'method_not_allowed', message })}\n`;
  socket.end(
    `HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nContent-Type: application/json\r\nCache-Control: no-store\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // Node's own default checks the same: a response already under way on this socket cannot get another.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = STATUS[error.code ?? ''] ?? [
    400,
    'Bad Request',
    'The request is not valid HTTP/1.1: the request line needs a method, a target that is a path starting with "/" or an absolute URL, and the version.',
  ];
  const code = (error.code ?? 'bad_request').toLowerCase();
  const body = `${JSON.stringify({ error: 'bad_request', message, issues: [{ path: 'request', code, message }] })}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nCache-Control: no-store\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

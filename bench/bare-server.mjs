// The serve benchmark's floor: a bare node:http server that does the least an API must do
// for one route. It checks the Authorization header against the token the real server was
// given, reads the whole request body, and answers the bytes coursebook answered for the
// same request, with the same status, content type and a request id of the same length.
// Run as a child process, like `coursebook serve`, and prints the same listening line.
// Config (env): BARE_TOKEN, BARE_BODY_FILE, BARE_STATUS (default 200).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const expected = `Bearer ${process.env.BARE_TOKEN}`;
const body = readFileSync(process.env.BARE_BODY_FILE);
const status = Number(process.env.BARE_STATUS ?? 200);
const unauthorized = Buffer.from('{"error":{"code":"unauthorized","message":"A valid token is required."}}');

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const ok = req.headers.authorization === expected;
    res.writeHead(ok ? status : 401, {
      'content-type': 'application/json',
      'x-request-id': 'req_000000000000',
      'content-length': ok ? body.length : unauthorized.length,
    });
    res.end(ok ? body : unauthorized);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  console.log(JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${port}`, port }));
});
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});

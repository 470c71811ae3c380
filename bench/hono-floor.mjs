// The least a Hono app on @hono/node-server does for the serve benchmark's GET: check the
// header, answer the bytes (bench/instructions.mjs --floors). Config as bench/bare-server.mjs.
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const body = readFileSync(process.env.BARE_BODY_FILE);
const expected = `Bearer ${process.env.BARE_TOKEN}`;
const app = new Hono();
app.get('/api/v1/courses/:courseId/assignments', (c) => {
  if (c.req.header('authorization') !== expected) return c.json({ error: { code: 'unauthorized' } }, 401);
  return c.body(body, 200, { 'content-type': 'application/json', 'x-request-id': 'req_000000000000' });
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  console.log(JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${info.port}`, port: info.port })),
);
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections?.();
});

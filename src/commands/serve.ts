import { resolveStorePath } from '../cli/backend.js';
import { ensureParentDir } from '../cli/client.js';
import { type CommandResult, defineCommands, UsageError } from '../cli/command.js';
import { AppError } from '../errors.js';

function parseSize(text: string): number {
  const m = /^(\d+)\s*(b|kb|k|kib|mb|m|mib)?$/i.exec(text.trim());
  if (!m) throw new UsageError(`--max-body must be a size such as 1048576, 512kb or 2mb (got ${JSON.stringify(text)})`);
  const unit = (m[2] ?? 'b').toLowerCase();
  const factor = unit.startsWith('k') ? 1024 : unit.startsWith('m') ? 1024 * 1024 : 1;
  return Number(m[1]) * factor;
}

/** A flag in seconds (decimals allowed): a usage error naming the flag otherwise. */
function seconds(value: unknown, flag: string, min = 0.001): number {
  const n = Number(value);
  if (!(Number.isFinite(n) && n >= min && n <= 86_400))
    throw new UsageError(`${flag} must be a number of seconds from ${min === 0 ? 0 : 'above 0'} to 86400 (got ${JSON.stringify(value)})`);
  return n;
}

export const serveCommands = defineCommands([
  {
    name: 'serve',
    description: 'Serve the store as the HTTP JSON API (prints one JSON "listening" line on stdout when ready)',
    noClient: true,
    options: [
      { flags: '--seed <file>', description: 'a dataset file loaded before listening into an empty store (and restored by POST /api/v1/_reset)' },
      { flags: '--reseed', description: "load --seed over a store that already holds data, replacing the seed's records (revoked tokens stay revoked)" },
      { flags: '--host <host>', description: 'address to listen on', default: '127.0.0.1' },
      { flags: '--port <port>', description: 'port (0 picks a free one)', default: '8080' },
      { flags: '--port-file <file>', description: 'write the chosen port to this file' },
      { flags: '--now <iso>', description: 'fixed service clock (RFC 3339)' },
      { flags: '--deterministic', description: 'fixed clock (--now, or 2026-01-01T00:00:00Z) and sequential ids' },
      { flags: '--allow-reset', description: 'enable POST /api/v1/_reset (admin credential)' },
      { flags: '--cors <origin>', description: 'allow browser calls from this origin' },
      { flags: '--rate-limit <rate>', description: "per-user request rate (all of a user's credentials share it): N/s, N/min or off", default: '600/min' },
      { flags: '--rate-burst <n>', description: 'token bucket size (default: the smaller of N and 100)' },
      { flags: '--auth-failure-limit <rate>', description: 'failed authentications allowed per client address: N/s, N/min or off', default: '30/min' },
      { flags: '--max-body <size>', description: 'largest request body', default: '1mb' },
      { flags: '--headers-timeout <seconds>', description: 'request headers must arrive within this (slow clients get 408)', default: '10' },
      { flags: '--request-timeout <seconds>', description: 'a whole request, body included, must arrive within this', default: '60' },
      {
        flags: '--shutdown-timeout <seconds>',
        description: 'on SIGTERM/SIGINT, how long requests in flight may finish before their sockets are cut',
        default: '10',
      },
      { flags: '--jwt-secret <secret>', description: 'accept HS256 access JWTs signed with this secret (env COURSEBOOK_JWT_SECRET)' },
      { flags: '--jwks <fileOrUrl>', description: 'accept RS256/ES256 access JWTs verified with this JWKS' },
      { flags: '--jwt-issuer <iss>', description: 'required iss claim of access JWTs' },
      { flags: '--jwt-audience <aud>', description: 'required aud claim of access JWTs' },
      { flags: '--jwt-max-age <seconds>', description: 'longest access JWT lifetime accepted (exp - iat); JWTs must carry exp', default: '3600' },
      { flags: '--log <mode>', description: 'request logs on stderr: json, pretty or off', default: 'json' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new UsageError(`--port must be a whole number from 0 to 65535 (got ${JSON.stringify(opts.port)})`);
      const log = String(opts.log);
      if (!['json', 'pretty', 'off'].includes(log)) throw new UsageError('--log must be json, pretty or off');
      if (opts.now !== undefined && Number.isNaN(Date.parse(String(opts.now)))) throw new UsageError('--now must be an RFC 3339 timestamp');
      const burst = opts.rateBurst === undefined ? undefined : Number(opts.rateBurst);
      if (burst !== undefined && !(Number.isInteger(burst) && burst >= 1)) throw new UsageError('--rate-burst must be a whole number >= 1');
      const headersTimeout = seconds(opts.headersTimeout, '--headers-timeout');
      const requestTimeout = seconds(opts.requestTimeout, '--request-timeout');
      if (requestTimeout < headersTimeout) throw new UsageError('--request-timeout must be at least --headers-timeout');
      const shutdownTimeout = seconds(opts.shutdownTimeout, '--shutdown-timeout', 0);
      const jwtMaxAge = seconds(opts.jwtMaxAge, '--jwt-max-age');
      if (!Number.isInteger(jwtMaxAge)) throw new UsageError('--jwt-max-age must be a whole number of seconds');
      if (opts.reseed === true && opts.seed === undefined) throw new UsageError('--reseed needs --seed FILE');
      // The same store selection as every local command: flags, env, then the profile.
      const db = resolveStorePath(ctx.globals, ctx.env);
      ensureParentDir(db);

      const { startServer } = await import('../serve/server.js');
      const jwtSecret = (opts.jwtSecret as string | undefined) ?? ctx.env.COURSEBOOK_JWT_SECRET;
      let jwt = null;
      if (jwtSecret || opts.jwks) {
        const { createJwtVerifier } = await import('../api/jwt.js');
        jwt = await createJwtVerifier({
          secret: jwtSecret,
          jwks: opts.jwks as string | undefined,
          issuer: opts.jwtIssuer as string | undefined,
          audience: opts.jwtAudience as string | undefined,
          maxAgeSeconds: jwtMaxAge,
        });
      }
      let server: Awaited<ReturnType<typeof startServer>>;
      try {
        server = await startServer({
          db,
          seed: opts.seed === undefined ? undefined : { name: String(opts.seed), text: await ctx.readText(String(opts.seed)) },
          reseed: opts.reseed === true,
          host: String(opts.host),
          port,
          portFile: opts.portFile as string | undefined,
          now: opts.now as string | undefined,
          deterministic: opts.deterministic === true,
          allowReset: opts.allowReset === true,
          cors: opts.cors as string | undefined,
          rateLimit: String(opts.rateLimit),
          rateBurst: burst,
          authFailureLimit: String(opts.authFailureLimit),
          headersTimeoutMs: headersTimeout * 1000,
          requestTimeoutMs: requestTimeout * 1000,
          shutdownTimeoutMs: shutdownTimeout * 1000,
          maxBody: parseSize(String(opts.maxBody)),
          jwt,
          log: log as 'json',
          stderr: ctx.io.stderr,
        });
      } catch (err) {
        if (err instanceof AppError) throw err;
        if ((err as { code?: string }).code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${String(opts.host)} is already in use`);
        if ((err as Error).message?.startsWith('--rate')) throw new UsageError((err as Error).message);
        if ((err as Error).message?.startsWith('--auth-failure-limit')) throw new UsageError((err as Error).message);
        throw err;
      }
      // Handlers first: stdout to a pipe is synchronous, so a test harness can read the
      // listening line and signal us before the next statement runs.
      // A first signal stops gracefully (up to --shutdown-timeout); a second one cuts at once.
      const stopped = new Promise<void>((resolve) => {
        const unsubscribe = ctx.io.onStop(() => {
          void server.close().then(() => {
            unsubscribe();
            resolve();
          });
        });
      });
      ctx.io.stdout.write(JSON.stringify({ event: 'listening', url: server.url, port: server.port }) + '\n');
      await stopped;
      return { kind: 'none' };
    },
  },
]);

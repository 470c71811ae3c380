import { prepareStoreFile, resolveStorePath } from '../cli/backend.js';
import { type CommandResult, defineCommands, parseJsonText, UsageError } from '../cli/command.js';
import { fileError } from '../cli/error-text.js';
import { AppError } from '../errors.js';

function parseSize(text: string): number {
  const m = /^(\d+)\s*(b|kb|k|kib|mb|m|mib)?$/i.exec(text.trim());
  if (!m) throw new UsageError(`--max-body must be a size such as 1048576, 512kb or 2mb (got ${JSON.stringify(text)})`);
  const unit = (m[2] ?? 'b').toLowerCase();
  const factor = unit.startsWith('k') ? 1024 : unit.startsWith('m') ? 1024 * 1024 : 1;
  return Number(m[1]) * factor;
}

export const serveCommands = defineCommands([
  {
    name: 'serve',
    description: 'Serve the store as the HTTP JSON API (prints one JSON "listening" line on stdout when ready)',
    noClient: true,
    options: [
      { flags: '--seed <file>', description: 'a dataset file loaded before listening (and restored by POST /api/v1/_reset)' },
      { flags: '--host <host>', description: 'address to listen on', default: '127.0.0.1' },
      { flags: '--port <port>', description: 'port (0 picks a free one)', default: '8080' },
      { flags: '--port-file <file>', description: 'write the chosen port to this file' },
      { flags: '--now <iso>', description: 'fixed service clock (RFC 3339)' },
      { flags: '--deterministic', description: 'fixed clock (--now, or 2026-01-01T00:00:00Z) and sequential ids' },
      { flags: '--allow-reset', description: 'enable POST /api/v1/_reset (admin credential)' },
      { flags: '--cors <origin>', description: 'allow browser calls from this origin' },
      { flags: '--rate-limit <rate>', description: 'per-credential request rate: N/s, N/min or off', default: '600/min' },
      { flags: '--rate-burst <n>', description: 'token bucket size (default: the smaller of N and 100)' },
      { flags: '--max-body <size>', description: 'largest request body', default: '1mb' },
      { flags: '--jwt-secret <secret>', description: 'accept HS256 access JWTs signed with this secret (env COURSEBOOK_JWT_SECRET)' },
      { flags: '--jwks <fileOrUrl>', description: 'accept RS256/ES256 access JWTs verified with this JWKS' },
      { flags: '--jwt-issuer <iss>', description: 'required iss claim of access JWTs' },
      { flags: '--jwt-audience <aud>', description: 'required aud claim of access JWTs' },
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
      const seed = opts.seed === undefined ? undefined : { name: String(opts.seed), text: await ctx.readText(String(opts.seed)) };
      // The same store selection as every local command: flags, env, then the profile.
      const store = resolveStorePath(ctx.globals, ctx.env);
      prepareStoreFile(store, ctx.note);
      const db = store.path;

      const { startServer } = await import('../serve/server.js');
      const jwtSecret = (opts.jwtSecret as string | undefined) ?? ctx.env.COURSEBOOK_JWT_SECRET;
      let jwt = null;
      if (jwtSecret || opts.jwks) {
        const { createJwtVerifier } = await import('../api/jwt.js');
        const jwks = opts.jwks as string | undefined;
        // A JWKS file that cannot be read or parsed is a one-line error naming it.
        if (jwks !== undefined && !/^https?:\/\//.test(jwks)) parseJsonText(await ctx.readText(jwks), jwks);
        try {
          jwt = await createJwtVerifier({
            secret: jwtSecret,
            jwks,
            issuer: opts.jwtIssuer as string | undefined,
            audience: opts.jwtAudience as string | undefined,
          });
        } catch (err) {
          throw new UsageError(`cannot use the JWT settings: ${(err as Error).message}`);
        }
      }
      let server: Awaited<ReturnType<typeof startServer>>;
      try {
        server = await startServer({
          db,
          seed,
          host: String(opts.host),
          port,
          portFile: opts.portFile as string | undefined,
          now: opts.now as string | undefined,
          deterministic: opts.deterministic === true,
          allowReset: opts.allowReset === true,
          cors: opts.cors as string | undefined,
          rateLimit: String(opts.rateLimit),
          rateBurst: burst,
          maxBody: parseSize(String(opts.maxBody)),
          jwt,
          log: log as 'json',
          stderr: ctx.io.stderr,
        });
      } catch (err) {
        if (err instanceof AppError) throw err;
        if ((err as { code?: string }).code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${String(opts.host)} is already in use`);
        if ((err as Error).message?.startsWith('--rate')) throw new UsageError((err as Error).message);
        const portFileError = (err as { portFileError?: unknown }).portFileError;
        if (portFileError !== undefined) fileError('write', String(opts.portFile), portFileError);
        throw err;
      }
      // Handlers first: stdout to a pipe is synchronous, so a test harness can read the
      // listening line and signal us before the next statement runs.
      const stopped = new Promise<void>((resolve) => {
        const unsubscribe = ctx.io.onStop(() => {
          unsubscribe();
          void server.close().then(resolve);
        });
      });
      ctx.io.stdout.write(JSON.stringify({ event: 'listening', url: server.url, port: server.port }) + '\n');
      await stopped;
      return { kind: 'none' };
    },
  },
]);

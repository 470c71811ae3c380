import { dbPoolSize, resolveStorePath, selectedProfile } from '../cli/backend.js';
import { type CommandResult, defineCommands, parseJsonText, UsageError } from '../cli/command.js';
import { fileError } from '../cli/error-text.js';
import { AppError } from '../errors.js';
import { DEFAULT_JOURNAL_SIZE, DEFAULT_RATE_LIMIT } from '../serve/defaults.js';

function parseSize(text: string): number {
  const m = /^(\d+)\s*(b|kb|k|kib|mb|m|mib)?$/i.exec(text.trim());
  if (!m) throw new UsageError(`--max-body must be a size such as 1048576, 512kb or 2mb (got ${JSON.stringify(text)})`);
  const unit = (m[2] ?? 'b').toLowerCase();
  const factor = unit.startsWith('k') ? 1024 : unit.startsWith('m') ? 1024 * 1024 : 1;
  return Number(m[1]) * factor;
}

function wholeNumber(value: unknown, flag: string, max: number): number {
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value.trim()) || n > max)
    throw new UsageError(`${flag} must be a whole number from 0 to ${max} (got ${JSON.stringify(value)})`);
  return n;
}

/** --cors values: `*` alone, or origins such as https://app.example (scheme, host, optional port). */
function corsOrigins(values: string[]): string[] {
  const origins = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (origins.includes('*')) {
    if (origins.length > 1) throw new UsageError('--cors * allows every origin; give it alone, not with other origins');
    return ['*'];
  }
  for (const origin of origins) {
    const parsed = URL.canParse(origin) ? new URL(origin) : null;
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, ''))
      throw new UsageError(`--cors takes origins such as https://app.example or http://localhost:3000, or * (got ${JSON.stringify(origin)})`);
  }
  return origins.map((o) => o.replace(/\/$/, ''));
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
      {
        flags: '--seed <file>',
        description:
          'a dataset file loaded before listening into an empty store (and restored by POST /api/v1/_reset); --memory without one creates an admin (adminToken in the listening line)',
      },
      {
        flags: '--no-seed-cache',
        description:
          'with --memory: import --seed again instead of opening the store kept from an earlier start with the same seed and build ($COURSEBOOK_CACHE_DIR, default ~/.cache/coursebook/seeds)',
      },
      { flags: '--reseed', description: "load --seed over a store that already holds data, replacing the seed's records (revoked tokens stay revoked)" },
      { flags: '--host <host>', description: 'address to listen on', default: '127.0.0.1' },
      { flags: '--port <port>', description: 'port (0 picks a free one)', default: '8080' },
      { flags: '--port-file <file>', description: 'write the chosen port to this file' },
      { flags: '--now <iso>', description: 'fixed service clock (RFC 3339)' },
      { flags: '--deterministic', description: 'fixed clock (--now, or 2026-01-01T00:00:00Z) and sequential ids (SQLite stores only)' },
      {
        flags: '--allow-admin',
        description:
          'enable the fixture control routes (/api/v1/_admin/...: journal, faults, clock) and POST /api/v1/_reset (refused unless the store is --memory or took --seed at start)',
      },
      {
        flags: '--allow-reset',
        description:
          'enable POST /api/v1/_reset (admin credential; refused unless the store is --memory or took --seed at start); --allow-admin enables it too',
      },
      { flags: '--journal-size <n>', description: 'requests the journal keeps (with --allow-admin)', default: String(DEFAULT_JOURNAL_SIZE) },
      { flags: '--delay <ms>', description: 'delay every answer by this many milliseconds (control routes excepted)' },
      { flags: '--cors <origin...>', description: 'allow browser calls from this origin (repeat for more, or * for any)' },
      {
        flags: '--rate-limit <rate>',
        description: `per-user request rate (all of a user's credentials share it): N/s, N/min or off (default: off with --memory, else ${DEFAULT_RATE_LIMIT})`,
      },
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
      const journalSize = wholeNumber(opts.journalSize, '--journal-size', 1_000_000);
      const delayMs = opts.delay === undefined ? 0 : wholeNumber(opts.delay, '--delay', 600_000);
      const cors = opts.cors === undefined ? null : corsOrigins(opts.cors as string[]);
      // Bytes: a start from the seed cache hashes them and never needs their text.
      const seedBytes = opts.seed === undefined ? undefined : await ctx.readBytes(String(opts.seed));
      const seed = seedBytes === undefined ? undefined : { name: String(opts.seed), bytes: seedBytes, text: async () => new TextDecoder().decode(seedBytes) };
      const headersTimeout = seconds(opts.headersTimeout, '--headers-timeout');
      const requestTimeout = seconds(opts.requestTimeout, '--request-timeout');
      if (requestTimeout < headersTimeout) throw new UsageError('--request-timeout must be at least --headers-timeout');
      const shutdownTimeout = seconds(opts.shutdownTimeout, '--shutdown-timeout', 0);
      const jwtMaxAge = seconds(opts.jwtMaxAge, '--jwt-max-age');
      if (!Number.isInteger(jwtMaxAge)) throw new UsageError('--jwt-max-age must be a whole number of seconds');
      if (opts.reseed === true && opts.seed === undefined) throw new UsageError('--reseed needs --seed FILE');
      // The same store selection as every local command: flags, env, then the profile.
      const store = resolveStorePath(ctx.globals, ctx.env, (await selectedProfile(ctx.globals, ctx.env, ctx.config)).profile);
      const dbPool = dbPoolSize(ctx.globals.dbPool);
      const { prepareStore } = await import('../cli/local.js');
      const { postgres } = prepareStore(store, dbPool, ctx.note);
      if (postgres && opts.deterministic === true)
        throw new UsageError(
          '--deterministic needs a SQLite store (a file or --memory): its sequential ids belong to one process, and a PostgreSQL database is shared by every instance on it (--now fixes the clock alone)',
        );
      const db = store.path;

      const { startServer } = await import('../serve/server.js');
      const { fileSeedCache, seedCacheDir } = await import('../serve/seed-cache-files.js');
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
            maxAgeSeconds: jwtMaxAge,
          });
        } catch (err) {
          throw new UsageError(`cannot use the JWT settings: ${(err as Error).message}`);
        }
      }
      let server: Awaited<ReturnType<typeof startServer>>;
      try {
        server = await startServer({
          db,
          dbPool,
          seed,
          seedCache: opts.seedCache === false ? null : fileSeedCache(seedCacheDir(ctx.env)),
          reseed: opts.reseed === true,
          host: String(opts.host),
          port,
          portFile: opts.portFile as string | undefined,
          now: opts.now as string | undefined,
          deterministic: opts.deterministic === true,
          allowAdmin: opts.allowAdmin === true,
          allowReset: opts.allowReset === true,
          cors,
          rateLimit: opts.rateLimit as string | undefined,
          rateBurst: burst,
          authFailureLimit: String(opts.authFailureLimit),
          headersTimeoutMs: headersTimeout * 1000,
          requestTimeoutMs: requestTimeout * 1000,
          shutdownTimeoutMs: shutdownTimeout * 1000,
          maxBody: parseSize(String(opts.maxBody)),
          jwt,
          log: log as 'json',
          stderr: ctx.io.stderr,
          journalSize,
          delayMs,
        });
      } catch (err) {
        if (err instanceof AppError) throw err;
        if ((err as { code?: string }).code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${String(opts.host)} is already in use`);
        if ((err as Error).message?.startsWith('--rate')) throw new UsageError((err as Error).message);
        const portFileError = (err as { portFileError?: unknown }).portFileError;
        if (portFileError !== undefined) fileError('write', String(opts.portFile), portFileError);
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
      // An in-memory store with no seed gets a generated admin; its token is in this line.
      const listening = { event: 'listening', url: server.url, port: server.port, ...(server.adminToken ? { adminToken: server.adminToken } : {}) };
      ctx.io.stdout.write(JSON.stringify(listening) + '\n');
      await stopped;
      return { kind: 'none' };
    },
  },
]);

import { readFileSync } from 'node:fs';

/** The package's version, read once from package.json (two folders up from src/cli and dist/cli alike). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The Node.js version this process runs on. */
export const NODE_VERSION: string = process.versions.node;

import { createRequire } from 'node:module';

const requireBuiltin = createRequire(import.meta.url);

/**
 * node:crypto, loaded when first used rather than when a module that may use it loads. Node
 * compiles its crypto modules afresh in each process, about 4 ms of a CLI start, and a local
 * read needs none of it: it makes no ids, hashes no token and serves no OpenAPI document.
 * (A module already loaded is answered from Node's cache: well under a microsecond.)
 */
export const nodeCrypto = (): typeof import('node:crypto') => requireBuiltin('node:crypto');

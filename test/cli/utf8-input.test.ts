/**
 * #17: text is never stored altered. Files and standard input are read strictly as UTF-8:
 * bytes that are not UTF-8 are `invalid` (exit 3) naming the input and the first bad byte,
 * as a file that is not JSON is (fifteenth session; it was a usage error, exit 2), never
 * text with U+FFFD in it. In-process (the test Io reads files with the real strictUtf8);
 * the real binary only for standard input, which the test Io gives as text.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { strictUtf8 } from '../../src/cli/io.js';
import { runBin, runCli, tempHome } from '../helpers/cli.js';

const home = tempHome();
afterAll(() => home.cleanup());

const head = '{"coursebook":1,"users":[{"id":"u1","name":"Jos';
const latin1Dataset = Buffer.concat([Buffer.from(head), Buffer.from([0xe9]), Buffer.from('"}]}')]);
const NOT_UTF8 = `not valid UTF-8 text: byte 0xE9 at offset ${head.length} (line 1; offsets count from 0); save it as UTF-8`;

describe('strictUtf8', () => {
  it('decodes UTF-8 exactly and refuses anything else, naming the first bad byte and its line', () => {
    expect(strictUtf8(Buffer.from('José 😀'))).toBe('José 😀');
    expect(() => strictUtf8(latin1Dataset)).toThrow(NOT_UTF8);
    expect(() => strictUtf8(Buffer.from([0x61, 0x0a, 0x62, 0x0a, 0xff]))).toThrow('byte 0xFF at offset 4 (line 3;');
  });
});

describe('import', () => {
  it('a file that is not UTF-8 (Latin-1 é) is invalid (exit 3) naming it and the byte, as a file that is not JSON is; nothing is imported', async () => {
    const file = join(home.dir, 'latin1.json');
    writeFileSync(file, latin1Dataset);
    const db = join(home.dir, 'utf8.db');
    const res = await runCli(['--db', db, 'import', file], { env: home.env });
    expect(res).toEqual({ code: 3, stdout: '', stderr: `creating a new store at ${db}\nerror (invalid): ${file}: ${NOT_UTF8}\n` });
    const json = await runCli(['--db', db, '--json', 'import', file], { env: home.env });
    expect(JSON.parse(json.stderr)).toEqual({ error: { code: 'invalid', message: `${file}: ${NOT_UTF8}`, details: [{ path: file, message: NOT_UTF8 }] } });
    expect((await runCli(['--db', db, 'users', 'show', 'u1'], { env: home.env })).code).toBe(5);
    // A file that cannot be read at all is still a usage error (exit 2).
    expect(await runCli(['--db', db, 'import', join(home.dir, 'nope.json')], { env: home.env })).toMatchObject({ code: 2 });
    const good = join(home.dir, 'utf8.json');
    writeFileSync(good, '{"coursebook":1,"users":[{"id":"u1","name":"José"}]}');
    expect((await runCli(['--db', db, 'import', good], { env: home.env })).code).toBe(0);
    expect(JSON.parse((await runCli(['--db', db, '--json', 'users', 'show', 'u1'], { env: home.env })).stdout).name).toBe('José');
  });

  it('the same bytes on standard input (the real process) are invalid too', async () => {
    const res = await runBin(['--db', join(home.dir, 'utf8-stdin.db'), 'import', '-'], { env: home.env, input: latin1Dataset });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(`error (invalid): standard input: ${NOT_UTF8}\n`);
  });
});

describe('serve --seed', () => {
  it('a seed file that is not UTF-8 is invalid naming it before anything listens (its bytes are checked, not decoded)', async () => {
    const file = join(home.dir, 'latin1-seed.json');
    writeFileSync(file, latin1Dataset);
    const res = await runCli(['serve', '--memory', '--seed', file, '--port', '0'], { env: home.env });
    expect(res).toEqual({ code: 3, stdout: '', stderr: `error (invalid): ${file}: ${NOT_UTF8}\n` });
  });
});

/**
 * #17: text is never stored altered. The real binary reads files and stdin strictly as UTF-8:
 * bytes that are not UTF-8 are a usage error naming the input, not text with U+FFFD in it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { strictUtf8 } from '../../src/cli/io.js';
import { runBin, tempHome } from '../helpers/cli.js';

const home = tempHome();
afterAll(() => home.cleanup());

const latin1Dataset = Buffer.concat([Buffer.from('{"coursebook":1,"users":[{"id":"u1","name":"Jos'), Buffer.from([0xe9]), Buffer.from('"}]}')]);

describe('strictUtf8', () => {
  it('decodes UTF-8 exactly and refuses anything else', () => {
    expect(strictUtf8(Buffer.from('José 😀'))).toBe('José 😀');
    expect(() => strictUtf8(latin1Dataset)).toThrow('it is not valid UTF-8 text (save it as UTF-8)');
  });
});

describe('import', () => {
  it('a file that is not UTF-8 (Latin-1 é) exits 2 naming it, and nothing is imported', async () => {
    const file = join(home.dir, 'latin1.json');
    writeFileSync(file, latin1Dataset);
    const db = join(home.dir, 'utf8.db');
    const res = await runBin(['--db', db, 'import', file], { env: home.env });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(`creating a new store at ${db}\nerror: cannot read ${file}: it is not valid UTF-8 text (save it as UTF-8)\n`);
    const users = await runBin(['--db', db, '--json', 'users', 'list'], { env: home.env });
    expect(JSON.parse(users.stdout).map((u: { id: string }) => u.id)).not.toContain('u1');
  });

  it('the same bytes on standard input exit 2 too; the UTF-8 file imports the name exactly', async () => {
    const db = join(home.dir, 'utf8-stdin.db');
    const res = await runBin(['--db', db, 'import', '-'], { env: home.env, input: latin1Dataset });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/cannot read standard input: it is not valid UTF-8 text/);
    const good = join(home.dir, 'utf8.json');
    writeFileSync(good, '{"coursebook":1,"users":[{"id":"u1","name":"José"}]}');
    expect((await runBin(['--db', db, 'import', good], { env: home.env })).code).toBe(0);
    const users = await runBin(['--db', db, '--json', 'users', 'show', 'u1'], { env: home.env });
    expect(JSON.parse(users.stdout).name).toBe('José');
  });
});

describe('serve --seed', () => {
  it('a seed file that is not UTF-8 exits 2 naming it before anything listens (its bytes are checked, not decoded)', async () => {
    const file = join(home.dir, 'latin1-seed.json');
    writeFileSync(file, latin1Dataset);
    const res = await runBin(['serve', '--memory', '--seed', file, '--port', '0'], { env: home.env });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(`error: cannot read ${file}: it is not valid UTF-8 text (save it as UTF-8)\n`);
  });
});

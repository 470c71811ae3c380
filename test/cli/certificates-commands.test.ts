/**
 * In-process tests of the certificate commands (issue, show, list, replace, verify) in local
 * mode against the demo store: cert_0001 (code K7M2-Q9TX-4HCD) was issued to usr_s03
 * (Carmen Ruiz) for crs_data101, basis tested-out; usr_manager manages usr_s01 and usr_s02.
 * Read-only tests share a store; the tests that issue or replace have their own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliStore, storesForThisFile } from '../helpers/cli-store.js';

const MISSING_COURSE =
  "error: missing --course: give -c/--course COURSE, or set COURSEBOOK_COURSE or the profile's course (coursebook config set course COURSE)\n";

const COURSE = 'crs_data101';
const CERT_0001_ROW = 'cert_0001\tK7M2-Q9TX-4HCD\tCarmen Ruiz\tData Literacy 101\t2026-11-01T12:00:00.000Z\ttested-out\t\n';
const VALID_CURRENT = 'yes\tyes\tCarmen Ruiz\tData Literacy 101\t2026-11-01T12:00:00.000Z\n';
const CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

const newStore = storesForThisFile();

let shared: CliStore;
beforeAll(async () => {
  shared = await newStore();
});

const issue = async (s: CliStore, args: string[]): Promise<Record<string, string | null>> =>
  JSON.parse(await s.ok(['--json', 'certificates', 'issue', ...args]));

describe('certificates issue', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
  });

  it("issues a certificate with a fresh code, copying the learner's name and the course title", async () => {
    const res = await s.run(['certificates', 'issue', '--user', 'usr_s04', '--course', COURSE]);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/^cert_[a-z0-9]+\n$/);
    const fields = Object.fromEntries(
      (await s.ok(['certificates', 'show', res.stdout.trim()]))
        .trim()
        .split('\n')
        .map((l) => l.split('\t')),
    );
    expect(fields).toMatchObject({
      userId: 'usr_s04',
      learnerName: 'Dmitri Volkov',
      courseId: COURSE,
      courseTitle: 'Data Literacy 101',
      issuedAt: '2026-11-22T08:30:00.000Z',
      basis: 'completed',
      replaces: '',
    });
    expect(fields.id).toMatch(/^cert_/);
    expect(fields.code).toMatch(CODE);
    expect(await s.ok(['certificates', 'verify', fields.code!])).toBe('yes\tyes\tDmitri Volkov\tData Literacy 101\t2026-11-22T08:30:00.000Z\n');
  });

  it('an instructor may issue one for their course, with --basis tested-out', async () => {
    const res = await s.run(['--as', 'usr_instructor', '--json', 'certificates', 'issue', '--user', 'usr_s05', '--course', COURSE, '--basis', 'tested-out']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ learnerName: 'Elif Demir', basis: 'tested-out' });
  });

  it('a missing --user or --course is a usage error naming it (exit 2)', async () => {
    expect(await s.run(['certificates', 'issue', '--course', COURSE])).toMatchObject({ code: 2, stdout: '', stderr: 'error: missing --user\n' });
    expect(await s.run(['certificates', 'issue', '--user', 'usr_s04'])).toMatchObject({ code: 2, stderr: MISSING_COURSE });
  });

  it('an unknown --basis is invalid naming the field (exit 3)', async () => {
    expect(await s.run(['certificates', 'issue', '--user', 'usr_s04', '--course', COURSE, '--basis', 'honorary'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): --basis: must be one of "completed", "tested-out"\n',
    });
  });

  it('an unknown learner or course is not-found (exit 5)', async () => {
    expect(await s.run(['certificates', 'issue', '--user', 'usr_nope', '--course', COURSE])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): User "usr_nope" was not found.\n',
    });
    expect(await s.run(['certificates', 'issue', '--user', 'usr_s04', '--course', 'crs_nope'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Course "crs_nope" was not found.\n',
    });
  });

  it('a student may not issue themself a certificate (exit 4)', async () => {
    expect(await s.run(['--as', 'usr_s01', 'certificates', 'issue', '--user', 'usr_s01', '--course', COURSE])).toMatchObject({
      code: 4,
      stderr: "error (forbidden): Only the course's instructors and admins may do this.\n",
    });
  });
});

describe('certificates show', () => {
  it('shows a certificate as fields; the learner may read their own', async () => {
    const res = await shared.run(['certificates', 'show', 'cert_0001']);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout).toBe(
      'id\tcert_0001\ncode\tK7M2-Q9TX-4HCD\nuserId\tusr_s03\nlearnerName\tCarmen Ruiz\ncourseId\tcrs_data101\ncourseTitle\tData Literacy 101\n' +
        'issuedAt\t2026-11-01T12:00:00.000Z\nbasis\ttested-out\nreplaces\t\nreplacedBy\t\nreplaceReason\t\n',
    );
    expect((await shared.run(['--as', 'usr_s03', 'certificates', 'show', 'cert_0001'])).code).toBe(0);
  });

  it("the learner's manager may read it", async () => {
    const s = await newStore();
    const cert = await issue(s, ['--user', 'usr_s01', '--course', COURSE]);
    const res = await s.run(['--as', 'usr_manager', '--json', 'certificates', 'show', cert.id!]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ id: cert.id, learnerName: 'Amara Okafor' });
  });

  it('an unknown id is not-found (exit 5)', async () => {
    expect(await shared.run(['certificates', 'show', 'cert_nope'])).toMatchObject({
      code: 5,
      stdout: '',
      stderr: 'error (not-found): Certificate "cert_nope" was not found.\n',
    });
  });

  it('another student, or a manager of others, gets not-found too (exit 5)', async () => {
    expect(await shared.run(['--as', 'usr_s01', 'certificates', 'show', 'cert_0001'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Certificate "cert_0001" was not found.\n',
    });
    expect(await shared.run(['--as', 'usr_manager', 'certificates', 'show', 'cert_0001'])).toMatchObject({ code: 5 });
  });
});

describe('certificates list', () => {
  it('lists readable certificates as TSV, filtered by --user and --course', async () => {
    expect(await shared.run(['certificates', 'list'])).toMatchObject({ code: 0, stdout: CERT_0001_ROW, stderr: '' });
    expect(await shared.ok(['certificates', 'list', '--user', 'usr_s03', '--course', COURSE])).toBe(CERT_0001_ROW);
    expect(await shared.ok(['certificates', 'list', '--user', 'usr_s01'])).toBe('');
  });

  it('a student sees only their own', async () => {
    expect(await shared.ok(['--as', 'usr_s03', 'certificates', 'list'])).toBe(CERT_0001_ROW);
    expect(await shared.ok(['--as', 'usr_s01', 'certificates', 'list'])).toBe('');
  });

  it('a filter flag without its value is a usage error naming it (exit 2)', async () => {
    const res = await shared.run(['certificates', 'list', '--user']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: option '--user <userId>' argument missing\n/);
  });
});

describe('certificates replace', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
  });

  it('issues a replacement; the old one points to it and verifies as no longer current', async () => {
    const res = await s.run(['--json', 'certificates', 'replace', 'cert_0001', '--reason', 'Name corrected', '--basis', 'completed']);
    expect(res.code).toBe(0);
    const next = JSON.parse(res.stdout);
    expect(next).toMatchObject({
      replaces: 'cert_0001',
      replaceReason: 'Name corrected',
      basis: 'completed',
      learnerName: 'Carmen Ruiz',
      issuedAt: '2026-11-22T08:30:00.000Z',
    });
    expect(next.code).toMatch(CODE);
    expect(await s.ok(['certificates', 'show', 'cert_0001'])).toContain(`\nreplacedBy\t${next.id}\n`);
    expect(await s.ok(['certificates', 'verify', 'K7M2-Q9TX-4HCD'])).toBe('yes\tno\tCarmen Ruiz\tData Literacy 101\t2026-11-01T12:00:00.000Z\n');
  });

  it('replacing a replaced certificate is a conflict naming its replacement (exit 6)', async () => {
    const res = await s.run(['certificates', 'replace', 'cert_0001', '--reason', 'Again']);
    expect(res.code).toBe(6);
    expect(res.stderr).toMatch(/^error \(conflict\): Certificate cert_0001 was already replaced by cert_[a-z0-9]+\.\n$/);
  });

  it('a missing --reason exits 2; an unknown --basis exits 3; an unknown id exits 5', async () => {
    const cert = await issue(s, ['--user', 'usr_s06', '--course', COURSE]);
    expect(await s.run(['certificates', 'replace', cert.id!])).toMatchObject({ code: 2, stderr: 'error: missing --reason\n' });
    expect(await s.run(['certificates', 'replace', cert.id!, '--reason', 'x', '--basis', 'honorary'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): --basis: must be one of "completed", "tested-out"\n',
    });
    expect(await s.run(['certificates', 'replace', 'cert_nope', '--reason', 'x'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Certificate "cert_nope" was not found.\n',
    });
  });

  it('the learner may read but not replace their certificate (exit 4)', async () => {
    const cert = await issue(s, ['--user', 'usr_s07', '--course', COURSE]);
    expect(await s.run(['--as', 'usr_s07', 'certificates', 'replace', cert.id!, '--reason', 'Prettier name'])).toMatchObject({
      code: 4,
      stderr: "error (forbidden): Only the course's instructors and admins may replace a certificate.\n",
    });
  });
});

describe('certificates verify', () => {
  it('a current code is valid and current; codes read the Crockford way (any case, no hyphens)', async () => {
    expect(await shared.run(['certificates', 'verify', 'K7M2-Q9TX-4HCD'])).toMatchObject({ code: 0, stdout: VALID_CURRENT, stderr: '' });
    expect(await shared.ok(['certificates', 'verify', 'k7m2q9tx4hcd'])).toBe(VALID_CURRENT);
    expect(await shared.ok(['--as', 'usr_s01', 'certificates', 'verify', 'K7M2-Q9TX-4HCD'])).toBe(VALID_CURRENT);
  });

  it('an unknown code is not valid: the answer is printed, and the command fails as not-found (exit 5) naming the code', async () => {
    const message =
      'No certificate has the code "AAAA-BBBB-CCCC". Check it against the certificate: a code is 12 letters and digits, XXXX-XXXX-XXXX (case and hyphens do not matter).';
    expect(await shared.run(['certificates', 'verify', 'AAAA-BBBB-CCCC'])).toEqual({
      code: 5,
      stdout: 'no\tno\t\t\t\n',
      stderr: `error (not-found): ${message}\n`,
    });
    expect(await shared.run(['--json', 'certificates', 'verify', 'AAAA-BBBB-CCCC'])).toEqual({
      code: 5,
      stdout: '{"valid":false,"current":false,"certificate":null}\n',
      stderr: `${JSON.stringify({ error: { code: 'not-found', message } })}\n`,
    });
  });

  it('without a code: a usage error naming the argument (exit 2)', async () => {
    const res = await shared.run(['certificates', 'verify']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: missing required argument 'code'\n/);
  });
});

/**
 * In-process tests of the people commands (whoami, users, enrollments), API tokens and
 * reporting lines in local mode against the demo store: 29 users (usr_admin is the first
 * admin, the local actor by default), 27 enrollments in crs_data101, four demo tokens
 * (tok_demo_admin, _instructor, _reviewer, _student), and two reporting lines
 * (usr_manager -> usr_s01, usr_s02). Read-only tests share a store; writing describes
 * have their own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliStore, storesForThisFile } from '../helpers/cli-store.js';

const COURSE = 'crs_data101';
const ADMINS_ONLY = 'error (forbidden): Only admins may do this.\n';
const TOKEN_ROWS = {
  admin: 'tok_demo_admin\tdemo admin\tusr_admin\t*\t\t\n',
  student: 'tok_demo_student\tdemo student\tusr_s01\tcontent:read submissions:write gradebook:read certificates:read\t\t\n',
};

const newStore = storesForThisFile();

let shared: CliStore;
let writes: CliStore;
beforeAll(async () => {
  [shared, writes] = await Promise.all([newStore(), newStore()]);
});

describe('whoami', () => {
  it('local mode acts as the first admin, or --as another user', async () => {
    // id, name, admin, credential, scopes, then the back end (the store in use) and the profile (none here)
    expect(await shared.run(['whoami'])).toMatchObject({ code: 0, stdout: `usr_admin\tDana Admin\tyes\tlocal\t*\tlocal ${shared.db}\t\n`, stderr: '' });
    expect(await shared.ok(['--as', 'usr_s01', 'whoami'])).toBe(`usr_s01\tAmara Okafor\tno\tlocal\t*\tlocal ${shared.db}\t\n`);
    expect(JSON.parse(await shared.ok(['--json', 'whoami']))).toEqual({
      user: { id: 'usr_admin', name: 'Dana Admin', email: 'admin@demo.example', admin: true },
      scopes: ['*'],
      credential: 'local',
    });
  });

  it('an acting user who does not exist is unauthenticated (exit 4), named by the setting that gave it: --as, COURSEBOOK_AS or the profile', async () => {
    expect(await shared.run(['--as', 'usr_ghost', 'whoami'])).toMatchObject({
      code: 4,
      stdout: '',
      stderr: 'error (unauthenticated): --as names a user that does not exist in this store: "usr_ghost"\n',
    });
    const fromEnv =
      'error (unauthenticated): COURSEBOOK_AS ("usr_ghost") names a user that does not exist in this store (unset COURSEBOOK_AS, or give --as USER)\n';
    expect(await shared.run(['whoami'], { env: { COURSEBOOK_AS: 'usr_ghost' } })).toMatchObject({ code: 4, stdout: '', stderr: fromEnv });
    await shared.ok(['config', 'set', 'as', 'usr_x', '--name', 'ghostly']);
    expect(await shared.run(['--profile', 'ghostly', 'whoami'])).toMatchObject({
      code: 4,
      stdout: '',
      stderr:
        'error (unauthenticated): the profile "ghostly" sets as ("usr_x"), a user that does not exist in this store (set another with coursebook config set as USER --name ghostly, or remove it with coursebook config unset as --name ghostly)\n',
    });
    // The environment beats the profile, and the flag both: the one that applied is named.
    expect(await shared.run(['--profile', 'ghostly', 'whoami'], { env: { COURSEBOOK_AS: 'usr_ghost' } })).toMatchObject({ code: 4, stderr: fromEnv });
    expect((await shared.run(['--profile', 'ghostly', '--as', 'usr_s01', 'whoami'], { env: { COURSEBOOK_AS: 'usr_ghost' } })).code).toBe(0);
  });

  it('names the profile in use; on a terminal it is a table', async () => {
    await shared.ok(['config', 'set', 'as', 'usr_instructor', '--name', 'teaching']);
    const res = await shared.run(['--profile', 'teaching', 'whoami'], { tty: { stdout: true }, columns: 200 });
    expect(res.stdout).toBe(
      [
        `id              name             admin  credential  scopes  backend${' '.repeat(shared.db.length + 1)}profile`,
        `usr_instructor  Ines Instructor  no     local       *       local ${shared.db}  teaching`,
        '',
      ].join('\n'),
    );
  });
});

describe('users list', () => {
  it('lists users as TSV: id, name, email, admin', async () => {
    const res = await shared.run(['users', 'list']);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(29);
    expect(lines.slice(0, 3)).toEqual([
      'usr_admin\tDana Admin\tadmin@demo.example\tyes',
      'usr_instructor\tInes Instructor\tines@demo.example\t',
      'usr_manager\tMona Manager\tmona@demo.example\t',
    ]);
  });

  it('only admins list users (exit 4)', async () => {
    expect(await shared.run(['--as', 'usr_s01', 'users', 'list'])).toMatchObject({ code: 4, stdout: '', stderr: ADMINS_ONLY });
    expect(await shared.run(['--as', 'usr_instructor', 'users', 'list'])).toMatchObject({ code: 4, stderr: ADMINS_ONLY });
  });
});

describe('users show', () => {
  it('shows a user as fields; users may read themselves', async () => {
    const expected = 'id\tusr_s01\nname\tAmara Okafor\nemail\tamara.okafor@demo.example\nadmin\tfalse\n';
    expect(await shared.run(['users', 'show', 'usr_s01'])).toMatchObject({ code: 0, stdout: expected, stderr: '' });
    expect(await shared.ok(['--as', 'usr_s01', 'users', 'show', 'usr_s01'])).toBe(expected);
  });

  it('an unknown user, or another user for a non-admin, is not-found (exit 5)', async () => {
    expect(await shared.run(['users', 'show', 'usr_nope'])).toMatchObject({ code: 5, stderr: 'error (not-found): User "usr_nope" was not found.\n' });
    expect(await shared.run(['--as', 'usr_s01', 'users', 'show', 'usr_s02'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): User "usr_s02" was not found.\n',
    });
  });
});

describe('users create', () => {
  it('creates a user with the given id, name and email', async () => {
    const res = await writes.run(['users', 'create', '--name', 'New Person', '--id', 'usr_new', '--email', 'new@demo.example']);
    expect(res).toMatchObject({ code: 0, stdout: 'usr_new\n', stderr: '' });
    expect(await writes.ok(['users', 'show', 'usr_new'])).toBe('id\tusr_new\nname\tNew Person\nemail\tnew@demo.example\nadmin\tfalse\n');
    // An id that sorts after usr_admin: local mode acts as the first admin by id.
    const admin = JSON.parse(await writes.ok(['--json', 'users', 'create', '--name', 'Second Admin', '--id', 'usr_second_admin', '--admin']));
    expect(admin).toEqual({ id: 'usr_second_admin', name: 'Second Admin', email: null, admin: true });
    const generated = JSON.parse(await writes.ok(['--json', 'users', 'create', '--name', 'Generated Id']));
    expect(generated.id).toMatch(/^usr_[a-z0-9]+$/);
  });

  it('a missing --name is a usage error naming it (exit 2)', async () => {
    expect(await writes.run(['users', 'create', '--email', 'x@demo.example'])).toMatchObject({ code: 2, stdout: '', stderr: 'error: missing --name\n' });
  });

  it('an invalid email is invalid naming the field (exit 3); an id in use is a conflict (exit 6)', async () => {
    expect(await writes.run(['users', 'create', '--name', 'Bad', '--email', 'not-an-email'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): --email: must be a valid email\n',
    });
    expect(await writes.run(['users', 'create', '--name', 'Dup', '--id', 'usr_s01'])).toMatchObject({
      code: 6,
      stderr: 'error (conflict): User "usr_s01" already exists.\n',
    });
  });

  it('only admins create users (exit 4)', async () => {
    expect(await writes.run(['--as', 'usr_instructor', 'users', 'create', '--name', 'Sneaky'])).toMatchObject({ code: 4, stderr: ADMINS_ONLY });
  });
});

describe('users update', () => {
  it('changes name, email and admin', async () => {
    await writes.ok(['users', 'create', '--name', 'To Update', '--id', 'usr_upd']);
    const res = await writes.run(['users', 'update', 'usr_upd', '--name', 'Updated', '--email', 'upd@demo.example', '--admin', 'yes']);
    expect(res).toMatchObject({ code: 0, stdout: 'id\tusr_upd\nname\tUpdated\nemail\tupd@demo.example\nadmin\ttrue\n' });
    expect(await writes.ok(['users', 'update', 'usr_upd', '--admin', 'no'])).toContain('\nadmin\tfalse\n');
    // `none` clears the email (the API's null), as --due none clears a due date.
    expect(await writes.ok(['--json', 'users', 'update', 'usr_upd', '--email', 'none'])).toContain('"email":null');
  });

  it('nothing to change, or --admin other than yes/no, is a usage error (exit 2)', async () => {
    expect(await writes.run(['users', 'update', 'usr_s01'])).toMatchObject({ code: 2, stderr: 'error: nothing to change: give --name, --email or --admin\n' });
    expect(await writes.run(['users', 'update', 'usr_s01', '--admin', 'maybe'])).toMatchObject({ code: 2, stderr: 'error: --admin must be yes or no\n' });
  });

  it('an invalid email exits 3; an unknown user exits 5; a user changing themself exits 4', async () => {
    expect(await writes.run(['users', 'update', 'usr_s01', '--email', 'nope'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): --email: must be a valid email\n',
    });
    expect(await writes.run(['users', 'update', 'usr_nope', '--name', 'X'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): User "usr_nope" was not found.\n',
    });
    expect(await writes.run(['--as', 'usr_s01', 'users', 'update', 'usr_s01', '--admin', 'yes'])).toMatchObject({ code: 4, stderr: ADMINS_ONLY });
    expect(await writes.ok(['users', 'show', 'usr_s01'])).toContain('\nadmin\tfalse\n');
  });
});

describe('enrollments list', () => {
  it("lists the course's enrollments as TSV; reviewers may read them", async () => {
    const res = await shared.run(['enrollments', 'list', '--course', COURSE]);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(27);
    expect(lines.slice(0, 3)).toEqual([`${COURSE}\tusr_instructor\tinstructor`, `${COURSE}\tusr_reviewer\treviewer`, `${COURSE}\tusr_s01\tstudent`]);
    expect(await shared.ok(['--as', 'usr_reviewer', 'enrollments', 'list', '--course', COURSE])).toBe(res.stdout);
  });

  it('an unknown course exits 5; a student exits 4', async () => {
    expect(await shared.run(['enrollments', 'list', '--course', 'crs_nope'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Course "crs_nope" was not found.\n',
    });
    expect(await shared.run(['--as', 'usr_s01', 'enrollments', 'list', '--course', COURSE])).toMatchObject({
      code: 4,
      stderr: "error (forbidden): Only the course's instructors, reviewers and admins may do this.\n",
    });
  });
});

describe('enrollments create', () => {
  it('enrolls a user (student by default), or changes their role; instructors may', async () => {
    await writes.ok(['users', 'create', '--name', 'Enrollee', '--id', 'usr_enr']);
    expect(await writes.run(['enrollments', 'create', '--course', COURSE, '--user', 'usr_enr'])).toMatchObject({
      code: 0,
      stdout: `courseId\t${COURSE}\nuserId\tusr_enr\nrole\tstudent\n`,
    });
    expect(await writes.ok(['--as', 'usr_instructor', 'enrollments', 'create', '--course', COURSE, '--user', 'usr_enr', '--role', 'reviewer'])).toContain(
      '\nrole\treviewer\n',
    );
    expect(await writes.ok(['enrollments', 'list', '--course', COURSE])).toContain(`${COURSE}\tusr_enr\treviewer\n`);
  });

  it('an unknown role is invalid naming the field (exit 3)', async () => {
    expect(await writes.run(['enrollments', 'create', '--course', COURSE, '--user', 'usr_s01', '--role', 'boss'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): --role: must be one of "instructor", "reviewer", "student"\n',
    });
  });

  it('an unknown user or course exits 5; a student or reviewer enrolling exits 4', async () => {
    expect(await writes.run(['enrollments', 'create', '--course', COURSE, '--user', 'usr_nope'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): User "usr_nope" was not found.\n',
    });
    expect(await writes.run(['enrollments', 'create', '--course', 'crs_nope', '--user', 'usr_s01'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Course "crs_nope" was not found.\n',
    });
    const forbidden = "error (forbidden): Only the course's instructors and admins may do this.\n";
    expect(await writes.run(['--as', 'usr_s01', 'enrollments', 'create', '--course', COURSE, '--user', 'usr_s01', '--role', 'instructor'])).toMatchObject({
      code: 4,
      stderr: forbidden,
    });
    expect(await writes.run(['--as', 'usr_reviewer', 'enrollments', 'create', '--course', COURSE, '--user', 'usr_manager'])).toMatchObject({
      code: 4,
      stderr: forbidden,
    });
  });

  it('without --user: a usage error naming it (exit 2)', async () => {
    expect(await writes.run(['enrollments', 'create', '--course', COURSE])).toEqual({ code: 2, stdout: '', stderr: 'error: missing --user\n' });
  });
});

describe('enrollments delete', () => {
  it('removes an enrollment', async () => {
    await writes.ok(['users', 'create', '--name', 'Leaver', '--id', 'usr_leaver']);
    await writes.ok(['enrollments', 'create', '--course', COURSE, '--user', 'usr_leaver']);
    expect(await writes.run(['enrollments', 'delete', '--course', COURSE, '--user', 'usr_leaver'])).toMatchObject({
      code: 0,
      stdout: 'ok\ttrue\n',
      stderr: '',
    });
    expect(await writes.ok(['enrollments', 'list', '--course', COURSE])).not.toContain('usr_leaver');
  });

  it("the course's last instructor is neither removed nor demoted, by themself or the admin (exit 6, naming the fix)", async () => {
    const refused = {
      code: 6,
      stdout: '',
      stderr:
        'error (conflict): Course "crs_data101" would be left without an instructor: "usr_instructor" is the last instructor. Enroll another instructor first (coursebook enrollments create --course crs_data101 --user USER --role instructor), then change or remove this enrollment.\n',
    };
    // enrollments create without --role means student: the easy way to demote oneself by mistake.
    expect(await writes.run(['--as', 'usr_instructor', 'enrollments', 'create', '--course', COURSE, '--user', 'usr_instructor'])).toEqual(refused);
    expect(await writes.run(['--as', 'usr_instructor', 'enrollments', 'delete', '--course', COURSE, '--user', 'usr_instructor'])).toEqual(refused);
    expect(await writes.run(['enrollments', 'delete', '--course', COURSE, '--user', 'usr_instructor'])).toEqual(refused);
    expect(await writes.ok(['enrollments', 'list', '--course', COURSE])).toContain(`${COURSE}\tusr_instructor\tinstructor\n`);
  });

  it('a user who is not enrolled exits 5; a student removing another exits 4', async () => {
    expect(await writes.run(['enrollments', 'delete', '--course', COURSE, '--user', 'usr_manager'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): User "usr_manager" is not enrolled in this course.\n',
    });
    expect(await writes.run(['--as', 'usr_s01', 'enrollments', 'delete', '--course', COURSE, '--user', 'usr_s02'])).toMatchObject({
      code: 4,
      stderr: "error (forbidden): Only the course's instructors and admins may do this.\n",
    });
    expect(await writes.ok(['enrollments', 'list', '--course', COURSE])).toContain(`${COURSE}\tusr_s02\tstudent\n`);
  });
});

describe('tokens create', () => {
  it('prints only the secret; the token is listed with its scopes', async () => {
    const res = await writes.run(['tokens', 'create', '--name', 'ci', '--scope', 'gradebook:read', 'content:read']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/^cbk_[A-Za-z0-9_-]{43}\n$/);
    expect(await writes.ok(['tokens', 'list'])).toMatch(/(^|\n)tok_[a-z0-9]+\tci\tusr_admin\tgradebook:read content:read\t\t\n/);
  });

  it('--json answers the token record with its secret; admins may create one for another user', async () => {
    const res = await writes.run([
      '--json',
      'tokens',
      'create',
      '--name',
      'for s02',
      '--scope',
      'content:read',
      '--user',
      'usr_s02',
      '--expires',
      '2027-01-01T00:00:00Z',
    ]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      userId: 'usr_s02',
      name: 'for s02',
      scopes: ['content:read'],
      expiresAt: '2027-01-01T00:00:00.000Z',
      revokedAt: null,
      token: expect.stringMatching(/^cbk_/),
    });
  });

  it('on a terminal, says on stderr that the secret is shown only once', async () => {
    const res = await writes.run(['tokens', 'create', '--name', 'tty', '--scope', '*'], { tty: { stdout: true } });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/^token tok_[a-z0-9]+ created; this is the only time its secret is shown:\n$/);
  });

  it('a missing --name or --scope is a usage error naming it (exit 2)', async () => {
    expect(await writes.run(['tokens', 'create', '--scope', '*'])).toMatchObject({ code: 2, stdout: '', stderr: 'error: missing --name\n' });
    expect(await writes.run(['tokens', 'create', '--name', 'ci'])).toMatchObject({ code: 2, stderr: 'error: missing --scope\n' });
  });

  it('an unknown scope or a past expiry is invalid naming the field (exit 3)', async () => {
    const scope = await writes.run(['tokens', 'create', '--name', 'ci', '--scope', 'everything']);
    expect(scope.code).toBe(3);
    expect(scope.stderr).toMatch(/^error \(invalid\): --scope \(the 1st\): must be one of "content:read", /);
    expect(await writes.run(['tokens', 'create', '--name', 'ci', '--scope', '*', '--expires', '2020-01-01T00:00:00Z'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): --expires: must be in the future\n',
    });
    expect(await writes.run(['tokens', 'create', '--name', 'ci', '--scope', '*', '--expires', 'tomorrow'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): --expires: must be an RFC 3339 timestamp such as 2026-11-22T08:30:00Z\n',
    });
  });

  it('a student creating a token for someone else exits 4; for an unknown user 5', async () => {
    expect(await writes.run(['--as', 'usr_s01', 'tokens', 'create', '--name', 'x', '--scope', '*', '--user', 'usr_s02'])).toMatchObject({
      code: 4,
      stderr: 'error (forbidden): Only admins may create tokens for other users.\n',
    });
    expect(await writes.run(['tokens', 'create', '--name', 'x', '--scope', '*', '--user', 'usr_nope'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): User "usr_nope" was not found.\n',
    });
  });
});

describe('tokens list', () => {
  it("lists your own tokens; admins see everyone's with --all", async () => {
    expect(await shared.run(['tokens', 'list'])).toMatchObject({ code: 0, stdout: TOKEN_ROWS.admin, stderr: '' });
    expect(await shared.ok(['--as', 'usr_s01', 'tokens', 'list'])).toBe(TOKEN_ROWS.student);
    const all = (await shared.ok(['tokens', 'list', '--all'])).trim().split('\n');
    expect(all.map((l) => l.split('\t')[0])).toEqual(['tok_demo_admin', 'tok_demo_instructor', 'tok_demo_reviewer', 'tok_demo_student']);
  });

  it('--all by a non-admin is forbidden (exit 4)', async () => {
    expect(await shared.run(['--as', 'usr_s01', 'tokens', 'list', '--all'])).toMatchObject({
      code: 4,
      stdout: '',
      stderr: "error (forbidden): Only admins may list everyone's tokens.\n",
    });
  });
});

describe('tokens revoke', () => {
  it('revokes a token at once: revokedAt is set', async () => {
    const res = await writes.run(['tokens', 'revoke', 'tok_demo_reviewer']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('id\ttok_demo_reviewer\nuserId\tusr_reviewer\n');
    expect(res.stdout).toContain('\nrevokedAt\t2026-11-22T08:30:00.000Z\n');
    expect(await writes.ok(['tokens', 'list', '--all'])).toContain(
      'tok_demo_reviewer\tdemo reviewer\tusr_reviewer\tcontent:read readiness:read readiness:attest\t\t2026-11-22T08:30:00.000Z\n',
    );
  });

  it("an unknown token, or another user's for a non-admin, is not-found (exit 5)", async () => {
    expect(await writes.run(['tokens', 'revoke', 'tok_nope'])).toMatchObject({ code: 5, stderr: 'error (not-found): Token "tok_nope" was not found.\n' });
    expect(await writes.run(['--as', 'usr_s01', 'tokens', 'revoke', 'tok_demo_admin'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Token "tok_demo_admin" was not found.\n',
    });
    expect(await writes.ok(['tokens', 'list'])).toContain('tok_demo_admin\tdemo admin\tusr_admin\t*\t\t\n');
  });
});

describe('reporting-lines list', () => {
  it('admins see every line as TSV: manager, report, created by, created at', async () => {
    expect(await shared.run(['reporting-lines', 'list'])).toMatchObject({
      code: 0,
      stdout: 'usr_manager\tusr_s01\tusr_admin\t2026-08-01T09:00:00.000Z\nusr_manager\tusr_s02\tusr_admin\t2026-08-01T09:00:00.000Z\n',
      stderr: '',
    });
  });

  it('others see only their own lines; an unknown --as user is unauthenticated (exit 4)', async () => {
    expect(await shared.ok(['--as', 'usr_s02', 'reporting-lines', 'list'])).toBe('usr_manager\tusr_s02\tusr_admin\t2026-08-01T09:00:00.000Z\n');
    expect(await shared.ok(['--as', 'usr_s09', 'reporting-lines', 'list'])).toBe('');
    expect(await shared.run(['--as', 'usr_ghost', 'reporting-lines', 'list'])).toMatchObject({
      code: 4,
      stderr: 'error (unauthenticated): --as names a user that does not exist in this store: "usr_ghost"\n',
    });
  });
});

describe('reporting-lines create', () => {
  it('adds a line: REPORT reports to MANAGER', async () => {
    const res = await writes.run(['reporting-lines', 'create', 'usr_manager', 'usr_s03']);
    expect(res).toMatchObject({
      code: 0,
      stdout: 'managerId\tusr_manager\nreportId\tusr_s03\ncreatedBy\tusr_admin\ncreatedAt\t2026-11-22T08:30:00.000Z\n',
      stderr: '',
    });
  });

  it('a duplicate, a self-line or a loop is a conflict naming it (exit 6)', async () => {
    expect(await writes.run(['reporting-lines', 'create', 'usr_manager', 'usr_s01'])).toMatchObject({
      code: 6,
      stderr: 'error (conflict): usr_s01 already reports to usr_manager.\n',
    });
    expect(await writes.run(['reporting-lines', 'create', 'usr_s05', 'usr_s05'])).toMatchObject({
      code: 6,
      stderr: 'error (conflict): usr_s05 cannot report to themself.\n',
    });
    expect(await writes.run(['reporting-lines', 'create', 'usr_s01', 'usr_manager'])).toMatchObject({
      code: 6,
      stderr: 'error (conflict): This line would make a loop: usr_s01 -> usr_manager -> usr_s01.\n',
    });
  });

  it('an unknown user exits 5; a non-admin exits 4; a missing argument exits 2', async () => {
    expect(await writes.run(['reporting-lines', 'create', 'usr_manager', 'usr_nope'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): User "usr_nope" was not found.\n',
    });
    expect(await writes.run(['--as', 'usr_instructor', 'reporting-lines', 'create', 'usr_manager', 'usr_s04'])).toMatchObject({ code: 4, stderr: ADMINS_ONLY });
    const missing = await writes.run(['reporting-lines', 'create', 'usr_manager']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: missing required argument 'reportId'\n/);
  });
});

describe('reporting-lines delete', () => {
  it('removes a line', async () => {
    await writes.ok(['reporting-lines', 'create', 'usr_manager', 'usr_s08']);
    expect(await writes.run(['reporting-lines', 'delete', 'usr_manager', 'usr_s08'])).toMatchObject({ code: 0, stdout: 'ok\ttrue\n', stderr: '' });
    expect(await writes.ok(['reporting-lines', 'list'])).not.toContain('usr_s08');
  });

  it('a line that does not exist exits 5; a non-admin exits 4', async () => {
    expect(await writes.run(['reporting-lines', 'delete', 'usr_manager', 'usr_s09'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): usr_s09 does not report to usr_manager.\n',
    });
    expect(await writes.run(['--as', 'usr_manager', 'reporting-lines', 'delete', 'usr_manager', 'usr_s02'])).toMatchObject({ code: 4, stderr: ADMINS_ONLY });
    expect(await writes.ok(['reporting-lines', 'list'])).toContain('usr_manager\tusr_s02\t');
  });
});

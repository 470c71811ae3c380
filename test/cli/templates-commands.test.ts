/**
 * In-process tests of the template commands (list, show, create, update, bulk-update, use)
 * in local mode against the demo store: one institution template, tpl_standard
 * ("Standard 3-module course", 2 modules, accessFloor 60, tutor defaults off). Read-only
 * tests share a store; each describe that changes templates has its own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { scriptedPrompter } from '../helpers/cli.js';
import { type CliStore, DEMO_DATASET, storesForThisFile } from '../helpers/cli-store.js';

const TERMINAL = { tty: { stdin: true, stdout: true }, env: { CI: '' } };
const STANDARD_ROW = 'tpl_standard\tStandard 3-module course\tinstitution\t2\t60\n';

const newStore = storesForThisFile();

let shared: CliStore;
beforeAll(async () => {
  shared = await newStore();
});

const template = async (s: CliStore, id: string): Promise<Record<string, unknown>> => JSON.parse(await s.ok(['--json', 'templates', 'show', id]));

describe('templates list', () => {
  it('lists templates as TSV: id, name, owner, module count, access floor', async () => {
    expect(await shared.run(['templates', 'list'])).toMatchObject({ code: 0, stdout: STANDARD_ROW, stderr: '' });
    const json = JSON.parse((await shared.run(['--json', 'templates', 'list'])).stdout);
    expect(json).toEqual([
      expect.objectContaining({ id: 'tpl_standard', owner: { kind: 'institution' }, accessFloor: 60, tutorDefaults: { lesson: 'off', assignment: 'off' } }),
    ]);
  });

  it('any signed-in user may list; an id argument is a usage error (exit 2)', async () => {
    expect(await shared.run(['--as', 'usr_s01', 'templates', 'list'])).toMatchObject({ code: 0, stdout: STANDARD_ROW });
    const res = await shared.run(['templates', 'list', 'tpl_standard']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: too many arguments for 'list'\. Expected 0 arguments but got 1\.\n/);
  });
});

describe('templates show', () => {
  it('prints the template as indented JSON', async () => {
    const res = await shared.run(['templates', 'show', 'tpl_standard']);
    expect(res.code).toBe(0);
    expect(res.stdout.startsWith('{\n  "id": "tpl_standard",\n  "name": "Standard 3-module course",\n')).toBe(true);
    expect(JSON.parse(res.stdout).modules.map((m: { key: string; placement: string }) => `${m.key}@${m.placement}`)).toEqual(['welcome@start', 'wrap-up@end']);
  });

  it('an unknown template is not-found (exit 5)', async () => {
    expect(await shared.run(['templates', 'show', 'tpl_nope'])).toMatchObject({
      code: 5,
      stdout: '',
      stderr: 'error (not-found): Template "tpl_nope" was not found.\n',
    });
  });
});

describe('templates create', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
  });

  it('--name makes an empty institution template; --file takes the whole body', async () => {
    const res = await s.run(['templates', 'create', '--name', 'Blank']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^tpl_[a-z0-9]+\n$/);
    expect(await template(s, res.stdout.trim())).toMatchObject({
      name: 'Blank',
      description: '',
      owner: { kind: 'institution' },
      modules: [],
      accessFloor: 0,
      updatedBy: 'usr_admin',
      updatedAt: '2026-11-22T08:30:00.000Z',
    });
    writeFileSync(join(s.dir, 'tpl.json'), JSON.stringify({ name: 'From a file', accessFloor: 40, tutorDefaults: { lesson: 'on', assignment: 'off' } }));
    const fromFile = await s.run(['--json', 'templates', 'create', '--file', 'tpl.json'], { cwd: s.dir });
    expect(fromFile.code).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toMatchObject({
      name: 'From a file',
      accessFloor: 40,
      tutorDefaults: { lesson: 'on', assignment: 'off' },
      owner: { kind: 'institution' },
    });
  });

  it('a student may create a template of their own', async () => {
    const res = await s.run(['--as', 'usr_s01', '--json', 'templates', 'create', '--name', 'My notes']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ name: 'My notes', owner: { kind: 'user', userId: 'usr_s01' }, updatedBy: 'usr_s01' });
  });

  it('a student may not create an institution template (exit 4)', async () => {
    const res = await s.run(['--as', 'usr_s01', 'templates', 'create', '--file', '-'], {
      input: JSON.stringify({ name: 'Official', owner: { kind: 'institution' } }),
    });
    expect(res).toMatchObject({ code: 4, stderr: 'error (forbidden): Only admins may create templates owned by the institution or by someone else.\n' });
  });

  it('invalid values are listed with their fields (exit 3)', async () => {
    const res = await s.run(['templates', 'create', '--file', '-'], { input: JSON.stringify({ name: '', accessFloor: 400 }) });
    expect(res).toMatchObject({
      code: 3,
      stdout: '',
      stderr: 'error (invalid): 2 problems: name: must not be empty; ...\n  name: must not be empty\n  accessFloor: must be <= 100\n',
    });
  });

  it('no --name and no --file, or a file that is not an object, is a usage error (exit 2)', async () => {
    expect(await s.run(['templates', 'create'])).toMatchObject({ code: 2, stderr: 'error: missing --name\n' });
    expect(await s.run(['templates', 'create', '--file', '-'], { input: '["a"]' })).toMatchObject({
      code: 2,
      stderr: 'error: - must hold a JSON object (the PATCH body)\n',
    });
  });
});

describe('templates update', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
  });

  it('--set changes fields (dotted paths change one field of an object); --file applies a patch', async () => {
    const res = await s.run(['templates', 'update', 'tpl_standard', '--set', 'accessFloor=70', '--set', 'tutorDefaults.lesson=on']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('\ntutorDefaults\t{"lesson":"on","assignment":"off"}\naccessFloor\t70\n');
    const patched = await s.run(['templates', 'update', 'tpl_standard', '--file', '-'], { input: JSON.stringify({ description: 'Patched from a file' }) });
    expect(patched.code).toBe(0);
    expect(await template(s, 'tpl_standard')).toMatchObject({
      description: 'Patched from a file',
      accessFloor: 70,
      tutorDefaults: { lesson: 'on', assignment: 'off' },
    });
  });

  it('a dotted --set into modules changes that field and keeps each module where it was placed', async () => {
    const res = await s.run(['templates', 'update', 'tpl_standard', '--set', 'modules.1.title=Goodbye', '--set', 'modules.0.lessons.0.minutes=12']);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    const modules = (await template(s, 'tpl_standard')).modules as { key: string; title: string; placement: string; lessons: { minutes: number }[] }[];
    expect(modules.map((m) => `${m.key}@${m.placement}: ${m.title}`)).toEqual(['welcome@start: Start here', 'wrap-up@end: Goodbye']);
    expect(modules[0]!.lessons[0]!.minutes).toBe(12);
    // A placement the user gives is still refused: the service decides it.
    expect(await s.run(['templates', 'update', 'tpl_standard', '--set', 'modules.0.placement=end'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): modules[0].placement: unknown field\n',
    });
  });

  it('an out-of-range value (exit 3) or duplicate module keys (exit 3) change nothing', async () => {
    expect(await s.run(['templates', 'update', 'tpl_standard', '--set', 'accessFloor=170'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): accessFloor: must be <= 100\n',
    });
    const dup = await s.run(['templates', 'update', 'tpl_standard', '--file', '-'], {
      input: JSON.stringify({
        modules: [
          { key: 'a', title: 'A' },
          { key: 'a', title: 'B' },
        ],
      }),
    });
    expect(dup).toMatchObject({ code: 3, stderr: 'error (invalid): modules[1].key: duplicate key "a"\n' });
    expect(await template(s, 'tpl_standard')).toMatchObject({
      accessFloor: 70,
      modules: [expect.objectContaining({ key: 'welcome' }), expect.objectContaining({ key: 'wrap-up' })],
    });
  });

  it('nothing to change, or a --set that is not FIELD=VALUE, is a usage error (exit 2)', async () => {
    expect(await s.run(['templates', 'update', 'tpl_standard'])).toMatchObject({ code: 2, stderr: 'error: nothing to change: give --set or --file\n' });
    expect(await s.run(['templates', 'update', 'tpl_standard', '--set', 'accessFloor'])).toMatchObject({
      code: 2,
      stderr: 'error: --set must look like FIELD=VALUE (got "accessFloor")\n',
    });
  });

  it('an unknown template exits 5; a student changing an institution template exits 4', async () => {
    expect(await s.run(['templates', 'update', 'tpl_nope', '--set', 'accessFloor=70'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Template "tpl_nope" was not found.\n',
    });
    expect(await s.run(['--as', 'usr_s01', 'templates', 'update', 'tpl_standard', '--set', 'accessFloor=1'])).toMatchObject({
      code: 4,
      stderr: 'error (forbidden): Only admins or the owner of a user-owned template may change it.\n',
    });
  });
});

describe('templates bulk-update', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
    await s.ok(['templates', 'create', '--file', '-'], { input: JSON.stringify({ id: 'tpl_second', name: 'Second', accessFloor: 40 }) });
    await s.ok(['--as', 'usr_instructor', 'templates', 'create', '--name', 'Ines personal']);
  });
  const floors = async () =>
    (await s.ok(['templates', 'list']))
      .trim()
      .split('\n')
      .map((l) => `${l.split('\t')[1]}=${l.split('\t')[4]}`)
      .sort();

  it('--dry-run previews each change and changes nothing', async () => {
    const res = await s.run(['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accessFloor=80', '--dry-run']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      'tpl_second  Second\n    accessFloor: 40 -> 80\ntpl_standard  Standard 3-module course\n    accessFloor: 60 -> 80\n2 templates would change\n',
    );
    expect(await floors()).toEqual(['Ines personal=0', 'Second=40', 'Standard 3-module course=60']);
  });

  it('--yes shows the preview (stderr) before it applies every change at once, then what it updated (stdout)', async () => {
    const res = await s.run(['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accessFloor=75', '--yes']);
    expect(res).toEqual({
      code: 0,
      stdout: 'updated 2 templates: tpl_second, tpl_standard\n',
      stderr: 'tpl_second  Second\n    accessFloor: 40 -> 75\ntpl_standard  Standard 3-module course\n    accessFloor: 60 -> 75\n',
    });
    expect(await floors()).toEqual(['Ines personal=0', 'Second=75', 'Standard 3-module course=75']);
  });

  it('on a terminal: one confirmation; no changes nothing, yes applies', async () => {
    const no = scriptedPrompter([false]);
    const declined = await s.run(['templates', 'bulk-update', '--where', 'accessFloor=75', '--set', 'tutorDefaults.assignment=on'], {
      ...TERMINAL,
      prompter: no,
    });
    expect(declined).toMatchObject({ code: 0, stdout: '' });
    expect(no.asked).toEqual(['Apply to 2 templates?']);
    // An object field's change names the leaf that changes.
    const change = '    tutorDefaults.assignment: "off" -> "on"\n';
    expect(declined.stderr).toBe(`tpl_second  Second\n${change}tpl_standard  Standard 3-module course\n${change}\nnothing changed\n`);
    const yes = scriptedPrompter([true]);
    const applied = await s.run(['templates', 'bulk-update', '--where', 'accessFloor=75', '--set', 'tutorDefaults.assignment=on'], {
      ...TERMINAL,
      prompter: yes,
    });
    expect(applied).toMatchObject({ code: 0, stdout: 'updated 2 templates: tpl_second, tpl_standard\n' });
    expect((await template(s, 'tpl_standard')).tutorDefaults).toEqual({ lesson: 'off', assignment: 'on' });
  });

  it('a filter that matches nothing says so', async () => {
    expect(await s.run(['templates', 'bulk-update', '--where', 'owner.kind=team', '--set', 'accessFloor=1', '--yes'])).toMatchObject({
      code: 0,
      stdout: 'no template matches or would change\n',
    });
  });

  it('not interactive without --yes, without --where, or without a change: usage errors (exit 2)', async () => {
    const noYes = await s.run(['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accessFloor=90']);
    expect(noYes).toMatchObject({ code: 2, stderr: 'error: bulk changes need --yes when not interactive (2 templates to change; see --dry-run)\n' });
    const noWhere = await s.run(['templates', 'bulk-update', '--set', 'accessFloor=90', '--yes']);
    expect(noWhere.code).toBe(2);
    expect(noWhere.stderr).toMatch(/^error: missing --where \(FIELD=VALUE\)/);
    expect(await s.run(['templates', 'bulk-update', '--where', 'owner.kind=institution', '--yes'])).toMatchObject({
      code: 2,
      stderr: 'error: nothing to change: give --set or --file\n',
    });
    expect(await s.run(['templates', 'bulk-update', '--where', 'institution', '--set', 'accessFloor=90', '--yes'])).toMatchObject({
      code: 2,
      stderr: 'error: --where must look like FIELD=VALUE (got "institution")\n',
    });
  });

  it('an invalid value changes no template (exit 3); a non-admin is forbidden for each template that is not theirs (exit 4)', async () => {
    // A problem of the patch itself, the same for every template, is listed once.
    const bad = await s.run(['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accessFloor=180', '--yes']);
    expect(bad).toEqual({ code: 3, stdout: '', stderr: 'error (invalid): accessFloor: must be <= 100\n' });
    const forbidden = await s.run([
      '--as',
      'usr_instructor',
      'templates',
      'bulk-update',
      '--where',
      'owner.kind=institution',
      '--set',
      'accessFloor=20',
      '--yes',
    ]);
    const refused = 'forbidden: Only admins or the owner of a user-owned template may change it.';
    expect(forbidden).toEqual({
      code: 4,
      stdout: `updated 0 of 2\nfailed 2 of 2:\n  tpl_second: ${refused}\n  tpl_standard: ${refused}\n`,
      stderr:
        'tpl_second  Second\n    accessFloor: 75 -> 20\ntpl_standard  Standard 3-module course\n    accessFloor: 75 -> 20\n' +
        'error (forbidden): 2 of 2 template updates failed.\n',
    });
    expect(await floors()).toEqual(['Ines personal=0', 'Second=75', 'Standard 3-module course=75']);
  });

  it('an unknown field fails the dry run exactly as the real run (exit 3), with the field it meant; nothing changes', async () => {
    for (const mode of ['--dry-run', '--yes']) {
      expect(await s.run(['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accesFloor=80', mode])).toEqual({
        code: 3,
        stdout: '',
        stderr: 'error (invalid): accesFloor: unknown field; did you mean accessFloor?\n',
      });
    }
    // A nested field is checked the same way, and a problem every template shares is listed once.
    expect(await s.run(['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'tutorDefaults.lessons=on', '--dry-run'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): tutorDefaults.lessons: unknown field; did you mean tutorDefaults.lesson?\n',
    });
    // Even when no template matches, a misspelt field is not "nothing to do".
    expect(await s.run(['templates', 'bulk-update', '--where', 'owner.kind=team', '--set', 'acessFloor=1', '--dry-run'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): acessFloor: unknown field; did you mean accessFloor?\n',
    });
    expect(await floors()).toEqual(['Ines personal=0', 'Second=75', 'Standard 3-module course=75']);
  });

  it('an unknown --where field is a usage error naming it and the field it meant (exit 2); paths into arrays are fields too', async () => {
    expect(await s.run(['templates', 'bulk-update', '--where', 'owner.knd=institution', '--set', 'accessFloor=80', '--dry-run'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --where: unknown field "owner.knd"; did you mean owner.kind?\n',
    });
    expect(await s.run(['templates', 'bulk-update', '--where', 'colour=red', '--set', 'accessFloor=80', '--dry-run'])).toMatchObject({
      code: 2,
      stderr: 'error: --where: unknown field "colour"\n',
    });
    expect(await s.run(['templates', 'bulk-update', '--where', 'modules.0.key=welcome', '--set', 'accessFloor=76', '--dry-run'])).toMatchObject({
      code: 0,
      stdout: 'tpl_standard  Standard 3-module course\n    accessFloor: 75 -> 76\n1 template would change\n',
    });
  });

  it('a dotted --set into modules previews the one field it changes (placement is not sent)', async () => {
    expect(await s.run(['templates', 'bulk-update', '--where', 'id=tpl_standard', '--set', 'modules.0.lessons.0.minutes=20', '--dry-run'])).toEqual({
      code: 0,
      stdout:
        'tpl_standard  Standard 3-module course\n    modules:\n      ~ module welcome\n        ~ lesson welcome-lesson: minutes 10 -> 20\n1 template would change\n',
      stderr: '',
    });
  });

  it('--concurrency must be a whole number from 1 to 64 (exit 2)', async () => {
    for (const bad of ['0', '65', 'two', '1.5'])
      expect(
        await s.run(['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accessFloor=80', '--concurrency', bad, '--dry-run']),
      ).toMatchObject({
        code: 2,
        stderr: `error: --concurrency must be a whole number from 1 to 64 (got ${JSON.stringify(bad)})\n`,
      });
  });

  it('the preview shows nested changes as a diff: modules, lessons and blocks removed (-), added (+) and changed (~)', async () => {
    const patch = {
      modules: [
        {
          key: 'welcome',
          title: 'Welcome',
          lessons: [
            {
              key: 'welcome-lesson',
              title: 'Welcome',
              minutes: 15,
              blocks: [{ key: 'h', label: 'Title', content: { type: 'heading', level: 1, text: 'Welcome' } }],
            },
            { key: 'rules', title: 'House rules', minutes: 5 },
          ],
        },
        { key: 'extra', title: 'Extra practice' },
      ],
    };
    const res = await s.run(['templates', 'bulk-update', '--where', 'id=tpl_standard', '--file', '-', '--dry-run'], { input: JSON.stringify(patch) });
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout).toBe(
      [
        'tpl_standard  Standard 3-module course',
        '    modules:',
        '      - module wrap-up "Wrap-up" (0 lessons, 0 blocks)',
        '      ~ module welcome: title "Start here" -> "Welcome", objective "Know how the course works and where to get help." -> ""',
        '        ~ lesson welcome-lesson: minutes 10 -> 15',
        '          - block support "Support links" (link)',
        '        + lesson rules "House rules"',
        '      + module extra "Extra practice"',
        '1 template would change',
        '',
      ].join('\n'),
    );
    const json = JSON.parse(
      (await s.run(['--json', 'templates', 'bulk-update', '--where', 'id=tpl_standard', '--file', '-', '--dry-run'], { input: JSON.stringify(patch) })).stdout,
    );
    expect(json.preview[0]).toMatchObject({ id: 'tpl_standard', patch });
    expect(json.preview[0].changes[1]).toBe('  - module wrap-up "Wrap-up" (0 lessons, 0 blocks)');
    expect((await template(s, 'tpl_standard')).modules).toHaveLength(2);
  });
});

describe('templates bulk-update: what the real run checks, and which template failed', () => {
  // The demo store plus four templates with modules welcome and wrap-up: tpl_1, tpl_2 and
  // tpl_4 the institution's (floors 40, 80, 10), tpl_3 the instructor's (30).
  let s: CliStore;
  const modules = [
    { key: 'welcome', title: 'Welcome', lessons: [{ key: 'l1', title: 'Hello', minutes: 10 }] },
    { key: 'wrap-up', title: 'Wrap up' },
  ];
  beforeAll(async () => {
    const demo = JSON.parse(readFileSync(DEMO_DATASET, 'utf8')) as { templates: unknown[] };
    const t = (id: string, accessFloor: number, owner: Record<string, string>) => ({ id, name: `Template ${id.slice(4)}`, owner, modules, accessFloor });
    s = await newStore({
      ...demo,
      templates: [
        ...demo.templates,
        t('tpl_1', 40, { kind: 'institution' }),
        t('tpl_2', 80, { kind: 'institution' }),
        t('tpl_3', 30, { kind: 'user', userId: 'usr_instructor' }),
        t('tpl_4', 10, { kind: 'institution' }),
      ],
    });
  });
  const floors = async () => (JSON.parse((await s.run(['--json', 'templates', 'list'])).stdout) as { accessFloor: number }[]).map((t) => t.accessFloor);

  it('--dry-run fails where the real run fails: an owner who does not exist (exit 5), each template named', async () => {
    const owner = ['--set', 'owner={"kind":"user","userId":"usr_nobody"}'];
    const preview = ['tpl_1  Template 1', 'tpl_2  Template 2', 'tpl_4  Template 4']
      .map((head) => `${head}\n    owner.kind: "institution" -> "user"\n    owner.userId: (none) -> "usr_nobody"\n`)
      .join('');
    const failures = ['tpl_1', 'tpl_2', 'tpl_4'].map((id) => `  ${id}: not-found: User "usr_nobody" was not found.\n`).join('');
    const where = ['--where', 'owner.kind=institution', '--where', 'description=""'];
    expect(await s.run(['templates', 'bulk-update', ...where, ...owner, '--dry-run'])).toEqual({
      code: 5,
      stdout: `${preview}would update 0 of 3\nwould fail 3 of 3:\n${failures}`,
      stderr: 'error (not-found): 3 of 3 template updates would fail.\n',
    });
    expect(await s.run(['templates', 'bulk-update', ...where, ...owner, '--yes'])).toEqual({
      code: 5,
      stdout: `updated 0 of 3\nfailed 3 of 3:\n${failures}`,
      stderr: `${preview}error (not-found): 3 of 3 template updates failed.\n`,
    });
    // An owner who exists passes both.
    expect(await s.run(['templates', 'bulk-update', '--where', 'id=tpl_4', '--set', 'owner={"kind":"user","userId":"usr_s01"}', '--dry-run'])).toEqual({
      code: 0,
      stdout: 'tpl_4  Template 4\n    owner.kind: "institution" -> "user"\n    owner.userId: (none) -> "usr_s01"\n1 template would change\n',
      stderr: '',
    });
    expect(await floors()).toEqual([40, 80, 30, 10, 60]);
  });

  it("a problem that comes from a template's own data names the template (exit 3), in text and in --json", async () => {
    const args = ['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'modules.0.key=wrap-up', '--yes'];
    const problems = ['tpl_1', 'tpl_2', 'tpl_4', 'tpl_standard'].map((id) => ({ path: `${id}.modules[1].key`, message: 'duplicate key "wrap-up"' }));
    expect(await s.run(args)).toEqual({
      code: 3,
      stdout: '',
      stderr: `error (invalid): 4 problems: tpl_1.modules[1].key: duplicate key "wrap-up"; ...\n${problems.map((p) => `  ${p.path}: ${p.message}\n`).join('')}`,
    });
    const json = await s.run(['--json', ...args]);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stderr)).toEqual({
      error: { code: 'invalid', message: '4 problems: tpl_1.modules[1].key: duplicate key "wrap-up"; ...', details: problems },
    });
    expect(await s.run(['templates', 'bulk-update', '--where', 'id=tpl_2', '--set', 'modules.1.key=welcome', '--dry-run'])).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error (invalid): tpl_2.modules[1].key: duplicate key "welcome"\n',
    });
  });

  it('an owner changes their own template as PATCH lets them; all or nothing when some are not theirs (exit 4)', async () => {
    const own = await s.run(['--as', 'usr_instructor', 'templates', 'bulk-update', '--where', 'owner.kind=user', '--set', 'accessFloor=70', '--yes']);
    expect(own).toEqual({ code: 0, stdout: 'updated 1 template: tpl_3\n', stderr: 'tpl_3  Template 3\n    accessFloor: 30 -> 70\n' });
    const json = await s.run(['--as', 'usr_instructor', '--json', 'templates', 'bulk-update', '--where', 'id=tpl_3', '--set', 'accessFloor=71', '--yes']);
    expect(json).toEqual({
      code: 0,
      stdout: '{"preview":[{"id":"tpl_3","patch":{"accessFloor":71},"changes":["accessFloor: 70 -> 71"]}],"changed":["tpl_3"],"failed":[]}\n',
      stderr: '',
    });
    const refused = 'forbidden: Only admins or the owner of a user-owned template may change it.';
    const failures = `  tpl_1: ${refused}\n  tpl_2: ${refused}\n  tpl_4: ${refused}\n`;
    const mixed = ['--as', 'usr_instructor', 'templates', 'bulk-update', '--where', 'description=""', '--set', 'accessFloor=72'];
    const dry = await s.run([...mixed, '--dry-run']);
    expect(dry).toMatchObject({ code: 4, stderr: 'error (forbidden): 3 of 4 template updates would fail; nothing would change.\n' });
    expect(dry.stdout.endsWith(`\nwould update 0 of 4 (all or nothing: tpl_3 would not change either)\nwould fail 3 of 4:\n${failures}`)).toBe(true);
    const real = await s.run([...mixed, '--yes']);
    expect(real).toMatchObject({ code: 4, stdout: `updated 0 of 4 (all or nothing: tpl_3 not changed either)\nfailed 3 of 4:\n${failures}` });
    expect(real.stderr.endsWith('    accessFloor: 10 -> 72\nerror (forbidden): 3 of 4 template updates failed; nothing was changed.\n')).toBe(true);
    expect(await floors()).toEqual([40, 80, 71, 10, 60]);
  });
});

describe('templates use', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
  });

  it('creates a draft course from the template, with its settings and modules', async () => {
    const res = await s.run(['--json', 'templates', 'use', 'tpl_standard', '--title', 'From template', '--id', 'crs_tpl', '--description', 'Made in a test']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      id: 'crs_tpl',
      title: 'From template',
      description: 'Made in a test',
      status: 'draft',
      templateId: 'tpl_standard',
      accessFloor: 60,
      rubricId: 'course-essentials',
    });
    const modules = JSON.parse(await s.ok(['--json', 'api', 'GET', '/courses/crs_tpl/modules']));
    expect(modules.map((m: { title: string; status: string }) => `${m.title}:${m.status}`)).toEqual(['Start here:draft', 'Wrap-up:draft']);
  });

  it('a missing --title is a usage error naming it (exit 2)', async () => {
    expect(await s.run(['templates', 'use', 'tpl_standard'])).toMatchObject({ code: 2, stdout: '', stderr: 'error: missing --title\n' });
  });

  it('an unknown template exits 5; a course id in use exits 6; a student exits 4', async () => {
    expect(await s.run(['templates', 'use', 'tpl_nope', '--title', 'X'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Template "tpl_nope" was not found.\n',
    });
    expect(await s.run(['templates', 'use', 'tpl_standard', '--title', 'Again', '--id', 'crs_data101'])).toMatchObject({
      code: 6,
      stderr: 'error (conflict): Course "crs_data101" already exists.\n',
    });
    expect(await s.run(['--as', 'usr_s01', 'templates', 'use', 'tpl_standard', '--title', 'Mine'])).toMatchObject({
      code: 4,
      stderr: 'error (forbidden): Only admins may do this.\n',
    });
  });
});

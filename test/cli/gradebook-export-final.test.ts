/**
 * In-process tests of `gradebook export --layout registrar` and `--bom`, and of `gradebook
 * final set` on a terminal (issue #13), in local mode against the demo store (crs_data101,
 * 25 students; its category Final is written "Final (cat_final) %" so no two headers are
 * equal; the standard letters A 93 ... F 0).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedPrompter } from '../helpers/cli.js';
import { type CliStore, cliStore } from '../helpers/cli-store.js';

const COURSE = 'crs_data101';

let store: CliStore;
beforeAll(async () => {
  store = await cliStore();
});
afterAll(() => store.cleanup());

describe('gradebook export', () => {
  it('every header of the default layout is unique: the Final category is "Final (cat_final) %"', async () => {
    const header = (await store.ok(['gradebook', 'export', '--course', COURSE])).split('\r\n')[0]!.split(',');
    // Final chart (asg_07) sits in the draft module mod_03: not in the gradebook until that is published.
    expect(header.filter((h) => h.startsWith('Final'))).toEqual(['Final (cat_final) %', 'Final %', 'Final Letter']);
    await store.ok(['modules', 'publish', 'mod_03']);
    const published = (await store.ok(['gradebook', 'export', '--course', COURSE])).split('\r\n')[0]!.split(',');
    expect(published.filter((h) => h.startsWith('Final'))).toEqual(['Final chart (asg_07)', 'Final (cat_final) %', 'Final %', 'Final Letter']);
    expect(new Set(published).size).toBe(published.length);
    await store.ok(['modules', 'unpublish', 'mod_03']);
    expect(new Set(header).size).toBe(header.length);
  });

  it('--layout registrar: Student ID, Student, Email, Final %, Final Letter, one row per student (override applied)', async () => {
    const res = await store.run(['gradebook', 'export', '--course', COURSE, '--layout', 'registrar']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    const lines = res.stdout.split('\r\n');
    expect(lines).toHaveLength(1 + 25 + 1);
    expect(lines[0]).toBe('Student ID,Student,Email,Final %,Final Letter');
    expect(lines[1]).toBe('usr_s01,Amara Okafor,amara.okafor@demo.example,92.9,A-');
    // usr_s07's override: letter B+ over a calculated 62.5.
    expect(lines.find((l) => l.startsWith('usr_s07,'))).toBe('usr_s07,Gustavo Pereira,gustavo.pereira@demo.example,62.5,B+');
    expect(lines[26]).toBe('');
  });

  it('--bom writes a UTF-8 byte-order mark first (stdout and --out alike); --json prints the API body', async () => {
    const piped = await store.ok(['gradebook', 'export', '--course', COURSE, '--layout', 'registrar', '--bom']);
    expect(piped.startsWith('\uFEFFStudent ID,Student,')).toBe(true);
    const res = await store.run(['gradebook', 'export', '--course', COURSE, '--bom', '--out', 'with-bom.csv'], { cwd: store.dir });
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: 'wrote with-bom.csv\n' });
    const bytes = readFileSync(join(store.dir, 'with-bom.csv'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe(await store.ok(['gradebook', 'export', '--course', COURSE]));
    const json = await store.run(['--json', 'gradebook', 'export', '--course', COURSE, '--layout', 'registrar', '--bom']);
    const api = await store.run(['--json', 'api', 'GET', `/courses/${COURSE}/gradebook/export?layout=registrar&bom=true`]);
    expect(json.stdout).toBe(api.stdout);
  });

  it('an unknown --layout is invalid naming the parameter (exit 3)', async () => {
    const res = await store.run(['gradebook', 'export', '--course', COURSE, '--layout', 'canvas']);
    expect(res).toMatchObject({ code: 3, stdout: '', stderr: 'error (invalid): --layout: must be one of "default", "registrar"\n' });
  });
});

const TERMINAL = { tty: { stdin: true, stdout: true }, env: { CI: '' } };
const LETTERS = ['A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-', 'D+', 'D', 'D-', 'F'];

/** scriptedPrompter, also recording the choices each select offered (by name). */
function choosing(answers: unknown[]) {
  const prompter = scriptedPrompter(answers);
  const offered: string[][] = [];
  const select = prompter.select;
  prompter.select = async (message, choices) => (offered.push(choices.map((c) => c.name)), select(message, choices));
  return Object.assign(prompter, { offered });
}

const history = async (student: string) => store.ok(['gradebook', 'final', 'history', '--course', COURSE, '--user', student]);

describe('gradebook final set', () => {
  it("on a terminal asks for the letter from the scheme's letters, then the reason", async () => {
    const prompter = choosing(['B+', 'Late work excused']);
    const res = await store.run(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s10'], { ...TERMINAL, prompter });
    expect(res.code).toBe(0);
    expect(prompter.asked).toEqual(['Final grade for usr_s10?', 'Reason?']);
    expect(prompter.offered[0]!.map((n) => n.split(' ')[0])).toEqual([...LETTERS, 'a']);
    expect(prompter.offered[0]![0]).toBe('A (from 93)');
    expect(prompter.offered[0]!.at(-1)).toBe('a percent instead');
    expect(await history('usr_s10')).toBe('1\t2026-11-22T08:30:00.000Z\tusr_admin\t-\tB+\tLate work excused\n');
  });

  it('or a percent instead; above 100 is allowed, and said', async () => {
    const prompter = choosing(['\u0000percent', '101.5', 'Extra project']);
    const res = await store.run(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s11'], { ...TERMINAL, prompter });
    expect(res.code).toBe(0);
    expect(prompter.asked).toEqual(['Final grade for usr_s11?', 'Final percent?', 'Reason?']);
    expect(res.stderr).toBe('note: the final percent 101.5 is above 100\n');
    expect(await history('usr_s11')).toBe('1\t2026-11-22T08:30:00.000Z\tusr_admin\t-\t101.5\tExtra project\n');
  });

  it('--percent above 100 is saved, with a note on stderr', async () => {
    const res = await store.run(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s12', '--percent', '104', '--reason', 'Bonus work']);
    expect(res).toEqual({ code: 0, stdout: 'ok\ttrue\nversion\t1\n', stderr: 'note: the final percent 104 is above 100\n' });
  });

  it('an invalid letter lists the valid letters (exit 3)', async () => {
    const res = await store.run(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s13', '--letter', 'E', '--reason', 'x']);
    expect(res).toEqual({
      code: 3,
      stdout: '',
      stderr: `error (invalid): --letter: "E" is not a letter of the course's scheme (${LETTERS.join(', ')})\n`,
    });
  });

  it('not on a terminal, neither --letter nor --percent is still a usage error (exit 2)', async () => {
    const res = await store.run(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s13', '--reason', 'x']);
    expect(res).toEqual({ code: 2, stdout: '', stderr: 'error: give --letter and/or --percent (or use gradebook final clear)\n' });
  });
});

/**
 * In-process tests of `gradebook export --layout registrar` and `--bom` (issue #13), in
 * local mode against the demo store (crs_data101, 25 students; its category Final is
 * written "Final (cat_final) %" so no two headers are equal).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliStore, cliStore } from '../helpers/cli-store.js';

const COURSE = 'crs_data101';

let store: CliStore;
beforeAll(async () => {
  store = await cliStore();
});
afterAll(() => store.cleanup());

describe('gradebook export', () => {
  it('every header of the default layout is unique: the Final category is "Final (cat_final) %"', async () => {
    const header = (await store.ok(['gradebook', 'export', COURSE])).split('\r\n')[0]!.split(',');
    expect(header.filter((h) => h.startsWith('Final'))).toEqual(['Final chart (asg_07)', 'Final (cat_final) %', 'Final %', 'Final Letter']);
    expect(new Set(header).size).toBe(header.length);
  });

  it('--layout registrar: Student ID, Student, Email, Final %, Final Letter, one row per student (override applied)', async () => {
    const res = await store.run(['gradebook', 'export', COURSE, '--layout', 'registrar']);
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
    const piped = await store.ok(['gradebook', 'export', COURSE, '--layout', 'registrar', '--bom']);
    expect(piped.startsWith('\uFEFFStudent ID,Student,')).toBe(true);
    const res = await store.run(['gradebook', 'export', COURSE, '--bom', '--out', 'with-bom.csv'], { cwd: store.dir });
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: 'wrote with-bom.csv\n' });
    const bytes = readFileSync(join(store.dir, 'with-bom.csv'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe(await store.ok(['gradebook', 'export', COURSE]));
    const json = await store.run(['--json', 'gradebook', 'export', COURSE, '--layout', 'registrar', '--bom']);
    const api = await store.run(['--json', 'api', 'GET', `/courses/${COURSE}/gradebook/export?layout=registrar&bom=true`]);
    expect(json.stdout).toBe(api.stdout);
  });

  it('an unknown --layout is invalid naming the parameter (exit 3)', async () => {
    const res = await store.run(['gradebook', 'export', COURSE, '--layout', 'canvas']);
    expect(res).toMatchObject({ code: 3, stdout: '', stderr: 'error (invalid): layout: must be one of "default", "registrar"\n' });
  });
});

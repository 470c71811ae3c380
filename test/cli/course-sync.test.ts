/**
 * `courses pull`, `courses diff`, and the import and block-move changes of #14, in-process
 * with two stores (test/helpers/two-stores.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { authorOffline, cleanupStores, twoStores, withoutRevision } from '../helpers/two-stores.js';

afterEach(cleanupStores);

describe('courses pull', () => {
  it('pulls a course that exists only on the remote: created here with its ids', async () => {
    const s = await twoStores();
    const res = await s.lap(['courses', 'pull', 'crs_other', '--from', 'hub', '--yes']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      ['+ course crs_other "Another course"', '  + module mod_other "Theirs"', `pulled crs_other from ${s.hubKey}: 2 added (local revision 2)`, ''].join('\n'),
    );
    expect(withoutRevision(await s.contentText(s.laptop, 'crs_other'))).toBe(withoutRevision(await s.contentText(s.hub, 'crs_other')));
    expect((await s.lap(['courses', 'pull', 'crs_other', '--from', 'hub', '--yes'])).stdout).toMatch(/^crs_other is up to date with/);
  });

  it('refuses over local edits not pushed yet (exit 6), showing them, and says to push first; that push then goes ahead', async () => {
    const s = await twoStores();
    await authorOffline(s);
    await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    await s.lapOk(['lessons', 'update', 'les_0002', '--minutes', '22']);
    const refused = await s.lap(['courses', 'pull', 'crs_stats', '--from', 'hub', '--yes']);
    expect(refused).toEqual({
      code: 6,
      stdout: '',
      stderr: [
        'Your changes since the last push or pull, which the pull would overwrite (1 changed):',
        '  course crs_stats "Statistics 101"',
        '    module mod_0001 "Describing data"',
        '    ~ lesson les_0002 "Averages" (minutes)',
        'error (conflict): Course crs_stats changed in this store since your last push or pull (revision 12 then, 13 now). Push those changes first, or pull --force to discard them.',
        '',
      ].join('\n'),
    });
    const pushed = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    expect(pushed.code).toBe(0);
    expect(pushed.stdout).toMatch(/~ lesson les_0002 "Averages" \(minutes\)\npushed crs_stats to store:.*: 1 changed \(remote revision 11\)\n$/);
  });

  it('when both sides changed, pull and push are both refused (exit 6) with both changes shown and one advice: push --force or pull --force', async () => {
    const s = await twoStores();
    await authorOffline(s);
    await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    await s.hub.ok(['lessons', 'update', 'les_0001', '--title', 'Welcome!']);
    await s.lapOk(['lessons', 'update', 'les_0002', '--minutes', '22']);
    const decide = `decide which side wins: push --force to overwrite the changes on ${s.hubKey} with this store's, or pull --force to discard this store's.`;
    const local = ['  course crs_stats "Statistics 101"', '    module mod_0001 "Describing data"', '    ~ lesson les_0002 "Averages" (minutes)'];
    const remote = ['  course crs_stats "Statistics 101"', '    module mod_0001 "Describing data"', '    ~ lesson les_0001 "Welcome!" (title)'];
    expect(await s.lap(['courses', 'pull', 'crs_stats', '--from', 'hub', '--yes'])).toEqual({
      code: 6,
      stdout: '',
      stderr: [
        'Your changes since the last push or pull, which the pull would overwrite (1 changed):',
        ...local,
        `The changes on ${s.hubKey} since your last push or pull (1 changed):`,
        ...remote,
        `error (conflict): Course crs_stats changed in this store since your last push or pull (revision 12 then, 13 now). ${s.hubKey} changed it too, so a push is refused as well: ${decide}`,
        '',
      ].join('\n'),
    });
    expect(await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes'])).toEqual({
      code: 6,
      stdout: '',
      stderr: [
        `The changes on ${s.hubKey} since your last push or pull (1 changed):`,
        ...remote,
        'Your changes since the last push or pull (1 changed):',
        ...local,
        `error (conflict): ${s.hubKey} changed course crs_stats since your last push or pull (revision 10 then, 11 now): someone else edited it. This store changed it too, so a pull is refused as well: ${decide}`,
        '',
      ].join('\n'),
    });
    const json = JSON.parse((await s.lap(['--json', 'courses', 'pull', 'crs_stats', '--from', 'hub', '--yes'])).stderr).error.details;
    expect(json.localChanges.lessons.changed).toEqual([{ id: 'les_0002', fields: ['minutes'] }]);
    expect(json.remoteChanges.lessons.changed).toEqual([{ id: 'les_0001', fields: ['title'] }]);
    // --force decides: the pull takes the remote's copy.
    expect((await s.lap(['courses', 'pull', 'crs_stats', '--from', 'hub', '--yes', '--force'])).code).toBe(0);
    const lessons = JSON.parse(await s.contentText(s.laptop)).modules[0].lessons;
    expect(lessons.map((l: { title: string; minutes: number }) => [l.title, l.minutes])).toEqual([
      ['Welcome!', 10],
      ['Averages', 20],
      ['Spread', 25],
    ]);
  });

  it('a local edit undone (the revision moved, the course file did not) is no conflict: the pull goes ahead', async () => {
    const s = await twoStores();
    await authorOffline(s);
    await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    await s.hub.ok(['lessons', 'update', 'les_0001', '--title', 'Welcome!']);
    await s.lapOk(['lessons', 'update', 'les_0002', '--title', 'Tmp']);
    await s.lapOk(['lessons', 'update', 'les_0002', '--title', 'Averages']);
    const pulled = await s.lap(['courses', 'pull', 'crs_stats', '--from', 'hub', '--yes']);
    expect(pulled.stderr).toBe('');
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toMatch(/~ lesson les_0001 "Welcome!" \(title\)\npulled crs_stats from store:.*: 1 changed \(local revision 15\)\n$/);
    expect((await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes'])).stdout).toMatch(/^crs_stats is up to date with/);
  });

  it("a --from profile's acting user that its store does not have is unauthenticated (exit 4), naming the profile", async () => {
    const s = await twoStores();
    const config = join(s.laptop.env.XDG_CONFIG_HOME!, 'coursebook', 'config.json');
    writeFileSync(config, JSON.stringify({ profiles: { 'hub-ghost': { db: s.hub.db, as: 'usr_nobody' } } }));
    expect(await s.lap(['courses', 'pull', 'crs_other', '--from', 'hub-ghost', '--yes'])).toEqual({
      code: 4,
      stdout: '',
      stderr:
        'error (unauthenticated): the profile "hub-ghost" (--from) sets as ("usr_nobody"), a user that does not exist in its store (set another with coursebook config set as USER --name hub-ghost, or remove it with coursebook config unset as --name hub-ghost)\n',
    });
  });

  it('a course the remote does not have (or will not show) is not-found (exit 5); --dry-run writes nothing', async () => {
    const s = await twoStores();
    expect(await s.lap(['courses', 'pull', 'crs_nope', '--from', 'hub', '--yes'])).toEqual({
      code: 5,
      stdout: '',
      stderr: `error (not-found): Course "crs_nope" was not found on ${s.hubKey}.\n`,
    });
    const dry = await s.lap(['courses', 'pull', 'crs_other', '--from', 'hub', '--dry-run']);
    expect(dry.stdout).toMatch(/dry run: pull from .* would make 2 added; nothing changed\n$/);
    expect((await s.lap(['courses', 'show', 'crs_other'])).code).toBe(5);
  });
});

describe('courses diff', () => {
  it('shows what a push would change, and what changed on the remote since the last sync', async () => {
    const s = await twoStores();
    await authorOffline(s);
    const never = await s.lapOk(['courses', 'diff', 'crs_stats', '--to', 'hub']);
    expect(never).toMatch(
      /^local: {2}crs_stats revision \d+\nremote: store:.* has no course crs_stats \(or may not show it to you\)\nnever pushed to or pulled from this remote\na push would make 10 added:\n\+ course crs_stats/,
    );
    // Never synced: no changes "since" on either side.
    expect(JSON.parse(await s.lapOk(['--json', 'courses', 'diff', 'crs_stats', '--to', 'hub']))).toMatchObject({
      remoteRevision: null,
      lastSync: null,
      localChanges: null,
      remoteChanges: null,
      bothChanged: false,
    });
    await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    expect(await s.lapOk(['courses', 'diff', 'crs_stats', '--from', 'hub'])).toMatch(
      /^local: {2}crs_stats revision \d+, unchanged since the last push or pull\nremote: store:.* revision 10, unchanged since the last push or pull\nno differences\n$/,
    );
    // Only the remote changed: its changes, and a push needs --force (it would undo them).
    await s.hub.ok(['modules', 'update', 'mod_0001', '--objective', 'Summarise a data set.']);
    expect(await s.lapOk(['courses', 'diff', 'crs_stats', '--to', 'hub'])).toBe(
      [
        'local:  crs_stats revision 12, unchanged since the last push or pull',
        `remote: ${s.hubKey} revision 11, changed since the last push or pull`,
        'changed on the remote since the last push or pull (1 changed):',
        '  course crs_stats "Statistics 101"',
        '  ~ module mod_0001 "Describing data" (objective)',
        "a push is refused until you pull the remote's changes (or push --force)",
        'a push --force would make 1 changed:',
        '  course crs_stats "Statistics 101"',
        '  ~ module mod_0001 "Describing data" (objective)',
        '',
      ].join('\n'),
    );
  });

  it("shows both sides' changes since the last sync and says when push and pull are both refused; --json carries both plans", async () => {
    const s = await twoStores();
    await authorOffline(s);
    await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    await s.lapOk(['lessons', 'update', 'les_0002', '--title', 'Averages and medians']);
    // Only this copy changed: a push goes ahead, so no refusal is announced.
    expect(await s.lapOk(['courses', 'diff', 'crs_stats', '--to', 'hub'])).toBe(
      [
        'local:  crs_stats revision 13, changed since the last push or pull',
        `remote: ${s.hubKey} revision 10, unchanged since the last push or pull`,
        'changed here since the last push or pull (1 changed):',
        '  course crs_stats "Statistics 101"',
        '    module mod_0001 "Describing data"',
        '    ~ lesson les_0002 "Averages and medians" (title)',
        'a push would make 1 changed:',
        '  course crs_stats "Statistics 101"',
        '    module mod_0001 "Describing data"',
        '    ~ lesson les_0002 "Averages and medians" (title)',
        '',
      ].join('\n'),
    );
    await s.hub.ok(['modules', 'update', 'mod_0001', '--objective', 'Summarise a data set.']);
    const both = await s.lap(['courses', 'diff', 'crs_stats', '--to', 'hub']);
    expect(both).toEqual({
      code: 0,
      stdout: [
        'local:  crs_stats revision 13, changed since the last push or pull',
        `remote: ${s.hubKey} revision 11, changed since the last push or pull`,
        'changed here since the last push or pull (1 changed):',
        '  course crs_stats "Statistics 101"',
        '    module mod_0001 "Describing data"',
        '    ~ lesson les_0002 "Averages and medians" (title)',
        'changed on the remote since the last push or pull (1 changed):',
        '  course crs_stats "Statistics 101"',
        '  ~ module mod_0001 "Describing data" (objective)',
        'both copies changed since the last push or pull, so push and pull are both refused: decide which side wins (push --force or pull --force)',
        'a push --force would make 2 changed:',
        '  course crs_stats "Statistics 101"',
        '  ~ module mod_0001 "Describing data" (objective)',
        '    ~ lesson les_0002 "Averages and medians" (title)',
        '',
      ].join('\n'),
      stderr: '',
    });
    const json = JSON.parse(await s.lapOk(['--json', 'courses', 'diff', 'crs_stats', '--to', 'hub']));
    expect(Object.keys(json)).toEqual([
      'courseId',
      'remote',
      'localRevision',
      'remoteRevision',
      'lastSync',
      'localChanges',
      'remoteChanges',
      'bothChanged',
      'plan',
    ]);
    expect(json).toMatchObject({
      courseId: 'crs_stats',
      remote: s.hubKey,
      localRevision: 13,
      remoteRevision: 11,
      lastSync: { remoteRevision: 10 },
      bothChanged: true,
    });
    expect(json.localChanges.lessons.changed).toEqual([{ id: 'les_0002', fields: ['title'] }]);
    expect(json.remoteChanges.modules.changed).toEqual([{ id: 'mod_0001', fields: ['objective'] }]);
    expect(json.plan.modules.changed).toEqual([{ id: 'mod_0001', fields: ['objective'] }]);
    // An edit undone on the remote is no change there: its revision moved, its file did not.
    await s.hub.ok(['modules', 'update', 'mod_0001', '--objective', '']);
    expect((await s.lapOk(['courses', 'diff', 'crs_stats', '--to', 'hub'])).split('\n')[1]).toBe(
      `remote: ${s.hubKey} revision 12, unchanged since the last push or pull (revision 10 then: an edit undone)`,
    );
  });

  it('a course not in this store is not-found (exit 5); two different remotes are a usage error (exit 2)', async () => {
    const s = await twoStores();
    expect((await s.lap(['courses', 'diff', 'crs_nope', '--to', 'hub'])).code).toBe(5);
    expect(await s.lap(['courses', 'diff', 'crs_nope', '--to', 'hub', '--from', 'hub-inst'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: give the remote once: --to or --from\n',
    });
  });
});

describe('courses import', () => {
  it('an id-less course file imported twice is refused the second time (exit 6) unless --as-new', async () => {
    const s = await twoStores();
    const file = JSON.stringify({ coursebookCourse: 1, course: { title: 'Quick course' }, modules: [{ title: 'Only module' }] });
    const first = JSON.parse(await s.lapOk(['--json', 'courses', 'import', '-'], { input: file }));
    expect(first).toEqual({ courseId: 'crs_0001', modules: 1, lessons: 0, blocks: 0, assignments: 0 });
    expect(await s.lap(['courses', 'import', '-'], { input: file })).toEqual({
      code: 6,
      stdout: '',
      stderr:
        'error (conflict): A course titled "Quick course" already exists (crs_0001); this file has no course id, so importing it would make a second copy. To update that course, push or PUT .../content with its ids; to make another course anyway, import with --as-new (asNew=true).\n',
    });
    expect((await s.lap(['import', '-'], { input: file })).code).toBe(6);
    // (The refused imports drew crs_0002 and crs_0003 before they were refused.)
    const again = JSON.parse(await s.lapOk(['--json', 'courses', 'import', '-', '--as-new'], { input: file }));
    expect(again.courseId).toBe('crs_0004');
    expect(JSON.parse(await s.lapOk(['--json', 'import', '-', '--as-new'], { input: file })).courseId).toBe('crs_0005');
    expect(JSON.parse(await s.lapOk(['--json', 'courses', 'list'])).map((c: { title: string }) => c.title)).toEqual(Array(3).fill('Quick course'));
  });
});

describe('blocks move', () => {
  it('--lesson moves a block into another lesson of the course; both lessons keep contiguous positions', async () => {
    const s = await twoStores();
    await authorOffline(s);
    const moved = JSON.parse(await s.lapOk(['--json', 'blocks', 'move', 'blk_0001', '1', '--lesson', 'les_0002']));
    expect(moved).toMatchObject({ id: 'blk_0001', lessonId: 'les_0002', position: 1 });
    const blocks = async (lesson: string) =>
      JSON.parse(await s.lapOk(['--json', 'blocks', 'list', '--lesson', lesson])).map((b: { id: string; position: number }) => [b.id, b.position]);
    expect(await blocks('les_0001')).toEqual([['blk_0002', 0]]);
    expect(await blocks('les_0002')).toEqual([
      ['blk_0003', 0],
      ['blk_0001', 1],
      ['blk_0004', 2],
    ]);
  });

  it('--lesson naming a lesson of another course, or an instruction block, is invalid (exit 3)', async () => {
    const s = await twoStores();
    await authorOffline(s);
    await s.lapOk(['courses', 'pull', 'crs_other', '--from', 'hub', '--yes']);
    await s.lapOk(['lessons', 'create', '--module', 'mod_other', '--title', 'Theirs', '--minutes', '5']); // les_0004
    expect(await s.lap(['blocks', 'move', 'blk_0001', '0', '--lesson', 'les_0004'])).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error (invalid): --lesson: "les_0004" is not a lesson of this block\'s course\n',
    });
    expect((await s.lap(['blocks', 'move', 'blk_0001', '9', '--lesson', 'les_0002'])).stderr).toBe('error (invalid): position: must be between 0 and 2\n');
  });
});

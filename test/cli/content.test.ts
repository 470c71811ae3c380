import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempHome } from '../helpers/cli.js';

const home = tempHome();
const cb = (args: string[], input?: string) => runCli(['--db', home.db, ...args], { env: home.env, ...(input === undefined ? {} : { input }) });

beforeAll(async () => {
  expect((await cb(['import', join(ROOT, 'docs/examples/course.json')])).code).toBe(0);
  expect((await cb(['users', 'create', '--id', 'stu', '--name', 'Stu Dent'])).code).toBe(0);
  expect((await cb(['enrollments', 'create', '--course', 'crs_stats_intro', '--user', 'stu', '--role', 'student'])).code).toBe(0);
});
afterAll(() => home.cleanup());

describe('content through the CLI', () => {
  it('lessons create needs --minutes when not interactive (exit 2), rejects 241 (exit 3)', async () => {
    const missing = await cb(['lessons', 'create', '--module', 'mod_describe', '--title', 'X']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--minutes/);
    const tooLong = await cb(['lessons', 'create', '--module', 'mod_describe', '--title', 'X', '--minutes', '241']);
    expect(tooLong.code).toBe(3);
    expect(tooLong.stderr).toMatch(/minutes/);
    const ok = await cb(['--json', 'lessons', 'create', '--module', 'mod_describe', '--title', 'Extra', '--minutes', '15']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ title: 'Extra', minutes: 15, position: 2, status: 'draft' });
  });

  it('blocks add from flags, list as TSV, review an AI draft', async () => {
    const add = await cb(['--json', 'blocks', 'create', '--lesson', 'les_welcome', '--type', 'heading', '--level', '2', '--text', 'Next steps']);
    expect(add.code).toBe(0);
    expect(JSON.parse(add.stdout)).toMatchObject({ type: 'heading', level: 2, position: 3 });
    const list = await cb(['blocks', 'list', '--lesson', 'les_welcome']);
    expect(
      list.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[2]),
    ).toEqual(['heading', 'paragraph', 'link', 'heading']);
    const review = await cb(['--json', 'blocks', 'review', 'blk_a10', '--accept']);
    expect(JSON.parse(review.stdout)).toMatchObject({ aiState: 'accepted' });
    expect((await cb(['blocks', 'review', 'blk_a10', '--accept'])).code).toBe(6);
    expect((await cb(['blocks', 'delete', 'blk_w3'])).code).toBe(2);
    expect((await cb(['blocks', 'delete', 'blk_w3', '--yes'])).code).toBe(0);
  });

  it('assignments update: --due none clears; unknown instruction id exits 3; missing assignment exits 5', async () => {
    const cleared = await cb(['--json', 'assignments', 'update', 'asg_summary', '--due', 'none', '--points', '25']);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ dueAt: null, points: 25 });
    const bad = await cb(
      ['assignments', 'update', 'asg_summary', '--instructions-file', '-'],
      JSON.stringify([{ id: 'blk_nope', type: 'paragraph', text: 'x' }]),
    );
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/instructions\[0\]\.id/);
    expect((await cb(['assignments', 'show', 'asg_nope'])).code).toBe(5);
  });

  it('a student submits as themself; the wrong field exits 3; a draft is not-found (5)', async () => {
    expect((await cb(['--as', 'stu', 'submissions', 'create', '--assignment', 'asg_summary', '--file-id', 'f1'])).code).toBe(5);
    expect((await cb(['assignments', 'publish', 'asg_summary'])).code).toBe(0);
    // #14: students see an assignment only while its module is published too.
    expect((await cb(['--as', 'stu', 'submissions', 'create', '--assignment', 'asg_summary', '--file-id', 'f1'])).code).toBe(5);
    expect((await cb(['modules', 'publish', 'mod_describe'])).code).toBe(0);
    const wrong = await cb(['--as', 'stu', 'submissions', 'create', '--assignment', 'asg_summary', '--text', 'hi']);
    expect(wrong.code).toBe(3);
    const ok = await cb(['--as', 'stu', '--json', 'submissions', 'create', '--assignment', 'asg_summary', '--file-id', 'f1']);
    expect(ok.code).toBe(0);
    const sub = JSON.parse(ok.stdout);
    const graded = await cb(['--json', 'submissions', 'grade', sub.id, '--criterion', 'choice=good', '--criterion', 'clarity=none']);
    expect(JSON.parse(graded.stdout).grade.score).toBe(12);
    expect((await cb(['assignments', 'unpublish', 'asg_summary'])).code).toBe(6);
  });
});

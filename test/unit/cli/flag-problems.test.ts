/**
 * An `invalid` answer to a body the CLI made from flags is shown by flag (cli/error-text.ts):
 * which path names which flag, and how a list of problems is restated.
 */
import { describe, expect, it } from 'vitest';
import { errorLines, flagOfField, problemsByFlag, sentencesByFlag } from '../../../src/cli/error-text.js';
import { AppError } from '../../../src/errors.js';

const FLAGS = ['--title <title>', '--due <iso|none>', '--submission-type <type>', '-c, --course <courseId>', '--category <id|none>', '--item <text...>'];

describe('flagOfField', () => {
  const flagOf = flagOfField(FLAGS, { dueAt: '--due', items: '--item' });

  it('a field named like its flag, one declared, and a parent id each name their flag', () => {
    expect(flagOf('title')).toBe('--title');
    expect(flagOf('submissionType')).toBe('--submission-type');
    expect(flagOf('dueAt')).toBe('--due');
    expect(flagOf('courseId')).toBe('--course');
    expect(flagOf('categoryId')).toBe('--category');
  });

  it('an element of a repeated flag is counted from 1st', () => {
    expect(flagOf('items[0]')).toBe('--item (the 1st)');
    expect(flagOf('items[1]')).toBe('--item (the 2nd)');
    expect(flagOf('items[2]')).toBe('--item (the 3rd)');
    expect(flagOf('items[10]')).toBe('--item (the 11th)');
    expect(flagOf('items[21]')).toBe('--item (the 22nd)');
    // A field of the element one value made (`--criterion p1=full` is criteria[0]) is that value's.
    expect(flagOf('items[1].text')).toBe('--item (the 2nd)');
  });

  it('a field no flag sets, a nested path, or a flag the command does not have names nothing', () => {
    expect(flagOf('points')).toBeUndefined();
    expect(flagOf('rubric[0].levels[1].points')).toBeUndefined();
    expect(flagOf('(body)')).toBeUndefined();
    expect(flagOf('moduleId')).toBeUndefined();
  });
});

describe('problemsByFlag', () => {
  const flagOf = flagOfField(FLAGS, { dueAt: '--due' });

  it("one problem keeps the answer's own sentence, under the flag", () => {
    const err = new AppError('invalid', 'categoryId: "cat_x" is not a category (its categories: a, b)', [{ path: 'categoryId', message: 'unknown category' }]);
    const restated = problemsByFlag(err, flagOf) as AppError;
    expect(restated.message).toBe('--category: "cat_x" is not a category (its categories: a, b)');
    expect(restated.details).toEqual([{ path: '--category', message: 'unknown category' }]);
    expect(restated.exitCode).toBe(err.exitCode);
  });

  it("one problem whose answer says something else is the problem's own message", () => {
    const err = new AppError('invalid', '1 problem in the request.', [{ path: 'title', message: 'must not be empty' }]);
    expect((problemsByFlag(err, flagOf) as AppError).message).toBe('--title: must not be empty');
  });

  it('several problems are counted and listed by flag', () => {
    const err = new AppError('invalid', '2 problems in the request.', [
      { path: 'title', message: 'must not be empty' },
      { path: 'dueAt', message: 'must be an RFC 3339 timestamp' },
    ]);
    const restated = problemsByFlag(err, flagOf) as AppError;
    expect(restated.message).toBe('2 problems: --title, --due');
    expect(restated.details).toEqual([
      { path: '--title', message: 'must not be empty' },
      { path: '--due', message: 'must be an RFC 3339 timestamp' },
    ]);
  });

  it('a list with one problem no flag made, another code, or no list is left as it is', () => {
    const mixed = new AppError('invalid', '2 problems in the request.', [
      { path: 'title', message: 'must not be empty' },
      { path: 'points', message: 'must be >= 0' },
    ]);
    expect(problemsByFlag(mixed, flagOf)).toBe(mixed);
    const notFound = new AppError('not-found', 'title: no such thing');
    expect(problemsByFlag(notFound, flagOf)).toBe(notFound);
    const bare = new AppError('invalid', 'title: must not be empty');
    expect(problemsByFlag(bare, flagOf)).toBe(bare);
    const plain = new Error('boom');
    expect(problemsByFlag(plain, flagOf)).toBe(plain);
  });
});

describe('sentencesByFlag', () => {
  const flagOf = flagOfField(['--path <pattern>', '--status <status>', '--code <code>', '--delay <ms>', '--drop'], {
    delayMs: '--delay',
    dropConnection: '--drop',
  });
  const sentences = (name: (field: string) => string) => ({
    needsEffect: `a rule needs an effect: ${name('delayMs')}, ${name('status')} (or ${name('code')}), or ${name('dropConnection')}`,
    forCode: `is required with ${name('code')}`,
  });
  const restate = sentencesByFlag(sentences, flagOf);

  it("says the API's sentence with the flags; any other text is not one of them", () => {
    expect(restate('a rule needs an effect: delayMs, status (or code), or dropConnection')).toBe(
      'a rule needs an effect: --delay, --status (or --code), or --drop',
    );
    expect(restate('is required with code')).toBe('is required with --code');
    expect(restate('must be a status such as 404')).toBeUndefined();
  });

  it('a problem of the whole body is shown by its restated sentence alone; with others, listed after them', () => {
    const root = { path: '(root)', message: 'a rule needs an effect: delayMs, status (or code), or dropConnection' };
    const one = problemsByFlag(new AppError('invalid', `(root): ${root.message}`, [root]), flagOf, restate) as AppError;
    expect(one.message).toBe('a rule needs an effect: --delay, --status (or --code), or --drop');
    expect(errorLines(one)).toEqual(['error (invalid): a rule needs an effect: --delay, --status (or --code), or --drop']);
    const two = problemsByFlag(
      new AppError('invalid', '2 problems', [{ path: 'status', message: 'is required with code' }, root]),
      flagOf,
      restate,
    ) as AppError;
    expect(errorLines(two)).toEqual([
      'error (invalid): 2 problems: --status, a rule needs an effect: --delay, --status (or --code), or --drop',
      '  --status: is required with --code',
      '  a rule needs an effect: --delay, --status (or --code), or --drop',
    ]);
    // The field's problem is said in flags even where the answer had its own sentence for it.
    const field = problemsByFlag(
      new AppError('invalid', 'status: is required with code', [{ path: 'status', message: 'is required with code' }]),
      flagOf,
      restate,
    );
    expect((field as AppError).message).toBe('--status: is required with --code');
  });

  it('a problem of the whole body that is not one of the sentences leaves the answer as it is', () => {
    const err = new AppError('invalid', '(root): must be an object', [{ path: '(root)', message: 'must be an object' }]);
    expect(problemsByFlag(err, flagOf, restate)).toBe(err);
    expect(problemsByFlag(err, flagOf)).toBe(err);
  });
});

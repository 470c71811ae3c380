/**
 * An `invalid` answer to a body the CLI made from flags is shown by flag (cli/error-text.ts):
 * which path names which flag, and how a list of problems is restated.
 */
import { describe, expect, it } from 'vitest';
import { flagOfField, problemsByFlag } from '../../../src/cli/error-text.js';
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

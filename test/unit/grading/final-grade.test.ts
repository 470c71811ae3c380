import { describe, expect, it } from 'vitest';
import { finalGrade } from '../../../src/domain/grading/index.js';
import { setupWith } from './fixtures.js';

const scheme = setupWith().scheme; // the standard bands: A- from 90, B+ from 87

describe('the final grade rule', () => {
  it('is the calculated grade without an override', () => {
    expect(finalGrade({ calculatedPercent: 88, override: null, scheme })).toEqual({ overridePercent: null, finalPercent: 88, finalLetter: 'B+' });
    expect(finalGrade({ calculatedPercent: null, override: null, scheme })).toEqual({ overridePercent: null, finalPercent: null, finalLetter: null });
  });

  it('rounds an override percent half-up to tenths by its digits and takes the letter from the rounded value', () => {
    expect(finalGrade({ calculatedPercent: 50, override: { percent: 89.96, letter: null }, scheme })).toEqual({
      overridePercent: 90,
      finalPercent: 90,
      finalLetter: 'A-',
    });
    expect(finalGrade({ calculatedPercent: 50, override: { percent: 89.95, letter: null }, scheme })).toEqual({
      overridePercent: 90,
      finalPercent: 90,
      finalLetter: 'A-',
    });
    expect(finalGrade({ calculatedPercent: 50, override: { percent: 89.94, letter: null }, scheme })).toEqual({
      overridePercent: 89.9,
      finalPercent: 89.9,
      finalLetter: 'B+',
    });
  });

  it('a letter override wins; without an override percent the calculated percent stays', () => {
    expect(finalGrade({ calculatedPercent: 50, override: { percent: 89.96, letter: 'C' }, scheme })).toEqual({
      overridePercent: 90,
      finalPercent: 90,
      finalLetter: 'C',
    });
    expect(finalGrade({ calculatedPercent: 50, override: { percent: null, letter: 'C' }, scheme })).toEqual({
      overridePercent: null,
      finalPercent: 50,
      finalLetter: 'C',
    });
  });
});

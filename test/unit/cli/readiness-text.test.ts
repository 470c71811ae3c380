/**
 * `readiness show` as a person reads it: what blocks publishing is said with what there is
 * to go on. The report names the blocking items; the template's floor is the course's, so
 * the text gives the percent that fell short of it and where the floor is shown.
 */
import { describe, expect, it } from 'vitest';
import { describeReport } from '../../../src/commands/readiness.js';
import { computeReadiness, DEFAULT_RUBRIC, type ReadinessInput } from '../../../src/domain/readiness/index.js';

const NOW = '2026-11-22T12:00:00.000Z';
const ATTESTED = ['1.3', '2.2', '4.1', '5.1', '7.1'].map((itemId) => ({ itemId, status: 'attested' as const, by: 'u', byName: 'U', note: '', at: NOW }));

/** No modules, lessons or assignments, every human item attested but 5.1 (not essential): ready, below 100%. */
const input = (accessFloor: number | null): ReadinessInput => ({
  rubric: DEFAULT_RUBRIC,
  course: { id: 'c', title: 'C', description: Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '), objectives: [] },
  modules: [],
  lessons: [],
  blocks: [],
  assignments: [],
  openSetupChecks: [],
  findings: [],
  attestations: ATTESTED.filter((a) => a.itemId !== '5.1'),
  now: NOW,
  accessFloor,
});

describe('readiness show: the line about publishing', () => {
  it('names the blocking items and the floor with the percent that fell short of it, both when both block', () => {
    const line = (floor: number | null, known = true) => describeReport(computeReadiness(input(floor)), false, known ? floor : null).split('\n')[1];
    const report = computeReadiness(input(100));
    expect(report.percent).toBeLessThan(100);
    expect(line(null)).toBe('Ready to publish.');
    expect(line(100)).toBe(`Publishing is blocked by the template's readiness floor of 100% (readiness is ${report.percent}%).`);
    // The floor unknown (the course could not be read): still said, with where to find it.
    expect(line(100, false)).toBe(`Publishing is blocked by the template's readiness floor: ${report.percent}% is below it (courses show names the floor).`);
    const both = input(100);
    both.attestations = both.attestations.filter((a) => a.itemId !== '7.1');
    const text = describeReport(computeReadiness(both), false, 100).split('\n')[1];
    expect(text).toMatch(/^Publishing is blocked by essential items 7\.1, and by the template's readiness floor of 100% \(readiness is [\d.]+%\)\.$/);
  });

  it('under a fix that one command makes, shows that command for its target', () => {
    const withWork: ReadinessInput = {
      ...input(null),
      modules: [{ id: 'm1', title: 'One', objective: 'Explain X.', position: 0 }],
      assignments: [{ id: 'asg_1', moduleId: 'm1', title: 'Essay', position: 0, status: 'published', points: 10, dueAt: null, rubric: [], instructions: [] }],
    };
    const text = describeReport(computeReadiness(withWork), false);
    expect(text).toContain(
      '        fix: Add a rubric. (assignment asg_1)\n             coursebook assignments rubric create --assignment asg_1 --title TITLE --level "Meets=POINTS" --level "Not yet=0"\n',
    );
    expect(text).toContain('             coursebook assignments update asg_1 --due YYYY-MM-DDTHH:MM:SSZ\n');
    expect(text).toContain('             coursebook assignments instructions create --assignment asg_1 --type paragraph --text TEXT\n');
  });
});

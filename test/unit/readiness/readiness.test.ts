import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertPublishable,
  blockingItemNumbers,
  computeReadiness,
  DEFAULT_RUBRIC,
  type ReadinessInput,
  roundHalfUp1,
} from '../../../src/domain/readiness/index.js';
import { AppError } from '../../../src/errors.js';
import type { StoredBlockValue } from '../../../src/schemas/content.js';

const NOW = '2026-11-22T12:00:00.000Z';
let n = 0;
/** A stored block of any type; the fields given are the type's own (tests build wrong ones on purpose). */
const block = (lessonId: string | null, type: string, fields: Record<string, unknown> = {}, position = 0) =>
  ({
    id: `b${++n}`,
    lessonId,
    position,
    type,
    aiState: null as 'draft' | null,
    origin: 'human',
    ...fields,
  }) as StoredBlockValue;
const DESCRIPTION = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');

/** A course where every automatic item is met. */
function good(): ReadinessInput {
  n = 0;
  return {
    rubric: DEFAULT_RUBRIC,
    course: { id: 'c', title: 'C', description: DESCRIPTION, objectives: [] },
    modules: [{ id: 'm1', title: 'One', objective: 'Explain X.', position: 0 }],
    lessons: [{ id: 'l1', moduleId: 'm1', title: 'Intro', position: 0, status: 'draft' }],
    blocks: [
      block('l1', 'heading', { level: 1, text: 'Intro' }, 0),
      block('l1', 'heading', { level: 2, text: 'Part' }, 1),
      block('l1', 'image', { url: 'x.png', alt: 'A chart', decorative: false }, 2),
      block('l1', 'video', { url: 'https://v', captions: 'https://v.vtt', durationSeconds: 3 }, 3),
      block('l1', 'link', { url: 'https://help.example', text: 'Help centre' }, 4),
      block('l1', 'embed', { url: 'https://e', title: 'E', privacyUrl: 'https://e/privacy' }, 5),
    ],
    assignments: [
      {
        id: 'a1',
        moduleId: 'm1',
        title: 'Essay',
        position: 0,
        status: 'published',
        points: 10,
        dueAt: NOW,
        rubric: [{ id: 'r1', title: 'Argument', description: 'Makes a case.', levels: [] }],
        instructions: [block(null, 'paragraph', { text: 'Write.' }, 0)],
      },
    ],
    openSetupChecks: [],
    findings: [],
    attestations: [],
    accessFloor: null,
    now: NOW,
  };
}

const itemOf = (input: ReadinessInput, id: string) =>
  computeReadiness(input)
    .standards.flatMap((s) => s.items)
    .find((i) => i.itemId === id)!;

describe('automatic items', () => {
  it('all are met on a sound course', () => {
    const report = computeReadiness(good());
    const automatic = report.standards.flatMap((s) => s.items).filter((i) => i.kind === 'automatic');
    expect(automatic.map((i) => `${i.number}:${i.status}`)).toEqual(automatic.map((i) => `${i.number}:met`));
  });

  const cases: [string, string, (x: ReadinessInput) => void, RegExp, Record<string, unknown>][] = [
    ['1.1', 'first module has no lessons', (x) => void (x.lessons = []), /has no lessons/, { kind: 'module', moduleId: 'm1' }],
    [
      '1.1',
      'first lesson has only a divider',
      (x) => void (x.blocks = [block('l1', 'divider', {}, 0)]),
      /first lesson, has no content/,
      { kind: 'lesson', lessonId: 'l1' },
    ],
    ['1.2', 'short description', (x) => void (x.course.description = 'Too short.'), /has 2 words/, { kind: 'course' }],
    ['2.1', 'module without objective', (x) => void (x.modules[0]!.objective = '  '), /states no objective/, { kind: 'module', moduleId: 'm1' }],
    [
      '3.1',
      'open gradebook check',
      (x) => void (x.openSetupChecks = [{ code: 'late-no-cap', target: 'late', message: 'No cap.' }]),
      /late-no-cap/,
      { kind: 'gradebook' },
    ],
    ['3.2', 'graded assignment without rubric', (x) => void (x.assignments[0]!.rubric = []), /no rubric/, { kind: 'assignment', assignmentId: 'a1' }],
    ['3.3', 'published assignment without due date', (x) => void (x.assignments[0]!.dueAt = null), /no due date/, { kind: 'assignment', assignmentId: 'a1' }],
    [
      '3.4',
      'assignment without instructions',
      (x) => void (x.assignments[0]!.instructions = []),
      /no instructions/,
      { kind: 'assignment', assignmentId: 'a1' },
    ],
    [
      '4.2',
      'empty lesson',
      (x) => void x.lessons.push({ id: 'l2', moduleId: 'm1', title: 'Empty', position: 1, status: 'draft' }),
      /"Empty".*has no content/,
      { kind: 'lesson', lessonId: 'l2' },
    ],
    ['6.1', 'AI block in draft', (x) => void (x.blocks[1]!.aiState = 'draft'), /not been reviewed/, { kind: 'block', lessonId: 'l1', blockId: 'b2' }],
    [
      '6.1',
      'AI instruction block in draft',
      (x) => void (x.assignments[0]!.instructions[0]!.aiState = 'draft'),
      /Assignment "Essay": instruction block 1/,
      { kind: 'block', lessonId: null, assignmentId: 'a1' },
    ],
    ['6.2', 'embed without privacy link', (x) => void (x.blocks[5]!.privacyUrl = null), /privacy statement/, { kind: 'block', blockId: 'b6' }],
    ['8.1', 'first heading level 3', (x) => void (x.blocks[0]!.level = 3), /first heading, is level 3/, { kind: 'block', blockId: 'b1' }],
    ['8.1', 'skipped level', (x) => void (x.blocks[1]!.level = 3), /level 3 heading after a level 1/, { kind: 'block', blockId: 'b2' }],
    ['8.2', 'image without alt', (x) => void (x.blocks[2]!.alt = ' '), /no alt text/, { kind: 'block', blockId: 'b3' }],
    ['8.3', 'video without captions', (x) => void (x.blocks[3]!.captions = null), /without captions/, { kind: 'block', blockId: 'b4' }],
    ['8.4', '"Click here."', (x) => void (x.blocks[4]!.text = 'Click here.'), /does not say where it goes/, { kind: 'block', blockId: 'b5' }],
    ['8.4', 'bare URL', (x) => void (x.blocks[4]!.text = 'https://help.example'), /does not say where it goes/, { kind: 'block', blockId: 'b5' }],
  ];
  for (const [number, name, change, evidence, target] of cases) {
    it(`${number} not met: ${name}`, () => {
      const input = good();
      change(input);
      const item = itemOf(input, number);
      expect(item.status).toBe('not-met');
      expect(item.evidence).toHaveLength(1);
      expect(item.evidence[0]).toMatch(evidence);
      expect(item.fixes[0]!.target).toMatchObject(target);
      expect(item.fixes[0]!.label.length).toBeGreaterThan(5);
    });
  }

  it('a decorative image needs no alt text; a going-up heading level is fine', () => {
    const input = good();
    input.blocks[2]!.alt = '';
    input.blocks[2]!.decorative = true;
    input.blocks.push(block('l1', 'heading', { level: 1, text: 'Back up' }, 6));
    expect(itemOf(input, '8.2').status).toBe('met');
    expect(itemOf(input, '8.1').status).toBe('met');
  });

  const notApplicable: [string, (x: ReadinessInput) => void][] = [
    ['1.1', (x) => void ((x.modules = []), (x.lessons = []), (x.assignments = []))],
    ['2.1', (x) => void ((x.modules = []), (x.lessons = []), (x.assignments = []))],
    ['2.2', (x) => void ((x.modules = []), (x.lessons = []), (x.assignments = []))],
    ['3.2', (x) => void (x.assignments[0]!.points = 0)],
    ['3.3', (x) => void (x.assignments[0]!.status = 'draft')],
    ['3.4', (x) => void (x.assignments = [])],
    ['4.2', (x) => void ((x.lessons = []), (x.blocks = []))],
    ['6.2', (x) => void x.blocks.splice(5, 1)],
    ['8.1', (x) => void x.blocks.splice(0, 2)],
    ['8.2', (x) => void x.blocks.splice(2, 1)],
    ['8.3', (x) => void x.blocks.splice(3, 1)],
    ['8.4', (x) => void x.blocks.splice(4, 1)],
  ];
  for (const [number, change] of notApplicable) {
    it(`${number} not applicable`, () => {
      const input = good();
      change(input);
      expect(itemOf(input, number).status).toBe('not-applicable');
    });
  }

  it('1.2, 3.1 and 6.1 always apply', () => {
    const input = good();
    input.modules = [];
    input.lessons = [];
    input.blocks = [];
    input.assignments = [];
    for (const id of ['1.2', '3.1', '6.1']) expect(itemOf(input, id).status).not.toBe('not-applicable');
  });
});

describe('status precedence', () => {
  const attest = (itemId: string) => ({ itemId, status: 'attested' as const, by: 'u', byName: 'U', note: 'n', at: NOW });
  const finding = (state: 'draft' | 'accepted' | 'rejected', verdict: 'met' | 'not-met' = 'met') => ({
    itemId: '2.2',
    verdict,
    evidence: 'e',
    suggestion: '',
    provenance: null,
    state,
    reviewedBy: null,
    reviewedAt: null,
    reviewedByName: null,
  });

  it('not applicable beats an attestation', () => {
    const input = good();
    input.blocks.splice(3, 1);
    input.attestations = [attest('8.3')];
    expect(itemOf(input, '8.3').status).toBe('not-applicable');
  });

  it('an attestation beats an automatic result', () => {
    const input = good();
    input.course.description = 'Short.';
    input.attestations = [attest('1.2')];
    const item = itemOf(input, '1.2');
    expect(item.status).toBe('attested');
    expect(item.attestation).toEqual({ status: 'attested', by: 'u', byName: 'U', note: 'n', at: NOW });
  });

  it('ai items: accepted -> verdict; draft -> likely-*; rejected counts as no finding', () => {
    const input = good();
    input.findings = [finding('accepted', 'not-met')];
    expect(itemOf(input, '2.2').status).toBe('not-met');
    input.findings = [finding('draft')];
    expect(itemOf(input, '2.2').status).toBe('likely-met');
    input.findings = [finding('draft', 'not-met')];
    expect(itemOf(input, '2.2').status).toBe('likely-not-met');
    input.findings = [finding('rejected')];
    expect(itemOf(input, '2.2').status).toBe('pending');
    input.attestations = [attest('2.2')];
    expect(itemOf(input, '2.2').status).toBe('attested');
  });

  it('human items are pending until attested', () => {
    expect(itemOf(good(), '1.3').status).toBe('pending');
  });
});

describe('standards and report', () => {
  it('counts, percent, needsReview and standard statuses', () => {
    const input = good();
    input.findings = [
      {
        itemId: '2.2',
        verdict: 'met',
        evidence: 'e',
        suggestion: '',
        provenance: null,
        state: 'draft',
        reviewedBy: null,
        reviewedAt: null,
        reviewedByName: null,
      },
    ];
    const report = computeReadiness(input);
    // applicable: all 19 items (every automatic one applies on the sound course); met: the 14 automatic ones
    expect(report).toMatchObject({ applicable: 19, met: 14, needsReview: 1, percent: 73.7, computedAt: NOW, rubricId: 'course-essentials' });
    const s2 = report.standards.find((s) => s.number === '2')!;
    expect(s2).toMatchObject({ met: 1, applicable: 2, status: 'needs-review' });
    expect(report.standards.find((s) => s.number === '1')).toMatchObject({ met: 2, applicable: 3, status: 'not-met' });
    expect(report.standards.find((s) => s.number === '8')).toMatchObject({ met: 4, applicable: 4, status: 'met' });
  });

  it('a standard with no applicable items is not-applicable; an empty report is 100%', () => {
    const rubric = { ...DEFAULT_RUBRIC, standards: [DEFAULT_RUBRIC.standards[7]!] };
    const input = { ...good(), rubric, blocks: [] };
    const report = computeReadiness(input);
    expect(report).toMatchObject({ applicable: 0, met: 0, percent: 100 });
    expect(report.standards[0]!.status).toBe('not-applicable');
  });

  it('percent rounds half-up exactly', () => {
    expect(roundHalfUp1(2, 3)).toBe(66.7);
    expect(roundHalfUp1(1, 8)).toBe(12.5);
    expect(roundHalfUp1(1, 3)).toBe(33.3);
    expect(roundHalfUp1(1, 16)).toBe(6.3); // 6.25 -> 6.3
    expect(roundHalfUp1(0, 5)).toBe(0);
  });

  it('blocksPublishing: an essential item not met, or pending; not a non-essential one', () => {
    const allHuman = (input: ReadinessInput) =>
      void (input.attestations = ['1.3', '2.2', '4.1', '5.1', '7.1'].map((itemId) => ({
        itemId,
        status: 'attested' as const,
        by: 'u',
        byName: 'U',
        note: '',
        at: NOW,
      })));
    const ready = good();
    allHuman(ready);
    expect(computeReadiness(ready).blocksPublishing).toBe(false);
    const essential = good();
    allHuman(essential);
    essential.course.description = 'Short.';
    const report = computeReadiness(essential);
    expect(report.blocksPublishing).toBe(true);
    expect(blockingItemNumbers(report, DEFAULT_RUBRIC)).toEqual(['1.2']);
    const pendingHuman = good();
    expect(blockingItemNumbers(computeReadiness(pendingHuman), DEFAULT_RUBRIC)).toEqual(['2.2', '4.1', '7.1']);
    const minor = good();
    allHuman(minor);
    minor.assignments[0]!.dueAt = null; // 3.3 is not essential
    expect(computeReadiness(minor).blocksPublishing).toBe(false);
  });

  it("blocksPublishing: a template's accessFloor above percent blocks; equal does not", () => {
    const input = good();
    input.attestations = ['1.3', '2.2', '4.1', '5.1', '7.1'].map((itemId) => ({
      itemId,
      status: 'attested' as const,
      by: 'u',
      byName: 'U',
      note: '',
      at: NOW,
    }));
    input.assignments[0]!.dueAt = null; // 18/19 = 94.7%
    expect(computeReadiness({ ...input, accessFloor: 94.7 }).blocksPublishing).toBe(false);
    expect(computeReadiness({ ...input, accessFloor: 94.8 }).blocksPublishing).toBe(true);
  });

  it('the publish gate names everything that blocks: the items, the floor, or both (so one round of fixes clears it)', () => {
    const refusal = (input: ReadinessInput, floor: number | null) => {
      try {
        assertPublishable(computeReadiness({ ...input, accessFloor: floor }), DEFAULT_RUBRIC, floor);
        return null;
      } catch (err) {
        return err instanceof AppError ? { code: err.code, message: err.message, details: err.details } : err;
      }
    };
    const pending = good(); // 1.3, 2.2, 4.1, 5.1 and 7.1 pending: 14/19 = 73.7%
    expect(computeReadiness(pending).percent).toBe(73.7);
    expect(refusal(pending, null)).toEqual({
      code: 'not-ready',
      message: 'The course is not ready to publish: essential items 2.2, 4.1, 7.1 are not met.',
      details: { blocking: ['2.2', '4.1', '7.1'] },
    });
    expect(refusal(pending, 80)).toEqual({
      code: 'not-ready',
      message: "The course is not ready to publish: essential items 2.2, 4.1, 7.1 are not met; and readiness 73.7% is below the template's floor of 80%.",
      details: { blocking: ['2.2', '4.1', '7.1'], accessFloor: 80, percent: 73.7 },
    });
    const attested = good();
    attested.attestations = ['1.3', '2.2', '4.1', '5.1', '7.1'].map((itemId) => ({
      itemId,
      status: 'attested' as const,
      by: 'u',
      byName: 'U',
      note: '',
      at: NOW,
    }));
    attested.assignments[0]!.dueAt = null; // 94.7%
    expect(refusal(attested, 95)).toEqual({
      code: 'not-ready',
      message: "The course is not ready to publish: readiness 94.7% is below the template's floor of 95%.",
      details: { blocking: [], accessFloor: 95, percent: 94.7 },
    });
    expect(refusal(attested, 94.7)).toBeNull();
  });

  it('properties: met <= applicable, percent within 0..100, attesting never lowers met', () => {
    const ids = DEFAULT_RUBRIC.standards.flatMap((s) => s.items.map((i) => i.itemId));
    fc.assert(
      fc.property(fc.subarray(ids), fc.boolean(), fc.boolean(), (attested, shortDescription, noDue) => {
        const input = good();
        if (shortDescription) input.course.description = 'x';
        if (noDue) input.assignments[0]!.dueAt = null;
        const before = computeReadiness(input);
        const after = computeReadiness({
          ...input,
          attestations: attested.map((itemId) => ({ itemId, status: 'attested' as const, by: 'u', byName: 'U', note: '', at: NOW })),
        });
        expect(after.met).toBeLessThanOrEqual(after.applicable);
        expect(after.percent).toBeGreaterThanOrEqual(0);
        expect(after.percent).toBeLessThanOrEqual(100);
        expect(after.met).toBeGreaterThanOrEqual(before.met);
      }),
      { numRuns: 200 },
    );
  });
});

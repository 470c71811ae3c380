/**
 * Bulk template updates: the checks before anything is sent (patch fields, --where fields,
 * "did you mean") and the nested diff of the preview.
 */
import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../../src/domain/did-you-mean.js';
import { checkTemplatePatch, unknownWhereFields } from '../../../src/domain/templates/bulk.js';
import { diffText, templateDiff } from '../../../src/domain/templates/diff.js';
import { buildPatch } from '../../../src/domain/templates/templates.js';
import { fieldPaths, knownFieldsOnly, normalizePath } from '../../../src/schemas/field-paths.js';
import { TemplateUpdate } from '../../../src/schemas/templates.js';

describe('editDistance and closestName', () => {
  it('hand-worked distances', () => {
    expect(editDistance('accesFloor', 'accessFloor')).toBe(1); // one insertion
    expect(editDistance('acessFlor', 'accessFloor')).toBe(2);
    expect(editDistance('nmae', 'name')).toBe(1); // one swap of neighbours
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('suggests within 2 edits (or a third of a long name), ignoring case; ties go to the first', () => {
    expect(closestName('accesFloor', ['name', 'accessFloor'])).toBe('accessFloor');
    expect(closestName('ACCESSFLOOR', ['accessFloor'])).toBe('accessFloor');
    expect(closestName('colour', ['name', 'description', 'owner'])).toBeUndefined();
    expect(closestName('tutorDefaultz.lessonz', ['tutorDefaults.lesson'])).toBe('tutorDefaults.lesson'); // 2 edits in 21 characters
    expect(closestName('ab', ['ac', 'ad'])).toBe('ac');
  });
});

describe('fieldPaths', () => {
  it('walks objects, union options and array items', () => {
    const paths = fieldPaths(TemplateUpdate);
    expect(paths).toEqual(
      expect.arrayContaining(['name', 'owner', 'owner.kind', 'owner.userId', 'tutorDefaults.lesson', 'modules', 'modules[].lessons[].minutes']),
    );
    expect(paths).not.toContain('id');
    expect(normalizePath('modules.0.lessons[12].title')).toBe('modules[].lessons[].title');
  });
});

describe('knownFieldsOnly', () => {
  it('keeps the fields the schema knows, through arrays, union options and optional wrappers', () => {
    const stored = {
      id: 't',
      owner: { kind: 'user', userId: 'u1' },
      modules: [{ key: 'a', title: 'A', placement: 'end', objective: '', lessons: [{ key: 'l', title: 'L', minutes: 5, blocks: [], extra: 1 }] }],
      updatedAt: '2026-01-01T00:00:00Z',
    };
    expect(knownFieldsOnly(TemplateUpdate, stored)).toEqual({
      owner: { kind: 'user', userId: 'u1' },
      modules: [{ key: 'a', title: 'A', objective: '', lessons: [{ key: 'l', title: 'L', minutes: 5, blocks: [] }] }],
    });
    expect(knownFieldsOnly(TemplateUpdate, 'text')).toBe('text');
  });
});

describe('buildPatch', () => {
  const stored = {
    id: 't',
    name: 'T',
    tutorDefaults: { lesson: 'off', assignment: 'off' },
    modules: [
      { key: 'a', title: 'A', placement: 'end', objective: '', lessons: [{ key: 'l', title: 'L', minutes: 5, blocks: [] }] },
      { key: 'b', title: 'B', placement: 'start', objective: '', lessons: [] },
    ],
  };

  it('a dotted --set into modules starts from the stored list without the read-only placement', () => {
    const patch = buildPatch(stored, {}, [['modules.0.lessons.0.minutes', 20]]);
    expect(patch).toEqual({
      modules: [
        { key: 'a', title: 'A', objective: '', lessons: [{ key: 'l', title: 'L', minutes: 20, blocks: [] }] },
        { key: 'b', title: 'B', objective: '', lessons: [] },
      ],
    });
    expect(checkTemplatePatch(patch).ok).toBe(true);
    expect(stored.modules[0]!.lessons[0]!.minutes).toBe(5);
  });

  it("what the user gives is sent as given: a file's modules, an undotted --set", () => {
    const file = { modules: [{ key: 'x', title: 'X', placement: 'end' }] };
    expect(buildPatch(stored, file, [['modules.0.title', 'Y']])).toEqual({ modules: [{ key: 'x', title: 'Y', placement: 'end' }] });
    expect(
      buildPatch(stored, {}, [
        ['tutorDefaults.lesson', 'on'],
        ['accessFloor', 80],
      ]),
    ).toEqual({
      tutorDefaults: { lesson: 'on', assignment: 'off' },
      accessFloor: 80,
    });
  });
});

describe('checkTemplatePatch', () => {
  it('answers the patch as the service reads it, defaults applied', () => {
    expect(checkTemplatePatch({ accessFloor: 80 })).toEqual({ ok: true, patch: { accessFloor: 80 } });
    expect(checkTemplatePatch({ modules: [{ key: 'k', title: 'T' }] })).toEqual({
      ok: true,
      patch: { modules: [{ key: 'k', title: 'T', objective: '', lessons: [] }] },
    });
  });

  it('lists problems as the API does; an unknown field names the field it meant, also inside arrays', () => {
    expect(checkTemplatePatch({ accesFloor: 80, accessFloor: 180 })).toEqual({
      ok: false,
      problems: [
        { path: 'accessFloor', message: 'must be <= 100' },
        { path: 'accesFloor', message: 'unknown field; did you mean accessFloor?' },
      ],
    });
    expect(checkTemplatePatch({ modules: [{ key: 'k', titel: 'T' }] })).toMatchObject({
      ok: false,
      problems: expect.arrayContaining([{ path: 'modules[0].titel', message: 'unknown field; did you mean modules[].title?' }]),
    });
    expect(checkTemplatePatch({ colour: 'red' })).toEqual({ ok: false, problems: [{ path: 'colour', message: 'unknown field' }] });
  });
});

describe('unknownWhereFields', () => {
  it('knows every template field, nested ones and paths into arrays', () => {
    expect(unknownWhereFields(['owner.kind', 'id', 'updatedBy', 'modules.0.key', 'tutorDefaults.assignment'])).toEqual([]);
    expect(unknownWhereFields(['owner.knd', 'accesFloor', 'colour'])).toEqual([
      'unknown field "owner.knd"; did you mean owner.kind?',
      'unknown field "accesFloor"; did you mean accessFloor?',
      'unknown field "colour"',
    ]);
  });
});

describe('templateDiff', () => {
  const template = {
    id: 't',
    name: 'T',
    accessFloor: 60,
    tutorDefaults: { lesson: 'off', assignment: 'off' },
    modules: [
      {
        key: 'a',
        title: 'A',
        placement: 'start',
        objective: '',
        lessons: [
          { key: 'l1', title: 'L1', minutes: 10, blocks: [{ key: 'b1', label: 'One', content: { type: 'divider' } }] },
          { key: 'l2', title: 'L2', minutes: 5, blocks: [] },
        ],
      },
      { key: 'b', title: 'B', placement: 'end', objective: '', lessons: [{ key: 'l3', title: 'L3', minutes: 1, blocks: [] }] },
    ],
  };

  it('scalars and object leaves; unchanged fields are left out', () => {
    expect(diffText(templateDiff(template, { accessFloor: 80, name: 'T', tutorDefaults: { lesson: 'on', assignment: 'off' } }))).toEqual([
      'accessFloor: 60 -> 80',
      'tutorDefaults.lesson: "off" -> "on"',
    ]);
  });

  it('modules, lessons and blocks removed, added, changed and reordered', () => {
    const patch = {
      modules: [
        {
          key: 'a',
          title: 'A',
          objective: '',
          lessons: [
            { key: 'l2', title: 'L2', minutes: 5, blocks: [] },
            { key: 'l1', title: 'L1', minutes: 10, blocks: [{ key: 'b1', label: 'One', content: { type: 'heading', level: 2, text: 'x' } }] },
          ],
        },
        { key: 'c', title: 'C', objective: '', lessons: [] },
      ],
    };
    expect(diffText(templateDiff(template, patch))).toEqual([
      'modules:',
      '  - module b "B" (1 lesson, 0 blocks)',
      '  ~ module a',
      '    ~ lesson l1',
      '      ~ block b1: content changed',
      '    ~ lesson order: l1, l2 -> l2, l1',
      '  + module c "C"',
    ]);
  });

  it('a field one side does not have reads (none)', () => {
    expect(diffText(templateDiff({ owner: { kind: 'institution' } }, { owner: { kind: 'user', userId: 'u1' } }))).toEqual([
      'owner.kind: "institution" -> "user"',
      'owner.userId: (none) -> "u1"',
    ]);
    expect(diffText(templateDiff({ owner: { kind: 'user', userId: 'u1' } }, { owner: { kind: 'institution' } }))).toEqual([
      'owner.kind: "user" -> "institution"',
      'owner.userId: "u1" -> (none)',
    ]);
  });

  it('placement is the service own and does not count as a change', () => {
    const same = template.modules.map(({ placement: _p, ...m }) => m);
    expect(templateDiff(template, { modules: same })).toEqual([]);
  });
});

/**
 * gradebook setup late|missing|extra-credit|mode and gradebook scheme set (issue #13):
 * every part of the setup from flags, so no instructor needs the JSON. Each reads the
 * setup, changes its part and PUTs it back at the version read.
 */

import type { ParentDef } from '../cli/command.js';
import { type CommandContext, type CommandResult, defineCommands, numberOption, UsageError } from '../cli/command.js';
import {
  expectedVersionOption,
  extraCreditText,
  lateText,
  missingText,
  numberOrNone,
  readSetup,
  SETUP_DOC,
  type Setup,
  saveSetup,
  schemeText,
  weightsNote,
} from './gradebook-setup-change.js';

/** The setup's parts belong to a course (the positional course id of 0.1 still works, with a note). */
const inCourse: ParentDef[] = [{ kind: 'course', positional: true }];
const seeDoc = `Every setup field, its limits and an example: ${SETUP_DOC}`;

/** Read, change one part, save at the version read; answer the part as a row. */
async function change(
  ctx: CommandContext,
  courseId: string,
  opts: Record<string, unknown>,
  edit: (setup: Setup) => Setup,
  flags: Record<string, string>,
  shown: (setup: Setup) => Record<string, unknown>,
): Promise<CommandResult> {
  const expectedVersion = numberOption(opts.expectedVersion, '--expected-version');
  const setup = await readSetup(ctx, courseId);
  const response = await saveSetup(ctx, courseId, setup, edit(setup), { expectedVersion, flagOf: (path) => flags[path] });
  const note = weightsNote(response.data);
  if (note && response.data.mode !== setup.mode) ctx.note(note);
  return { kind: 'api', response, rows: (d) => [{ version: (d as Setup).version, ...shown(d as Setup) }] };
}

const nothingGiven = (values: Record<string, unknown>, flags: string) => {
  if (Object.values(values).every((v) => v === undefined)) throw new UsageError(`nothing to change: give at least one of ${flags}`);
};

export const gradebookPoliciesCommands = defineCommands([
  {
    name: 'gradebook setup late',
    description: 'The late policy: a deduction per day or hour late, capped or not, after a grace period',
    parents: inCourse,
    options: [
      { flags: '--on', description: 'deduct for late work' },
      { flags: '--off', description: 'no late deduction (grace still delays "missing")' },
      { flags: '--percent <n>', description: 'percent deducted per period, 0 to 100' },
      { flags: '--period <day|hour>', description: 'what one period late is' },
      { flags: '--basis <possible|score>', description: "the percent is of the item's points (possible) or of the score" },
      { flags: '--max-periods <n|none>', description: 'periods counted at most, or none for no cap' },
      { flags: '--after-max <hold-at-max|missing>', description: 'past the cap: keep the maximum deduction, or count the work as missing (0)' },
      { flags: '--grace <minutes>', description: 'minutes after the due date before work is late (0 to 525600)' },
      expectedVersionOption,
    ],
    help: seeDoc,
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      if (opts.on && opts.off) throw new UsageError('give --on or --off, not both');
      const given = {
        enabled: opts.on ? true : opts.off ? false : undefined,
        percentPerPeriod: numberOption(opts.percent, '--percent'),
        period: opts.period as Setup['late']['period'] | undefined,
        basis: opts.basis as Setup['late']['basis'] | undefined,
        maxPeriods: numberOrNone(opts.maxPeriods, '--max-periods', numberOption),
        afterMax: opts.afterMax as Setup['late']['afterMax'] | undefined,
        graceMinutes: numberOption(opts.grace, '--grace'),
      };
      nothingGiven(given, '--on, --off, --percent, --period, --basis, --max-periods, --after-max, --grace');
      const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
      return change(
        ctx,
        await ctx.parent('course'),
        opts,
        (s) => ({ ...s, late: { ...s.late, ...defined } }),
        {
          'late.enabled': '--on',
          'late.percentPerPeriod': '--percent',
          'late.period': '--period',
          'late.basis': '--basis',
          'late.maxPeriods': '--max-periods',
          'late.afterMax': '--after-max',
          'late.graceMinutes': '--grace',
        },
        (s) => ({ late: lateText(s.late) }),
      );
    },
  },
  {
    name: 'gradebook setup missing',
    description: 'The missing-work policy: what work not handed in by the due date (plus grace) counts as',
    parents: inCourse,
    options: [
      { flags: '--treat-as <zero-after-due|exclude-until-graded>', description: 'count it as 0, or leave it out until it is graded' },
      { flags: '--droppable', description: 'missing zeros may be dropped by drop-lowest' },
      { flags: '--no-droppable', description: 'missing zeros are never dropped' },
      expectedVersionOption,
    ],
    help: seeDoc,
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const given = { treatAs: opts.treatAs as Setup['missing']['treatAs'] | undefined, droppable: opts.droppable as boolean | undefined };
      nothingGiven(given, '--treat-as, --droppable, --no-droppable');
      const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
      return change(
        ctx,
        await ctx.parent('course'),
        opts,
        (s) => ({ ...s, missing: { ...s.missing, ...defined } }),
        { 'missing.treatAs': '--treat-as', 'missing.droppable': '--droppable' },
        (s) => ({ missing: missingText(s.missing) }),
      );
    },
  },
  {
    name: 'gradebook setup extra-credit',
    description: 'Caps on extra credit (items worth 0 points): per category in weighted mode, for the course in points mode',
    parents: inCourse,
    options: [
      { flags: '--category-cap <percent|none>', description: "weighted mode: extra credit adds at most this percent of a category's points" },
      { flags: '--course-cap <points|none>', description: 'points mode: extra credit adds at most this many points to the course' },
      expectedVersionOption,
    ],
    help: seeDoc,
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const given = {
        categoryCapPercent: numberOrNone(opts.categoryCap, '--category-cap', numberOption),
        courseCapPoints: numberOrNone(opts.courseCap, '--course-cap', numberOption),
      };
      nothingGiven(given, '--category-cap, --course-cap');
      const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
      return change(
        ctx,
        await ctx.parent('course'),
        opts,
        (s) => ({ ...s, extraCredit: { ...s.extraCredit, ...defined } }),
        { 'extraCredit.categoryCapPercent': '--category-cap', 'extraCredit.courseCapPoints': '--course-cap' },
        (s) => ({ extraCredit: extraCreditText(s.extraCredit) }),
      );
    },
  },
  {
    name: 'gradebook setup mode',
    description: 'weighted (each category its weight) or points (every point counts the same)',
    args: [{ name: '<mode>', description: 'weighted or points' }],
    parents: inCourse,
    options: [expectedVersionOption],
    help: seeDoc,
    handler: async (ctx, [mode], opts): Promise<CommandResult> =>
      change(
        ctx,
        await ctx.parent('course'),
        opts,
        (s) => ({ ...s, mode: mode as Setup['mode'] }),
        { mode: '<mode>' },
        (s) => ({ mode: s.mode }),
      ),
  },
  {
    name: 'gradebook scheme set',
    description: 'The letter scheme: LETTER=MIN for each band, e.g. A=93 A-=90 B+=87 ... F=0 (kept highest first)',
    args: [{ name: '<bands...>', description: 'LETTER=MIN, MIN a percent 0 to 100' }],
    parents: [{ kind: 'course' }],
    options: [{ flags: '--name <name>', description: "the scheme's name (default: keep it)" }, expectedVersionOption],
    help: seeDoc,
    handler: async (ctx, bandArgs, opts): Promise<CommandResult> => {
      const bands = bandArgs.map((text) => {
        const at = text.lastIndexOf('=');
        const letter = text.slice(0, at);
        const min = at > 0 ? numberOption(text.slice(at + 1), `band ${text}`) : undefined;
        if (at <= 0 || min === undefined) throw new UsageError(`each band must look like LETTER=MIN, e.g. A-=90 (got ${JSON.stringify(text)})`);
        return { letter, min, text };
      });
      // Highest first: a letter is the band with the greatest min at or below the percent,
      // so the order matters only to the checks, which expect it descending.
      const ordered = bands.map((b, i) => ({ ...b, i })).sort((a, b) => b.min - a.min || a.i - b.i);
      const flags = Object.fromEntries(ordered.flatMap((b, i) => [`scheme.bands[${i}].min`, `scheme.bands[${i}].letter`].map((p) => [p, b.text])));
      if (opts.name !== undefined) flags['scheme.name'] = '--name';
      flags['scheme.bands'] = '<bands...>';
      return change(
        ctx,
        await ctx.parent('course'),
        opts,
        (s) => ({
          ...s,
          scheme: { ...s.scheme, ...(opts.name !== undefined ? { name: String(opts.name) } : {}), bands: ordered.map(({ letter, min }) => ({ letter, min })) },
        }),
        flags,
        (s) => ({ scheme: schemeText(s.scheme) }),
      );
    },
  },
]);

/**
 * What the gradebook setup commands share (issue #13): reading the setup, saving a changed
 * copy with the version it was read at (a concurrent save is a conflict, never a lost
 * write), problems named by the flag the user typed, and the setup's parts as text.
 */
import { type ApiResponse, type CommandContext, seg } from '../cli/command.js';
import { AppError } from '../errors.js';
import type { GradebookSetupValue } from '../schemas/gradebook.js';

export type Setup = GradebookSetupValue;

export const setupPath = (course: string) => `/courses/${seg(course)}/gradebook/setup`;

/** Every setup field, its limits and an example (shown in --help). */
export const SETUP_DOC = 'docs/gradebook-setup.md';

export const expectedVersionOption = {
  flags: '--expected-version <n>',
  description: 'fail with conflict unless the setup is at this version (default: the version just read)',
};

export async function readSetup(ctx: CommandContext, course: string): Promise<Setup> {
  return (await ctx.client.request<Setup>('GET', setupPath(course))).data;
}

/**
 * PUT `next` as a change of `read` (the setup as this command read it, or at
 * `expectedVersion`). A conflict says the setup moved on and nothing was saved; an invalid
 * answer whose every problem `flagOf` can name is shown with the flags (by the runner:
 * ctx.nameProblemsBy).
 */
export async function saveSetup(
  ctx: CommandContext,
  course: string,
  read: Setup,
  next: Setup,
  options: { expectedVersion?: number | undefined; flagOf?: (path: string) => string | undefined } = {},
): Promise<ApiResponse<Setup>> {
  const basedOn = options.expectedVersion ?? read.version;
  if (options.flagOf) ctx.nameProblemsBy(options.flagOf);
  try {
    return await ctx.client.request<Setup>('PUT', setupPath(course), { ...next, version: basedOn });
  } catch (err) {
    throw explain(err, basedOn);
  }
}

/** An API error restated for the command line: a conflict in setup terms. */
export function explain(err: unknown, basedOn: number): unknown {
  if (!(err instanceof AppError)) return err;
  if (err.code === 'conflict' && typeof (err.details as { currentVersion?: unknown })?.currentVersion === 'number') {
    const current = (err.details as { currentVersion: number }).currentVersion;
    return new AppError(
      'conflict',
      `The gradebook setup changed while you worked: it is at version ${current} now, this change was made on version ${basedOn}. ` +
        'Nothing was saved; run the command again to apply it to the current setup.',
      err.details,
    );
  }
  return err;
}

/** A value that may be `none` (a null in the setup): maxPeriods, caps. */
export function numberOrNone(value: unknown, flag: string, parse: (v: unknown, flag: string) => number | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (String(value).trim().toLowerCase() === 'none') return null;
  return parse(value, flag);
}

// --- the setup's parts as text (gradebook setup show, and each change command) ------------

export const lateText = (l: Setup['late']): string =>
  l.enabled
    ? `${l.percentPerPeriod}% of ${l.basis} off per ${l.period}, ${l.maxPeriods === null ? 'no cap' : `at most ${l.maxPeriods} (then ${l.afterMax})`}, grace ${l.graceMinutes} min`
    : `off (grace ${l.graceMinutes} min for missing work)`;

export const missingText = (m: Setup['missing']): string => `${m.treatAs}${m.droppable ? ', droppable' : ''}`;

export const extraCreditText = (x: Setup['extraCredit']): string =>
  `category cap ${x.categoryCapPercent === null ? 'none' : `${x.categoryCapPercent}%`}, course cap ${x.courseCapPoints === null ? 'none' : `${x.courseCapPoints} points`}`;

export const schemeText = (s: Setup['scheme']): string => `${s.name}: ${s.bands.map((b) => `${b.letter} ${b.min}`).join(', ')}`;

export const dropText = (d: Setup['categories'][number]['drop']): string => `drop lowest ${d.lowest}, highest ${d.highest}, keep >= ${d.keepAtLeast}`;

/** In weighted mode, weights that do not sum to 100 deserve a word (the checks say so too). */
export function weightsNote(setup: Setup): string | null {
  if (setup.mode !== 'weighted' || setup.categories.length === 0) return null;
  const sum = setup.categories.reduce((acc, c) => acc + c.weight, 0);
  const shown = Number(sum.toFixed(6));
  return shown === 100 ? null : `note: category weights now sum to ${shown}, not 100 (weighted mode); see gradebook checks`;
}

import type { ParentDef } from '../cli/command.js';
import { type CommandContext, type CommandResult, defineCommands, numberOption, parseJsonText, seg, UsageError } from '../cli/command.js';
import { editUntilSaved } from '../cli/edit-loop.js';
import { percentText } from '../domain/grading/export-csv.js';
import { AppError } from '../errors.js';
import { dropText, extraCreditText, lateText, missingText, type Setup, schemeText } from './gradebook-setup-change.js';

/** Every gradebook command works inside a course (the positional course id of 0.1 still works, with a note). */
const inCourse: ParentDef[] = [{ kind: 'course', positional: true }];
/** ... and the final-grade commands on one of its students. */
const inCourseForStudent: ParentDef[] = [
  { kind: 'course', positional: true },
  { kind: 'user', positional: true, pick: 'student', description: 'the student' },
];

const base = (course: string) => `/courses/${seg(course)}/gradebook`;

function describeSetup(s: Setup): string {
  const lines = [
    `mode      ${s.mode}   (version ${s.version}, updated ${s.updatedAt} by ${s.updatedBy})`,
    'categories',
    ...s.categories.map(
      (c) =>
        `  ${c.id.padEnd(14)} ${c.name.padEnd(20)} ${s.mode === 'weighted' ? `${c.weight}%`.padEnd(6) : ''} ${dropText(c.drop)}${c.lateApplies ? '' : ', no late penalty'}`,
    ),
    `late      ${lateText(s.late)}`,
    `missing   ${missingText(s.missing)}`,
    `extra     ${extraCreditText(s.extraCredit)}`,
    `letters   ${schemeText(s.scheme)}`,
  ];
  return lines.join('\n') + '\n';
}

const pct = (v: unknown) => (typeof v === 'number' ? percentText(v) : '');

const A_PERCENT = '\u0000percent';

/** On a terminal: the letter from the scheme's letters, or a percent instead. */
async function askFinalGrade(ctx: CommandContext, course: string, student: string): Promise<{ letter?: string; percent?: number }> {
  const { bands } = (await ctx.client.request<Setup>('GET', `${base(course)}/setup`)).data.scheme;
  const picked = await ctx.prompt.select(`Final grade for ${student}?`, [
    ...bands.map((b) => ({ name: `${b.letter} (from ${b.min})`, value: b.letter })),
    { name: 'a percent instead', value: A_PERCENT },
  ]);
  if (picked !== A_PERCENT) return { letter: picked };
  // The check and its schema load only now that a prompt is shown.
  const { VALIDATE } = await import('../cli/answer-checks.js');
  const answer = await ctx.prompt.input('Final percent?', { validate: VALIDATE.percent });
  return { percent: Number(answer) };
}

export const gradebookCommands = defineCommands([
  {
    name: 'gradebook setup show',
    description: "Show a course's gradebook setup",
    parents: inCourse,
    handler: async (ctx): Promise<CommandResult> => {
      const response = await ctx.client.request<Setup>('GET', `${base(await ctx.parent('course'))}/setup`);
      return { kind: 'text', text: ctx.stdoutIsTTY ? describeSetup(response.data) : `${JSON.stringify(response.data, null, 2)}\n`, json: response.text };
    },
  },
  {
    name: 'gradebook setup set',
    description: 'Replace the setup with a whole setup document (its version must be the current one)',
    parents: inCourse,
    options: [{ flags: '--file <file>', description: "the setup JSON ('-' for stdin)" }],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const course = await ctx.parent('course');
      if (!opts.file) throw new UsageError('missing --file');
      const text = await ctx.readText(String(opts.file));
      parseJsonText(text, String(opts.file));
      return {
        kind: 'api',
        response: await ctx.client.request('PUT', `${base(course)}/setup`, text),
        rows: (d) => [{ version: (d as Setup).version, mode: (d as Setup).mode }],
      };
    },
  },
  {
    name: 'gradebook setup edit',
    description: 'Edit the setup in $EDITOR, then save it (conflicts if someone saved in between)',
    parents: inCourse,
    handler: async (ctx): Promise<CommandResult> => {
      const course = await ctx.parent('course');
      if (!ctx.interactive) throw new UsageError('gradebook setup edit needs a terminal; use gradebook setup set --file instead');
      const current = await ctx.client.request('GET', `${base(course)}/setup`);
      // Like kubectl edit: a save that fails reopens the editor with the errors on top.
      return editUntilSaved(ctx, {
        initial: JSON.stringify(current.data, null, 2) + '\n',
        fileName: `${course}-setup.json`,
        save: async (text) => {
          parseJsonText(text, `${course}-setup.json`);
          return { kind: 'api', response: await ctx.client.request('PUT', `${base(course)}/setup`, text), rows: (d) => [{ version: (d as Setup).version }] };
        },
      });
    },
  },
  {
    name: 'gradebook checks',
    description: 'List the setup checks that fire now (dismissed ones marked)',
    parents: inCourse,
    options: [{ flags: '--open', description: 'only the open (not dismissed) ones' }],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const all = await ctx.client.request<{ dismissed: boolean }[]>('GET', `${base(await ctx.parent('course'))}/setup/checks`);
      // --open filters --json and --query too: the list as the API writes it, without the dismissed ones.
      const open = all.data.filter((c) => !c.dismissed);
      const response = opts.open ? { ...all, data: open, text: JSON.stringify(open) } : all;
      return {
        kind: 'api',
        response,
        rows: (d) => d as Record<string, unknown>[],
        columns: [
          { key: 'code', header: 'CHECK' },
          { key: 'target', header: 'TARGET' },
          { key: 'dismissed', header: 'STATE', format: (v) => (v ? 'dismissed' : 'open') },
          { key: 'message', header: 'MESSAGE' },
        ],
      };
    },
  },
  {
    name: 'gradebook dismiss',
    description: 'Dismiss a setup check (without --code on a terminal: pick from the open checks)',
    parents: inCourse,
    options: [
      { flags: '--code <code>', description: 'the check code' },
      { flags: '--target <target>', description: 'what it is about (course, a category id, ...)' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const course = await ctx.parent('course');
      let code = opts.code as string | undefined;
      let target = opts.target as string | undefined;
      if (code === undefined) {
        if (!ctx.interactive) throw new UsageError('missing --code');
        const checks = (
          await ctx.client.request<{ code: string; target: string; message: string; dismissed: boolean }[]>('GET', `${base(course)}/setup/checks`)
        ).data.filter((c) => !c.dismissed);
        if (checks.length === 0) return { kind: 'none', note: 'no open checks' };
        const picked = await ctx.prompt.select(
          'Dismiss which check?',
          checks.map((c, i) => ({ name: `${c.code} (${c.target}): ${c.message}`, value: String(i) })),
        );
        ({ code, target } = checks[Number(picked)]!);
      }
      if (target === undefined) {
        if (!ctx.interactive) throw new UsageError('missing --target');
        target = await ctx.require(undefined, '--target', 'Target (course, a category id, ...)?');
      }
      const response = await ctx.client.request('POST', `${base(course)}/setup/dismiss`, { code, target });
      return { kind: 'api', response, rows: (d) => [{ dismissed: `${code} (${target})`, version: (d as Setup).version }] };
    },
  },
  {
    name: 'gradebook undismiss',
    description: 'Undo a dismissal (without --code on a terminal: pick from the dismissed checks)',
    parents: inCourse,
    options: [
      { flags: '--code <code>', description: 'the check code' },
      { flags: '--target <target>', description: 'its target' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const course = await ctx.parent('course');
      let code = opts.code as string | undefined;
      let target = opts.target as string | undefined;
      if (code === undefined && ctx.interactive) {
        // A pick list of what is dismissed now (for --target, only its dismissals).
        const dismissed = (await ctx.client.request<Setup>('GET', `${base(course)}/setup`)).data.dismissedChecks.filter(
          (d) => target === undefined || d.target === target,
        );
        if (dismissed.length === 0) return { kind: 'none', note: 'no dismissed checks' };
        const picked = await ctx.prompt.select(
          'Undo which dismissal?',
          dismissed.map((d, i) => ({ name: `${d.code} (${d.target}), dismissed by ${d.by}`, value: String(i) })),
        );
        ({ code, target } = dismissed[Number(picked)]!);
      }
      code = await ctx.require(code, '--code', 'Check code?');
      target = await ctx.require(target, '--target', 'Target?');
      const response = await ctx.client.request('DELETE', `${base(course)}/setup/dismiss/${seg(code)}/${seg(target)}`);
      return { kind: 'api', response, rows: (d) => [{ undismissed: `${code} (${target})`, version: (d as Setup).version }] };
    },
  },
  {
    name: 'gradebook grades',
    description: 'Computed grades: one row per student with category and course percentages',
    parents: inCourse,
    handler: async (ctx): Promise<CommandResult> => {
      const response = await ctx.client.request<{ students: Record<string, unknown>[] }>('GET', `${base(await ctx.parent('course'))}/grades?limit=1000`);
      const first = response.data.students[0] as { categories?: { categoryId: string; name: string }[] } | undefined;
      const cats = first?.categories ?? [];
      return {
        kind: 'api',
        response,
        rows: (d) =>
          (d as { students: Record<string, unknown>[] }).students.map((s) => {
            const row: Record<string, unknown> = { student: s.studentName, id: s.studentId };
            for (const c of (s.categories as { categoryId: string; percent: number | null }[]) ?? []) row[c.categoryId] = pct(c.percent);
            row.percent = pct(s.percent);
            row.letter = s.letter ?? '';
            row.final = `${pct(s.finalPercent)} ${s.finalLetter ?? ''}${s.override ? ' *' : ''}`.trim();
            return row;
          }),
        columns: [
          { key: 'student', header: 'STUDENT' },
          { key: 'id', header: 'ID' },
          ...cats.map((c) => ({ key: c.categoryId, header: `${c.name} %` })),
          { key: 'percent', header: 'COURSE %' },
          { key: 'letter', header: 'LETTER' },
          { key: 'final', header: 'FINAL (* override)' },
        ],
      };
    },
  },
  {
    name: 'gradebook mine',
    description: 'Your own grades in a course (students; released grades only)',
    parents: inCourse,
    handler: async (ctx): Promise<CommandResult> => {
      const response = await ctx.client.request<{ categories: { name: string; percent: number | null }[]; percent: number | null; letter: string | null }>(
        'GET',
        `${base(await ctx.parent('course'))}/me`,
      );
      const d = response.data;
      return {
        kind: 'api',
        response,
        rows: () => [
          ...d.categories.map((c) => ({ part: c.name, percent: pct(c.percent) })),
          { part: 'Course', percent: `${pct(d.percent)} ${d.letter ?? ''}`.trim() },
        ],
      };
    },
  },
  ...(['set', 'clear'] as const).map((verb) => ({
    name: `gradebook final ${verb}`,
    description: verb === 'set' ? "Override a student's final letter and/or percent" : "Clear a student's final-grade override",
    parents: inCourseForStudent,
    options: [
      { flags: '--reason <text>', description: 'why (kept in the history)' },
      ...(verb === 'set'
        ? [
            { flags: '--letter <letter>', description: "a letter of the course's scheme" },
            { flags: '--percent <n>', description: 'final percentage' },
          ]
        : []),
      { flags: '--expected-version <n>', description: 'fail with conflict unless the override is at this version (default: the current one)' },
    ],
    handler: async (ctx: CommandContext, _args: string[], opts: Record<string, unknown>): Promise<CommandResult> => {
      const course = await ctx.parent('course');
      const student = await ctx.parent('user');
      let percent = numberOption(opts.percent, '--percent');
      let letter = opts.letter as string | undefined;
      if (verb === 'set' && letter === undefined && percent === undefined) {
        if (!ctx.interactive) throw new UsageError('give --letter and/or --percent (or use gradebook final clear)');
        ({ letter, percent } = await askFinalGrade(ctx, course, student));
      }
      // Allowed (extra credit can take a grade past 100), but rarely meant.
      if (percent !== undefined && percent > 100) ctx.note(`note: the final percent ${percent} is above 100`);
      const reason = await ctx.require(opts.reason as string | undefined, '--reason', 'Reason?', 'overrideReason');
      let expectedVersion = numberOption(opts.expectedVersion, '--expected-version');
      const path = `${base(course)}/students/${seg(student)}/final`;
      if (expectedVersion === undefined) {
        const history = (await ctx.client.request<{ version: number }[]>('GET', `${path}/history`)).data;
        expectedVersion = history.length === 0 ? 0 : Math.max(...history.map((h) => h.version));
      }
      const body =
        verb === 'set'
          ? { reason, expectedVersion, letter: letter ?? null, percent: percent ?? null }
          : { reason, expectedVersion, letter: null, percent: null };
      try {
        return { kind: 'api', response: await ctx.client.request('PUT', path, body) };
      } catch (err) {
        throw overrideConflict(err, expectedVersion, { course, student, verb });
      }
    },
  })),
  {
    name: 'gradebook final history',
    description: "Every change to a student's override, oldest first",
    parents: inCourseForStudent,
    handler: async (ctx): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('GET', `${base(await ctx.parent('course'))}/students/${seg(await ctx.parent('user'))}/final/history`),
      columns: [
        { key: 'version', header: 'V' },
        { key: 'at', header: 'AT' },
        { key: 'by', header: 'BY' },
        { key: 'oldLetter', header: 'OLD', format: (_v, r) => `${r.oldPercent ?? ''} ${r.oldLetter ?? ''}`.trim() || '-' },
        { key: 'newLetter', header: 'NEW', format: (_v, r) => `${r.newPercent ?? ''} ${r.newLetter ?? ''}`.trim() || '(cleared)' },
        { key: 'reason', header: 'REASON' },
      ],
    }),
  },
  {
    name: 'gradebook export',
    description: 'The gradebook as CSV (RFC 4180, UTF-8, CRLF) on stdout or --out FILE',
    parents: inCourse,
    options: [
      { flags: '--out <file>', description: 'write the CSV to this file' },
      {
        flags: '--layout <layout>',
        description: 'default (every item, category and grade column) or registrar (Student ID, Student, Email, Final %, Final Letter)',
      },
      { flags: '--bom', description: 'start with a UTF-8 byte-order mark, for spreadsheet programs that need one to read accents right' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const course = await ctx.parent('course');
      const query = new URLSearchParams();
      if (opts.layout !== undefined) query.set('layout', String(opts.layout));
      if (opts.bom) query.set('bom', 'true');
      const response = await ctx.client.request<{ csv: string }>('GET', `${base(course)}/export${query.size > 0 ? `?${query}` : ''}`);
      if (opts.out) {
        await ctx.writeFile(String(opts.out), response.data.csv);
        return { kind: 'none', note: `wrote ${String(opts.out)}` };
      }
      return { kind: 'text', text: response.data.csv, json: response.text };
    },
  },
]);

/** A stale version, said with the way on: where to look, and the command that goes ahead. */
function overrideConflict(err: unknown, basedOn: number, who: { course: string; student: string; verb: 'set' | 'clear' }): unknown {
  const current = err instanceof AppError && err.code === 'conflict' ? (err.details as { currentVersion?: unknown } | undefined)?.currentVersion : undefined;
  if (typeof current !== 'number') return err;
  const state =
    current === 0
      ? `There is no override (version 0), not version ${basedOn}: nothing was saved.`
      : `The override is at version ${current}, not ${basedOn}: it changed since it was read, and nothing was saved.`;
  return new AppError(
    'conflict',
    `${state} See gradebook final history --course ${who.course} --user ${who.student}, then run the command again ` +
      `with --expected-version ${current} (or without it) to ${who.verb === 'set' ? 'replace' : 'clear'} it.`,
    err instanceof AppError ? err.details : undefined,
  );
}

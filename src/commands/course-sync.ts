/**
 * The offline authoring round trip (#14, docs/authoring.md): `courses push`, `courses pull`
 * and `courses diff` between this copy of a course and a remote one. Both sides are spoken
 * to through the API (in-process for a store file, HTTP for a service): GET .../content on
 * each, PUT .../content with the revision last seen (a dry run first, for the plan to show
 * and confirm), and this side's sync mark, so a push over someone's remote edit (or a pull
 * over unpushed local edits) is refused with those edits shown.
 */
import { resolveSyncEnds } from '../cli/backend.js';
import type { ApiClient, ApiResponse, CommandContext, CommandResult, OptionDef } from '../cli/command.js';
import { defineCommands, seg, UsageError } from '../cli/command.js';
import { planSummary, renderPlanTree } from '../cli/plan-tree.js';
import { planContent, planSize } from '../domain/content/content-plan.js';
import { AppError } from '../errors.js';
import type { ContentPlanValue, ContentWriteResultValue, CourseContentValue, SyncMarkValue } from '../schemas/course-content.js';
import type { CourseFileValue } from '../schemas/course-file.js';
import type { ReadinessEvidenceValue, ReadinessReportValue } from '../schemas/readiness.js';

type Direction = 'push' | 'pull';

/** The content of a course on one side, or null when that side has no such course (or may not see it). */
async function readContent(client: ApiClient, courseId: string): Promise<CourseContentValue | null> {
  try {
    return (await client.request<CourseContentValue>('GET', `/courses/${seg(courseId)}/content`)).data;
  } catch (err) {
    if (err instanceof AppError && err.code === 'not-found') return null;
    throw err;
  }
}

const fileOf = (content: CourseContentValue): CourseFileValue => {
  const { contentRevision: _r, ...file } = content;
  return file;
};

/** This side's sync mark for the remote and the name it is kept under, or null when there is none. */
interface FoundMark {
  mark: SyncMarkValue;
  key: string;
}

/**
 * This side's sync mark for the remote: the newest of those kept under any of its names
 * (SyncEnds.remoteKeys: its one name, and the name a mark made before that had), the one
 * name's on a tie.
 */
async function readMark(client: ApiClient, courseId: string, keys: string[]): Promise<FoundMark | null> {
  const found = await Promise.all(
    keys.map(async (key) => {
      const q = `remote=${encodeURIComponent(key)}`;
      const mark = (await client.request<{ mark: SyncMarkValue | null }>('GET', `/courses/${seg(courseId)}/sync-mark?${q}`)).data.mark;
      return mark ? { mark, key } : null;
    }),
  );
  return found.reduce<FoundMark | null>((newest, f) => (f && (!newest || Date.parse(f.mark.syncedAt) > Date.parse(newest.mark.syncedAt)) ? f : newest), null);
}

/**
 * The source copy's readiness evidence, which travels with a course's first copy only
 * (docs/authoring.md): its attestations, and its findings with their reviews, as its
 * readiness report holds them (the course's rubric; findings of ai items).
 */
async function readEvidence(client: ApiClient, courseId: string): Promise<ReadinessEvidenceValue> {
  const report = (await client.request<ReadinessReportValue>('GET', `/courses/${seg(courseId)}/readiness`)).data;
  const items = report.standards.flatMap((s) => s.items);
  return {
    attestations: items.flatMap(({ itemId, attestation: a }) =>
      a ? [{ itemId, rubricId: report.rubricId, status: a.status, by: a.by, byName: a.byName, note: a.note, at: a.at }] : [],
    ),
    findings: items.flatMap(({ itemId, finding: f }) =>
      f
        ? [
            {
              itemId,
              verdict: f.verdict,
              evidence: f.evidence,
              suggestion: f.suggestion,
              provenance: f.provenance,
              state: f.state,
              reviewedBy: f.reviewedBy,
              reviewedByName: f.reviewedByName,
              reviewedAt: f.reviewedAt,
            },
          ]
        : [],
    ),
  };
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What readiness evidence went with a first copy: a line, or nothing. */
const evidenceNote = (evidence: ReadinessEvidenceValue | undefined): string =>
  evidence && evidence.attestations.length + evidence.findings.length > 0
    ? `with its readiness evidence: ${count(evidence.attestations.length, 'attestation')}, ${count(evidence.findings.length, 'finding')}\n`
    : '';

const writeContent = (
  client: ApiClient,
  courseId: string,
  file: CourseFileValue,
  expectedRevision: number | null | undefined,
  dryRun: boolean,
  readiness: ReadinessEvidenceValue | undefined,
) =>
  client.request<ContentWriteResultValue>('PUT', `/courses/${seg(courseId)}/content`, {
    ...file,
    ...(expectedRevision === undefined ? {} : { expectedRevision }),
    dryRun,
    ...(readiness === undefined ? {} : { readiness }),
  });

const SYNC_OPTIONS: OptionDef[] = [
  { flags: '--dry-run', description: 'show the plan and change nothing' },
  { flags: '--yes', description: 'do not ask (required when not interactive)' },
  { flags: '--force', description: 'skip the revision check: overwrite changes made on the other side since the last push or pull' },
];

/** What `push` and `pull` share: the plan (a dry run on the side being written), the checks, the confirmation, the write, the mark. */
async function transfer(ctx: CommandContext, direction: Direction, courseId: string, opts: Record<string, unknown>): Promise<CommandResult> {
  const flag = direction === 'push' ? '--to' : '--from';
  const ends = await resolveSyncEnds(ctx.globals, ctx.env, ctx.config, (direction === 'push' ? opts.to : opts.from) as string | undefined, flag);
  const here = await ctx.openClient(ends.here);
  const there = await ctx.openClient(ends.there);
  const [source, target] = direction === 'push' ? [here, there] : [there, here];
  const remote = ends.remote;

  const from = await readContent(source, courseId);
  if (!from) throw new AppError('not-found', `Course ${JSON.stringify(courseId)} was not found ${direction === 'push' ? 'in this store' : `on ${remote}`}.`);
  const to = await readContent(target, courseId);
  const localContent = direction === 'push' ? from : to;
  const found = localContent ? await readMark(here, courseId, ends.remoteKeys) : null;
  const mark = found?.mark ?? null;
  const force = opts.force === true;
  const sourceFile = fileOf(from);
  const targetFile = to ? fileOf(to) : null;
  const upToDate = to !== null && planSize(planContent(targetFile, sourceFile)) === 0;

  if (to && !force && !upToDate) refuseIfStale(ctx, direction, courseId, remote, to, mark, targetFile!, sourceFile);

  const expected = force ? undefined : to ? to.contentRevision : null;
  // A write that creates the course brings the source's readiness evidence, so the copy is as ready as its source.
  const evidence = to === null ? await readEvidence(source, courseId) : undefined;
  const dry = await writeContent(target, courseId, sourceFile, expected, true, evidence);
  const remembered = async (result: ContentWriteResultValue) => {
    const [remoteRevision, localRevision] = direction === 'push' ? [result.revision!, from.contentRevision] : [from.contentRevision, result.revision!];
    // A mark kept under an older name of the remote is written again under its one name.
    if (found && found.key === remote && found.mark.remoteRevision === remoteRevision && found.mark.localRevision === localRevision) return;
    await here.request('PUT', `/courses/${seg(courseId)}/sync-mark`, { remote, remoteRevision, localRevision, base: sourceFile });
  };
  if (dry.data.changes === 0) {
    if (!opts.dryRun) await remembered(dry.data);
    const [remoteRevision, localRevision] = direction === 'push' ? [dry.data.revision, from.contentRevision] : [from.contentRevision, dry.data.revision];
    return {
      kind: 'text',
      text: `${courseId} is up to date with ${remote} (local revision ${localRevision}, remote revision ${remoteRevision})\n`,
      json: dry.text,
    };
  }

  const tree = renderPlanTree(dry.data.plan, targetFile, sourceFile, ctx.color);
  const summary = planSummary(dry.data.plan);
  const where = direction === 'push' ? `to ${remote}` : `from ${remote}`;
  if (opts.dryRun) return { kind: 'text', text: `${tree}dry run: ${direction} ${where} would make ${summary}; nothing changed\n`, json: dry.text };
  if (!opts.yes) {
    if (!ctx.interactive) throw new UsageError(`${direction} changes ${courseId} (${summary}); confirm with --yes when not interactive (see --dry-run)`);
    ctx.note(tree.trimEnd());
    if (!(await ctx.prompt.confirm(`${direction === 'push' ? 'Push' : 'Pull'} these changes (${summary}) ${where}?`, false)))
      return { kind: 'none', note: `nothing ${direction === 'push' ? 'pushed' : 'pulled'}` };
  }
  const applied: ApiResponse<ContentWriteResultValue> = await writeContent(target, courseId, sourceFile, expected, false, evidence);
  await remembered(applied.data);
  // The tree is on the terminal already when it was confirmed there.
  const shown = opts.yes ? tree : '';
  const verb = direction === 'push' ? 'pushed' : 'pulled';
  return {
    kind: 'text',
    text: `${shown}${verb} ${courseId} ${where}: ${planSummary(applied.data.plan)} (${direction === 'push' ? 'remote' : 'local'} revision ${applied.data.revision})\n${evidenceNote(evidence)}`,
    json: applied.text,
  };
}

/**
 * The revision check the user sees: the side being written must hold what the last push or
 * pull left it (its revision, or, when only the revision moved, the same course file: an
 * edit undone is nothing to lose). Refused with what changed there since (from the mark's
 * base file), or, with no mark, with what the write would change. When this side changed
 * too, neither push nor pull goes ahead without --force, and the advice says so.
 */
function refuseIfStale(
  ctx: CommandContext,
  direction: Direction,
  courseId: string,
  remote: string,
  to: CourseContentValue,
  mark: SyncMarkValue | null,
  targetFile: CourseFileValue,
  sourceFile: CourseFileValue,
): void {
  const show = (title: string, plan: ContentPlanValue, current: CourseFileValue | null, desired: CourseFileValue) => {
    if (!ctx.globals.json) ctx.note(`${title}\n${renderPlanTree(plan, current, desired, ctx.color).trimEnd()}`);
  };
  const seen = mark ? (direction === 'push' ? mark.remoteRevision : mark.localRevision) : null;
  if (mark && seen === to.contentRevision) return;
  const other = direction === 'push' ? 'pull' : 'push';
  if (!mark) {
    const plan = planContent(targetFile, sourceFile);
    show(`A ${direction} would change (${planSummary(plan)}):`, plan, targetFile, sourceFile);
    const where = direction === 'push' ? `${remote} already has course ${courseId}` : `this store already has course ${courseId}`;
    throw new AppError(
      'conflict',
      `${where}, and this store has not pushed it to or pulled it from ${remote}, so its changes could be lost; compare with courses diff, then ${direction} --force to overwrite them${direction === 'push' ? ', or pull to start from the remote copy' : ''}.`,
      { courseId, remote, currentRevision: to.contentRevision, expectedRevision: null, wouldChange: plan },
    );
  }
  const base = mark.base as CourseFileValue;
  const changes = planContent(base, targetFile);
  // Its revision moved, but it holds the course file both copies held: nothing would be lost.
  if (planSize(changes) === 0) return;
  const own = planContent(base, sourceFile);
  const both = planSize(own) > 0;
  const decide = `decide which side wins: push --force to overwrite the changes on ${remote} with this store's, or pull --force to discard this store's`;
  const remoteTitle = `The changes on ${remote} since your last push or pull (${planSummary(direction === 'push' ? changes : own)}):`;
  const localTitle = (overwritten: boolean) =>
    `Your changes since the last push or pull${overwritten ? ', which the pull would overwrite' : ''} (${planSummary(direction === 'push' ? own : changes)}):`;
  if (direction === 'push') {
    show(remoteTitle, changes, base, targetFile);
    if (both) show(localTitle(false), own, base, sourceFile);
    throw new AppError(
      'conflict',
      `${remote} changed course ${courseId} since your last push or pull (revision ${seen} then, ${to.contentRevision} now): someone else edited it. ${
        both
          ? `This store changed it too, so a pull is refused as well: ${decide}.`
          : `Bring those changes down with courses ${other} ${courseId}, or push --force to overwrite them.`
      }`,
      { courseId, remote, expectedRevision: seen, currentRevision: to.contentRevision, remoteChanges: changes, ...(both ? { localChanges: own } : {}) },
    );
  }
  show(localTitle(true), changes, base, targetFile);
  if (both) show(remoteTitle, own, base, sourceFile);
  throw new AppError(
    'conflict',
    `Course ${courseId} changed in this store since your last push or pull (revision ${seen} then, ${to.contentRevision} now). ${
      both ? `${remote} changed it too, so a push is refused as well: ${decide}.` : 'Push those changes first, or pull --force to discard them.'
    }`,
    { courseId, remote, expectedRevision: seen, currentRevision: to.contentRevision, localChanges: changes, ...(both ? { remoteChanges: own } : {}) },
  );
}

export const courseSyncCommands = defineCommands([
  {
    name: 'courses push',
    description:
      'Make the course on a remote (--to PROFILE, or --base-url/--token) equal to this copy: shows the plan, asks on a terminal, refuses over remote edits made since the last push or pull',
    args: [{ name: '<courseId>', description: 'course id' }],
    options: [{ flags: '--to <profile>', description: 'the remote: a profile (a service, or a store file)' }, ...SYNC_OPTIONS],
    noClient: true,
    handler: (ctx, [id], opts) => transfer(ctx, 'push', id!, opts),
  },
  {
    name: 'courses pull',
    description:
      'Make this copy of the course equal to a remote one (--from PROFILE, or --base-url/--token): shows the plan, asks on a terminal, refuses over local edits not pushed yet',
    args: [{ name: '<courseId>', description: 'course id' }],
    options: [{ flags: '--from <profile>', description: 'the remote: a profile (a service, or a store file)' }, ...SYNC_OPTIONS],
    noClient: true,
    handler: (ctx, [id], opts) => transfer(ctx, 'pull', id!, opts),
  },
  {
    name: 'courses diff',
    description:
      'Show how this copy of the course and a remote one (--to/--from PROFILE, or --base-url/--token) each changed since the last push or pull, and what a push would change',
    args: [{ name: '<courseId>', description: 'course id' }],
    options: [
      { flags: '--to <profile>', description: 'the remote: a profile (a service, or a store file)' },
      { flags: '--from <profile>', description: 'the same as --to' },
    ],
    noClient: true,
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      const courseId = id!;
      if (opts.to !== undefined && opts.from !== undefined && opts.to !== opts.from) throw new UsageError('give the remote once: --to or --from');
      const ends = await resolveSyncEnds(ctx.globals, ctx.env, ctx.config, (opts.to ?? opts.from) as string | undefined, '--to');
      const here = await ctx.openClient(ends.here);
      const there = await ctx.openClient(ends.there);
      const local = await readContent(here, courseId);
      if (!local) throw new AppError('not-found', `Course ${JSON.stringify(courseId)} was not found in this store.`);
      const remote = await readContent(there, courseId);
      const mark = (await readMark(here, courseId, ends.remoteKeys))?.mark ?? null;
      const localFile = fileOf(local);
      const remoteFile = remote ? fileOf(remote) : null;
      const plan = planContent(remoteFile, localFile);
      // Each side's changes since the last push or pull: from the course file the mark keeps.
      const base = mark ? (mark.base as CourseFileValue) : null;
      const localChanges = base ? planContent(base, localFile) : null;
      const remoteChanges = base && remoteFile ? planContent(base, remoteFile) : null;
      const changed = (p: ContentPlanValue | null) => p !== null && planSize(p) > 0;
      const bothChanged = changed(localChanges) && changed(remoteChanges);
      const since = (now: number, then: number | undefined, changes: ContentPlanValue | null) => {
        if (then === undefined) return '';
        if (changed(changes)) return ', changed since the last push or pull';
        return now === then ? ', unchanged since the last push or pull' : `, unchanged since the last push or pull (revision ${then} then: an edit undone)`;
      };
      const lines = [
        `local:  ${courseId} revision ${local.contentRevision}${since(local.contentRevision, mark?.localRevision, localChanges)}`,
        `remote: ${ends.remote} ${remote ? `revision ${remote.contentRevision}${since(remote.contentRevision, mark?.remoteRevision, remoteChanges)}` : `has no course ${courseId} (or may not show it to you)`}`,
        ...(mark ? [] : ['never pushed to or pulled from this remote']),
      ];
      let text = `${lines.join('\n')}\n`;
      if (base && changed(localChanges))
        text += `changed here since the last push or pull (${planSummary(localChanges!)}):\n${renderPlanTree(localChanges!, base, localFile, ctx.color)}`;
      if (base && changed(remoteChanges))
        text += `changed on the remote since the last push or pull (${planSummary(remoteChanges!)}):\n${renderPlanTree(remoteChanges!, base, remoteFile!, ctx.color)}`;
      if (bothChanged)
        text += 'both copies changed since the last push or pull, so push and pull are both refused: decide which side wins (push --force or pull --force)\n';
      else if (changed(remoteChanges)) text += "a push is refused until you pull the remote's changes (or push --force)\n";
      // A push goes ahead over an unchanged remote copy, or one it creates; else it needs --force.
      const force = remote !== null && (mark === null || changed(remoteChanges)) ? ' --force' : '';
      text +=
        planSize(plan) === 0
          ? 'no differences\n'
          : `a push${force} would make ${planSummary(plan)}:\n${renderPlanTree(plan, remoteFile, localFile, ctx.color)}`;
      const json = JSON.stringify({
        courseId,
        remote: ends.remote,
        localRevision: local.contentRevision,
        remoteRevision: remote ? remote.contentRevision : null,
        lastSync: mark ? { remoteRevision: mark.remoteRevision, localRevision: mark.localRevision, syncedAt: mark.syncedAt } : null,
        localChanges,
        remoteChanges,
        bothChanged,
        plan,
      });
      return { kind: 'text', text, json };
    },
  },
]);

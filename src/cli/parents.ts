/**
 * Naming the course, one way everywhere (docs/cli.md, "Naming the course"): `--course/-c C`
 * on every command that works inside a course, defaulting to COURSEBOOK_COURSE, then the
 * profile's `course` (flag > environment > profile, as gh's -R/--repo and GH_REPO). The
 * other parents a command works inside have their flag (`--module`, `--lesson`,
 * `--assignment`, `--user`) and no default: a module or lesson id belongs to one course, so
 * a standing default would mostly be wrong. The positional parent ids of 0.1 are still
 * accepted for one release, with one deprecation note on stderr.
 */
import { selectedProfile } from './backend.js';
import type { CommandContext, CommandDef, OptionDef, ParentDef, ParentKind } from './command.js';
import type { PickKind } from './prompt.js';
import { UsageError } from './usage-error.js';

/** The only parent with a default, from the environment. */
export const COURSE_ENV = 'COURSEBOOK_COURSE';

/** The release in which positional parent ids stop being accepted. */
export const POSITIONAL_IDS_END = '0.3';

const PARENT_OPTIONS: Record<ParentKind, OptionDef> = {
  course: { flags: '-c, --course <courseId>', description: `the course (default: $${COURSE_ENV}, then the profile's course)` },
  module: { flags: '--module <moduleId>', description: 'the module' },
  lesson: { flags: '--lesson <lessonId>', description: 'the lesson' },
  assignment: { flags: '--assignment <assignmentId>', description: 'the assignment' },
  user: { flags: '--user <userId>', description: 'the user' },
};

/** The flags a command's parents add to its options (commander and completion both read them here). */
export const parentOptions = (def: CommandDef): OptionDef[] =>
  (def.parents ?? []).map((p) => (p.description ? { ...PARENT_OPTIONS[p.kind], description: p.description } : PARENT_OPTIONS[p.kind]));

export const takesPositionalParents = (def: CommandDef): boolean => (def.parents ?? []).some((p) => p.positional);

/** Parent ids as typed on the command line: a flag's value, or an old positional id. */
export type GivenParents = Partial<Record<ParentKind, string>>;

/** How the command was typed: the name (an alias, maybe), its own arguments, and what came after them. */
export interface Invocation {
  typedName: string;
  args: string[];
  /** Words after the command's own arguments: old positional parent ids. */
  extra: string[];
}

/** A word as a shell would need it quoted. */
const shellWord = (word: string): string => (/^[\w.,:@/+=%-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * The parent ids typed for a command (flags, and old positional ids in the order the
 * command took them), and the one deprecation note when a positional id was used.
 */
export function typedParents(def: CommandDef, invocation: Invocation, opts: Record<string, unknown>): { given: GivenParents; deprecation?: string } {
  const given: GivenParents = {};
  for (const p of def.parents ?? []) {
    const value = opts[p.kind];
    if (typeof value === 'string') given[p.kind] = value;
  }
  const slots = (def.parents ?? []).filter((p) => p.positional);
  if (invocation.extra.length > slots.length) {
    const expected = invocation.args.length + slots.length;
    throw new UsageError(`too many arguments for ${def.name}: expected at most ${expected}, got ${invocation.args.length + invocation.extra.length}`);
  }
  const positional = invocation.extra.map((value, i) => ({ kind: slots[i]!.kind, value }));
  if (positional.length === 0) return { given };
  for (const { kind, value } of positional) {
    const flagged = given[kind];
    if (flagged !== undefined && flagged !== value) throw new UsageError(`the ${kind} is given twice (--${kind} ${flagged} and ${value}): give --${kind} once`);
    given[kind] = value;
  }
  const words = def.name.split(' ');
  const old = [...words.slice(0, -1), invocation.typedName, ...invocation.args, ...invocation.extra];
  const now = [...words, ...invocation.args, ...positional.flatMap(({ kind, value }) => [`--${kind}`, value])];
  const kinds = [...new Set(positional.map((p) => p.kind))].join(' and ');
  const deprecation =
    `coursebook: warning: "${old.map(shellWord).join(' ')}" is deprecated; use "${now.map(shellWord).join(' ')}" ` +
    `(positional ${kinds} ids go away in ${POSITIONAL_IDS_END})`;
  return { given, deprecation };
}

/** The course when no flag names it: COURSEBOOK_COURSE, else the course of the profile in effect. */
export async function defaultCourse(ctx: Pick<CommandContext, 'env' | 'globals' | 'config'>): Promise<string | undefined> {
  const fromEnv = ctx.env[COURSE_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const fromProfile = (await selectedProfile(ctx.globals, ctx.env, ctx.config)).profile.course;
  return fromProfile === undefined || fromProfile === '' ? undefined : fromProfile;
}

const missing = (kind: ParentKind): UsageError =>
  kind === 'course'
    ? new UsageError(`missing --course: give -c/--course COURSE, or set ${COURSE_ENV} or the profile's course (coursebook config set course COURSE)`)
    : new UsageError(`missing --${kind}`);

/**
 * The id of one parent: the typed flag (or old positional id); for the course, then
 * COURSEBOOK_COURSE, then the profile's course; then, on a terminal, a pick list of the ids
 * the caller can see (a module's list asks for its course the same way); else a usage error
 * naming the flag. `parentOf` resolves the parents a pick list needs, each once.
 */
async function resolveParent(
  ctx: CommandContext,
  kind: ParentKind,
  given: GivenParents,
  declared: ParentDef | undefined,
  parentOf: (kind: ParentKind) => Promise<string>,
): Promise<string> {
  const typed = given[kind];
  if (typed !== undefined && typed !== '') return typed;
  const fallback = kind === 'course' ? await defaultCourse(ctx) : undefined;
  if (fallback !== undefined) return fallback;
  if (!ctx.interactive) throw missing(kind);
  // Pick lists live beside the prompts' validators and the schemas they check with: loaded only when one is shown.
  const { pickId } = await import('./prompt.js');
  switch (kind) {
    case 'course':
      return pickId(ctx, 'course', {});
    case 'module':
    case 'assignment':
      return pickId(ctx, kind, { course: await parentOf('course') });
    case 'lesson':
      return pickId(ctx, 'lesson', { module: await parentOf('module') });
    case 'user': {
      const pick: PickKind = declared?.pick ?? 'student';
      return pickId(ctx, pick, pick === 'user' ? {} : { course: await parentOf('course') });
    }
  }
}

/**
 * `ctx.parent` for one run of a command: each parent resolved at most once (a course
 * picked for a module's list is the course), and only the parents the command declares.
 */
export function parentResolver(ctx: CommandContext, def: CommandDef, given: GivenParents): (kind: ParentKind) => Promise<string> {
  const resolved = new Map<ParentKind, Promise<string>>();
  const declaredAs = (kind: ParentKind) => def.parents?.find((p) => p.kind === kind);
  const parentOf = (kind: ParentKind): Promise<string> => {
    let id = resolved.get(kind);
    if (id === undefined) {
      id = resolveParent(ctx, kind, given, declaredAs(kind), parentOf);
      resolved.set(kind, id);
    }
    return id;
  };
  return (kind) => {
    if (!declaredAs(kind)) return Promise.reject(new Error(`${def.name} asked for its ${kind} without declaring it in parents`));
    return parentOf(kind);
  };
}

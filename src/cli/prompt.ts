/**
 * Prompts: answers checked as they are typed (with the same zod pieces the API validates
 * with), and pick lists of the ids the caller can see instead of free text. The prompts
 * themselves are @inquirer/prompts behind the injected Prompter (prompter.ts).
 */
import type { z } from 'zod';
import { HttpUrl, PersonName, Points, Title } from '../schemas/common.js';
import { BlockContent, Minutes } from '../schemas/content.js';
import { OpenPercent } from '../schemas/decimal.js';
import { FinalGradeBody } from '../schemas/final-grades.js';
import { PathPattern } from '../schemas/fixture.js';
import { Category } from '../schemas/gradebook.js';
import { formatZodIssues } from '../schemas/problems.js';
import { CertificateReplace, TemplateCreate } from '../schemas/templates.js';
import { type CommandContext, seg, UsageError } from './command.js';

export type Validator = (answer: string) => true | string;

/**
 * A typed answer checked with a schema piece: `parse` turns the text into the value the API
 * would get; the message is the API's own problem text ("must be <= 240").
 */
export function validateWith(schema: z.ZodType, parse: (text: string) => unknown = (text) => text): Validator {
  return (answer) => {
    const text = answer.trim();
    if (text === '') return 'a value is required';
    const result = schema.safeParse(parse(text));
    if (result.success) return true;
    return formatZodIssues(result.error.issues)[0]?.message ?? 'not a valid value';
  };
}

/** A number typed as text: Number('') and Number(' ') are 0, so text that is not a number stays text. */
export const asNumber = (text: string): unknown => (/^[-+]?\d+(\.\d+)?$/.test(text) ? Number(text) : text);

/** Answers checked as typed, for the values prompts ask most (each with the API's own schema piece). */
export const VALIDATE = {
  /** Lesson minutes: a whole number from 1 to 240. */
  minutes: validateWith(Minutes, asNumber),
  title: validateWith(Title),
  /** An http(s) URL (link, video and embed blocks, link submissions). */
  url: validateWith(HttpUrl),
  /** Points or a score: 0 to 1,000,000,000. */
  points: validateWith(Points, asNumber),
  /** A final-grade percent: 0 or more (extra credit can pass 100). */
  percent: validateWith(OpenPercent, asNumber),
  /** Why a final grade is overridden (1 to 1000 characters, kept in its history). */
  overrideReason: validateWith(FinalGradeBody.shape.reason),
  /** Why a certificate is replaced (1 to 2000 characters). */
  replaceReason: validateWith(CertificateReplace.shape.reason),
  /** A gradebook category's name (1 to 120 characters). */
  categoryName: validateWith(Category.shape.name),
  /** A template's name (1 to 120 characters). */
  templateName: validateWith(TemplateCreate.shape.name),
  /** A person's name (users create). */
  personName: validateWith(PersonName),
  /** A fixture rule's path pattern. */
  pathPattern: validateWith(PathPattern),
  /** A letter of the course's grading scheme, e.g. from the setup's `scheme.bands`. */
  letter:
    (letters: string[]): Validator =>
    (answer) =>
      letters.includes(answer.trim()) ? true : `must be one of the scheme's letters: ${letters.join(', ')}`,
};

/** A check of VALIDATE by name: what `ctx.require` takes, so a command loads these schemas only when it prompts. */
export type AnswerCheck = Exclude<keyof typeof VALIDATE, 'letter'>;

/**
 * One field of a block, checked with the block schema the API validates with: the answer
 * goes into the block as built so far, and only problems with this field count (the
 * fields not asked yet come next).
 */
export function validateBlockField(partial: Record<string, unknown>, field: string, parse: (text: string) => unknown = (text) => text): Validator {
  return (answer) => {
    const result = BlockContent.safeParse({ ...partial, [field]: parse(answer) });
    if (result.success) return true;
    const own = result.error.issues.filter((issue) => issue.path[0] === field);
    return own.length === 0 ? true : (formatZodIssues(own)[0]?.message ?? 'not a valid value');
  };
}

/** What a pick list offers: courses, a course's modules or assignments, a module's lessons, a course's students or members, every user. */
export type PickKind = 'course' | 'module' | 'lesson' | 'assignment' | 'student' | 'member' | 'user';

/** The parents a pick list is inside (a module's course, a lesson's module). */
export interface PickScope {
  course?: string;
  module?: string;
}

interface Choice {
  name: string;
  value: string;
}

const inScope = (scope: PickScope, key: keyof PickScope): string => {
  const id = scope[key];
  if (id === undefined) throw new Error(`a pick list needs its ${key}`);
  return id;
};

interface Listed {
  id: string;
  title: string;
  status: string;
  position: number;
}

async function choicesFor(ctx: CommandContext, kind: PickKind, scope: PickScope): Promise<Choice[]> {
  const get = async <T>(path: string) => (await ctx.client.request<T>('GET', path)).data;
  switch (kind) {
    case 'course':
      return (await get<Listed[]>('/courses')).map((c) => ({ name: `${c.title} (${c.id}, ${c.status})`, value: c.id }));
    case 'module':
      return (await get<Listed[]>(`/courses/${seg(inScope(scope, 'course'))}/modules`)).map((m) => ({
        name: `${m.position + 1}. ${m.title} (${m.id})`,
        value: m.id,
      }));
    case 'lesson':
      return (await get<Listed[]>(`/modules/${seg(inScope(scope, 'module'))}/lessons`)).map((l) => ({
        name: `${l.position + 1}. ${l.title} (${l.id}, ${l.status})`,
        value: l.id,
      }));
    case 'assignment':
      return (await get<Listed[]>(`/courses/${seg(inScope(scope, 'course'))}/assignments`)).map((a) => ({
        name: `${a.title} (${a.id}, ${a.status})`,
        value: a.id,
      }));
    case 'student':
    case 'member': {
      const people = await get<{ userId: string; role: string }[]>(`/courses/${seg(inScope(scope, 'course'))}/enrollments`);
      return people
        .filter((p) => kind === 'member' || p.role === 'student')
        .map((p) => ({ name: kind === 'member' ? `${p.userId} (${p.role})` : p.userId, value: p.userId }));
    }
    case 'user':
      return (await get<{ id: string; name: string }[]>('/users')).map((u) => ({ name: `${u.name} (${u.id})`, value: u.id }));
  }
}

const WORD: Record<PickKind, string> = {
  course: 'course',
  module: 'module',
  lesson: 'lesson',
  assignment: 'assignment',
  student: 'student',
  member: 'user',
  user: 'user',
};

/**
 * A pick list of the ids of `kind` the caller can see, inside `scope`. Only on a terminal:
 * src/cli/parents.ts decides when one is shown (a missing parent id, never when piped).
 */
export async function pickId(ctx: CommandContext, kind: PickKind, scope: PickScope): Promise<string> {
  const choices = await choicesFor(ctx, kind, scope);
  if (choices.length === 0) {
    const where = scope.module ? ` in module ${scope.module}` : scope.course ? ` in course ${scope.course}` : '';
    throw new UsageError(`there is no ${WORD[kind]} you can pick${where}`);
  }
  return ctx.prompt.select(`Which ${WORD[kind]}?`, choices);
}

/**
 * Prompts: answers checked as they are typed (with the same zod pieces the API validates
 * with), and pick lists of the ids the caller can see instead of free text. The prompts
 * themselves are @inquirer/prompts behind the injected Prompter (prompter.ts).
 */
import { BlockContent } from '../schemas/content.js';
import { formatZodIssues } from '../schemas/problems.js';
import type { Validator } from './answer-checks.js';
import { type CommandContext, seg } from './command.js';
import { UsageError } from './usage-error.js';

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

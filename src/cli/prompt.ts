/**
 * Prompts: @inquirer/prompts behind the injected Prompter, answers checked as they are typed
 * (with the same zod pieces the API validates with), and pick lists of the ids the caller
 * can see instead of free text.
 */
import type { z } from 'zod';
import { HttpUrl, Title } from '../schemas/common.js';
import { Minutes } from '../schemas/content.js';
import { formatZodIssues } from '../schemas/problems.js';
import { type CommandContext, type Prompter, seg, UsageError } from './command.js';

/** @inquirer/prompts, loaded only when a prompt is actually shown (keeps start-up fast). */
export function makePrompter(): Prompter {
  const lib = () => import('@inquirer/prompts');
  return {
    input: async (message, options) =>
      (await lib()).input({
        message,
        ...(options?.default !== undefined ? { default: options.default } : {}),
        ...(options?.validate ? { validate: options.validate } : {}),
      }),
    confirm: async (message, defaultValue = false) => (await lib()).confirm({ message, default: defaultValue }),
    select: async (message, choices) => (await lib()).select({ message, choices, pageSize: 15 }),
    checkbox: async (message, choices) => (await lib()).checkbox({ message, choices }),
  };
}

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
const asNumber = (text: string): unknown => (/^[-+]?\d+(\.\d+)?$/.test(text) ? Number(text) : text);

/** Answers checked as typed, for the values prompts ask most. */
export const VALIDATE = {
  /** Lesson minutes: a whole number from 1 to 240. */
  minutes: validateWith(Minutes, asNumber),
  title: validateWith(Title),
  /** An http(s) URL (link, video and embed blocks). */
  url: validateWith(HttpUrl),
  /** A letter of the course's grading scheme, e.g. from the setup's `scheme.bands`. */
  letter:
    (letters: string[]): Validator =>
    (answer) =>
      letters.includes(answer.trim()) ? true : `must be one of the scheme's letters: ${letters.join(', ')}`,
};

export type PickKind = 'course' | 'module' | 'student';

interface Choice {
  name: string;
  value: string;
}

async function choicesFor(ctx: CommandContext, kind: PickKind, courseId: string | undefined): Promise<Choice[]> {
  if (kind === 'course') {
    const courses = (await ctx.client.request<{ id: string; title: string; status: string }[]>('GET', '/courses')).data;
    return courses.map((c) => ({ name: `${c.title} (${c.id}, ${c.status})`, value: c.id }));
  }
  const course = courseId ?? (await pickId(ctx, 'course'));
  if (kind === 'module') {
    const modules = (await ctx.client.request<{ id: string; title: string; position: number }[]>('GET', `/courses/${seg(course)}/modules`)).data;
    return modules.map((m) => ({ name: `${m.position + 1}. ${m.title} (${m.id})`, value: m.id }));
  }
  const people = (await ctx.client.request<{ userId: string; role: string }[]>('GET', `/courses/${seg(course)}/enrollments`)).data;
  return people.filter((p) => p.role === 'student').map((p) => ({ name: p.userId, value: p.userId }));
}

/** A pick list of the ids of `kind` the caller can see (a module or student first asks for the course when none is given). */
export async function pickId(ctx: CommandContext, kind: PickKind, courseId?: string): Promise<string> {
  const choices = await choicesFor(ctx, kind, courseId);
  if (choices.length === 0) throw new UsageError(`there is no ${kind} you can pick${courseId ? ` in course ${courseId}` : ''}`);
  return ctx.prompt.select(`Which ${kind}?`, choices);
}

/**
 * An id the command needs: the flag's value when given; else a pick list on a terminal;
 * else a usage error naming the flag.
 */
export async function requireId(ctx: CommandContext, value: string | undefined, flag: string, kind: PickKind, courseId?: string): Promise<string> {
  if (value !== undefined && value !== '') return value;
  if (!ctx.interactive) throw new UsageError(`missing ${flag}`);
  return pickId(ctx, kind, courseId);
}

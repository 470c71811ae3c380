/**
 * Answers checked as they are typed, with the same zod pieces the API validates with. Apart
 * from prompt.ts (the pick lists) so that a command's definition can name a check
 * (`AnswerCheck`) without depending on the prompts; the checks themselves are loaded only
 * when a command prompts.
 */
import type { z } from 'zod';
import { HttpUrl, PersonName, Points, Title } from '../schemas/common.js';
import { Minutes } from '../schemas/content.js';
import { OpenPercent } from '../schemas/decimal.js';
import { FinalGradeBody } from '../schemas/final-grades.js';
import { PathPattern } from '../schemas/fixture.js';
import { Category } from '../schemas/gradebook.js';
import { formatZodIssues } from '../schemas/problems.js';
import { CertificateReplace, TemplateCreate } from '../schemas/templates.js';

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

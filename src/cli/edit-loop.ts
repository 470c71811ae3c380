/**
 * Editing a document in $EDITOR the way `kubectl edit` does: when saving fails with
 * something the user can fix (a value the service refuses, text that is not JSON, a version
 * someone else moved on), the editor opens again on their own text with the errors as
 * comments at the top. Saving it unchanged gives up, and the text is kept in a file.
 */
import { AppError } from '../errors.js';
import { type CommandContext, type CommandResult, UsageError } from './command.js';
import { errorLines } from './error-text.js';

/** Errors the person at the editor can fix by changing the text. */
const FIXABLE = new Set(['invalid', 'unsupported', 'too-large', 'conflict', 'not-ready']);

const COMMENT = '//';

/** The leading comment lines (ours, or any the user added there) come off before saving. */
export function stripLeadingComments(text: string): string {
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && lines[i]!.trimStart().startsWith(COMMENT)) i++;
  return lines.slice(i).join('\n');
}

/** The error as comment lines, as the CLI would print it, with how to go on. */
export function errorComments(err: AppError | UsageError): string {
  const lines = errorLines(err);
  if (err instanceof AppError && err.code === 'conflict' && typeof (err.details as { currentVersion?: unknown })?.currentVersion === 'number')
    lines.push(
      `Someone saved version ${(err.details as { currentVersion: number }).currentVersion} meanwhile: set "version" to it to replace their change with yours.`,
    );
  lines.push(
    'Saving failed. Fix the document below and save to try again; save it unchanged, or empty it, to give up.',
    'These comment lines are removed before saving.',
  );
  return `${lines.map((l) => `${COMMENT} ${l}`).join('\n')}\n`;
}

export async function editUntilSaved(
  ctx: CommandContext,
  doc: { initial: string; fileName: string; save(text: string): Promise<CommandResult> },
): Promise<CommandResult> {
  let opened = doc.initial;
  let lastError: unknown;
  const keep = async (text: string) => ctx.note(`your changes are kept in ${await ctx.io.keepDraft(doc.fileName, text)}`);
  for (;;) {
    const edited = await ctx.io.edit(opened, doc.fileName);
    if ('failed' in edited) {
      if (opened !== doc.initial) await keep(stripLeadingComments(opened));
      throw new UsageError(`${edited.failed}; nothing saved`);
    }
    const text = stripLeadingComments(edited.text);
    if (text.trim() === '') return { kind: 'none', note: 'the file was empty: edit cancelled, nothing saved' };
    if (text === doc.initial) return { kind: 'none', note: 'no changes' };
    if (opened !== doc.initial && edited.text === opened) {
      await keep(text);
      throw lastError;
    }
    try {
      return await doc.save(text);
    } catch (err) {
      const fixable = err instanceof UsageError || (err instanceof AppError && FIXABLE.has(err.code));
      if (!fixable) {
        await keep(text);
        throw err;
      }
      lastError = err;
      opened = errorComments(err) + text;
    }
  }
}

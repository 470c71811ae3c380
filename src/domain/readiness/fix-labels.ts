/**
 * The fix labels a client may act on with a command of its own (commands/readiness.ts
 * shows one under each): written once, here, for the checks that give them and for the
 * clients that recognise them. The report carries labels, not check names.
 */
export const FIX_LABELS = {
  addRubric: 'Add a rubric.',
  setDueDate: 'Set a due date.',
  writeInstructions: 'Write instructions for the assignment.',
  reviewAiBlock: 'Review the AI-generated block: accept or reject it.',
} as const;

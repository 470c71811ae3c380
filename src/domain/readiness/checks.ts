/**
 * The automatic checks of the built-in rubric. Decisions where readiness.md is silent:
 * - Readiness is about what will go out, so lessons and assignments count whatever their
 *   status, except where an item says "published" (3.2, 3.3).
 * - Block checks (6.1, 6.2, 8.2, 8.3, 8.4) cover lesson blocks and assignment instructions;
 *   heading order (8.1) is about lessons only.
 * - A lesson "has content" when it has a block other than a divider (block schemas already
 *   refuse blank text).
 * - Words (1.2): whitespace-separated tokens that contain a letter or digit.
 * - Link text (8.4) is judged case-insensitively after trimming and dropping trailing
 *   punctuation; text equal to the URL, or that is itself an http(s) URL, is a bare URL.
 */

import { FIX_LABELS } from './fix-labels.js';
import type { Block, CheckResult, ReadinessInput } from './types.js';

type Check = (input: ReadinessInput) => CheckResult;

const ok = (applicable = true): CheckResult => ({ applicable, problems: [] });

function context(input: ReadinessInput) {
  const modules = [...input.modules].sort((a, b) => a.position - b.position);
  const moduleNo = new Map(modules.map((m, i) => [m.id, i + 1]));
  const lessons = new Map(input.lessons.map((l) => [l.id, l]));
  const blocksByLesson = new Map<string, Block[]>();
  for (const b of input.blocks) {
    if (!b.lessonId) continue;
    const list = blocksByLesson.get(b.lessonId) ?? [];
    list.push(b);
    blocksByLesson.set(b.lessonId, list);
  }
  for (const list of blocksByLesson.values()) list.sort((a, b) => a.position - b.position);
  const lessonName = (id: string) => {
    const l = lessons.get(id);
    return l ? `Lesson "${l.title}" (module ${moduleNo.get(l.moduleId) ?? '?'})` : `Lesson ${id}`;
  };
  /** Every block with a readable name of where it is and its fix target. */
  const allBlocks = (): { block: Block; where: string; target: { kind: 'block'; lessonId: string | null; blockId: string; assignmentId?: string } }[] => [
    ...input.blocks.map((b) => ({
      block: b,
      where: `${lessonName(b.lessonId ?? '')}: block ${b.position + 1}`,
      target: { kind: 'block' as const, lessonId: b.lessonId, blockId: b.id },
    })),
    ...input.assignments.flatMap((a) =>
      a.instructions.map((b) => ({
        block: b,
        where: `Assignment "${a.title}": instruction block ${b.position + 1}`,
        target: { kind: 'block' as const, lessonId: null, blockId: b.id, assignmentId: a.id },
      })),
    ),
  ];
  return { modules, moduleNo, blocksByLesson, lessonName, allBlocks };
}

const hasContent = (blocks: Block[] | undefined) => (blocks ?? []).some((b) => b.type !== 'divider');
const BAD_LINK_TEXT = new Set(['click here', 'here', 'more', 'link']);
const isHttpUrl = (text: string) => {
  try {
    const u = new URL(text.trim());
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

export const AUTOMATIC_CHECKS: Record<string, Check> = {
  'first-lesson-has-content': (input) => {
    const { modules, blocksByLesson, lessonName } = context(input);
    if (modules.length === 0) return ok(false);
    const first = modules[0]!;
    const lessons = input.lessons.filter((l) => l.moduleId === first.id).sort((a, b) => a.position - b.position);
    if (lessons.length === 0) {
      return {
        applicable: true,
        problems: [
          {
            evidence: `Module "${first.title}", the first module, has no lessons.`,
            fix: { label: 'Add a welcome lesson to the first module.', target: { kind: 'module', moduleId: first.id } },
          },
        ],
      };
    }
    const lesson = lessons[0]!;
    if (hasContent(blocksByLesson.get(lesson.id))) return ok();
    return {
      applicable: true,
      problems: [
        {
          evidence: `${lessonName(lesson.id)}, the first lesson, has no content.`,
          fix: { label: 'Add content to the first lesson.', target: { kind: 'lesson', lessonId: lesson.id } },
        },
      ],
    };
  },

  'description-purpose': (input) => {
    const words = input.course.description.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
    if (words >= 30) return ok();
    return {
      applicable: true,
      problems: [
        {
          evidence: `The course description has ${words} word${words === 1 ? '' : 's'}; at least 30 are needed to say what the course is for and how it is organised.`,
          fix: { label: 'Describe what the course is for and how it is organised.', target: { kind: 'course' } },
        },
      ],
    };
  },

  'module-objectives': (input) => {
    const { modules } = context(input);
    if (modules.length === 0) return ok(false);
    return {
      applicable: true,
      problems: modules
        .filter((m) => m.objective.trim() === '')
        .map((m) => ({
          evidence: `Module "${m.title}" (module ${modules.indexOf(m) + 1}) states no objective.`,
          fix: { label: 'State what learners will be able to do after this module.', target: { kind: 'module' as const, moduleId: m.id } },
        })),
    };
  },

  'gradebook-clean': (input) => ({
    applicable: true,
    problems: input.openSetupChecks.map((c) => ({
      evidence: `Gradebook check ${c.code} (${c.target}): ${c.message}`,
      fix: { label: `Fix or dismiss the gradebook check ${c.code}.`, target: { kind: 'gradebook' as const } },
    })),
  }),

  'rubrics-present': (input) => {
    const graded = input.assignments.filter((a) => a.status === 'published' && a.points > 0);
    if (graded.length === 0) return ok(false);
    return {
      applicable: true,
      problems: graded
        .filter((a) => a.rubric.length === 0)
        .map((a) => ({
          evidence: `Assignment "${a.title}" is worth ${a.points} points but has no rubric.`,
          fix: { label: FIX_LABELS.addRubric, target: { kind: 'assignment' as const, assignmentId: a.id } },
        })),
    };
  },

  'due-dates': (input) => {
    const published = input.assignments.filter((a) => a.status === 'published');
    if (published.length === 0) return ok(false);
    return {
      applicable: true,
      problems: published
        .filter((a) => a.dueAt === null)
        .map((a) => ({
          evidence: `Assignment "${a.title}" has no due date.`,
          fix: { label: FIX_LABELS.setDueDate, target: { kind: 'assignment' as const, assignmentId: a.id } },
        })),
    };
  },

  'instructions-present': (input) => {
    if (input.assignments.length === 0) return ok(false);
    return {
      applicable: true,
      problems: input.assignments
        .filter((a) => !hasContent(a.instructions))
        .map((a) => ({
          evidence: `Assignment "${a.title}" has no instructions.`,
          fix: { label: FIX_LABELS.writeInstructions, target: { kind: 'assignment' as const, assignmentId: a.id } },
        })),
    };
  },

  'lessons-have-content': (input) => {
    const { blocksByLesson, lessonName } = context(input);
    if (input.lessons.length === 0) return ok(false);
    return {
      applicable: true,
      problems: input.lessons
        .filter((l) => !hasContent(blocksByLesson.get(l.id)))
        .map((l) => ({
          evidence: `${lessonName(l.id)} has no content.`,
          fix: { label: 'Add content to the lesson.', target: { kind: 'lesson' as const, lessonId: l.id } },
        })),
    };
  },

  'ai-reviewed': (input) => ({
    applicable: true,
    problems: context(input)
      .allBlocks()
      .filter((x) => x.block.aiState === 'draft')
      .map((x) => ({
        evidence: `${x.where} was generated by AI and has not been reviewed.`,
        fix: { label: FIX_LABELS.reviewAiBlock, target: x.target },
      })),
  }),

  'embed-privacy': (input) => {
    const embeds = context(input)
      .allBlocks()
      .filter((x) => x.block.type === 'embed');
    if (embeds.length === 0) return ok(false);
    return {
      applicable: true,
      problems: embeds
        .filter((x) => !x.block.privacyUrl)
        .map((x) => ({
          evidence: `${x.where} is an embed with no link to a privacy statement.`,
          fix: { label: "Add the embedded service's privacy statement URL.", target: x.target },
        })),
    };
  },

  'heading-order': (input) => {
    const { blocksByLesson, lessonName } = context(input);
    let applicable = false;
    const problems: CheckResult['problems'] = [];
    for (const [lessonId, blocks] of blocksByLesson) {
      let previous: number | null = null;
      for (const b of blocks) {
        if (b.type !== 'heading') continue;
        applicable = true;
        const level = b.level as number;
        const target = { kind: 'block' as const, lessonId, blockId: b.id };
        if (previous === null && level > 2) {
          problems.push({
            evidence: `${lessonName(lessonId)}: block ${b.position + 1}, the first heading, is level ${level}; it should be level 1 or 2.`,
            fix: { label: 'Make the first heading level 1 or 2.', target },
          });
        } else if (previous !== null && level > previous + 1) {
          problems.push({
            evidence: `${lessonName(lessonId)}: block ${b.position + 1} is a level ${level} heading after a level ${previous} heading, skipping a level.`,
            fix: { label: `Make this heading level ${previous + 1} or less.`, target },
          });
        }
        previous = level;
      }
    }
    return { applicable, problems };
  },

  'image-alt': (input) => {
    const images = context(input)
      .allBlocks()
      .filter((x) => x.block.type === 'image');
    if (images.length === 0) return ok(false);
    return {
      applicable: true,
      problems: images
        .filter((x) => !x.block.decorative && String(x.block.alt ?? '').trim() === '')
        .map((x) => ({
          evidence: `${x.where} is an image with no alt text and not marked decorative.`,
          fix: { label: 'Add alt text or mark the image decorative.', target: x.target },
        })),
    };
  },

  'video-captions': (input) => {
    const videos = context(input)
      .allBlocks()
      .filter((x) => x.block.type === 'video');
    if (videos.length === 0) return ok(false);
    return {
      applicable: true,
      problems: videos
        .filter((x) => !x.block.captions || String(x.block.captions).trim() === '')
        .map((x) => ({ evidence: `${x.where} is a video without captions.`, fix: { label: 'Add a captions track to the video.', target: x.target } })),
    };
  },

  'link-text': (input) => {
    const links = context(input)
      .allBlocks()
      .filter((x) => x.block.type === 'link');
    if (links.length === 0) return ok(false);
    return {
      applicable: true,
      problems: links
        .filter((x) => {
          const text = String(x.block.text ?? '');
          const norm = text
            .trim()
            .toLowerCase()
            .replace(/[.!?:;,\u2026]+$/u, '');
          return BAD_LINK_TEXT.has(norm) || text.trim() === String(x.block.url).trim() || isHttpUrl(text);
        })
        .map((x) => ({
          evidence: `${x.where} is a link whose text ("${String(x.block.text)}") does not say where it goes.`,
          fix: { label: 'Write link text that names the destination.', target: x.target },
        })),
    };
  },
};

export const isKnownCheck = (name: string): boolean => Object.hasOwn(AUTOMATIC_CHECKS, name);

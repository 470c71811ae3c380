import type { Rubric, RubricItem } from './types.js';

const item = (number: string, text: string, kind: RubricItem['kind'], essential: boolean, check?: string): RubricItem => ({
  itemId: number,
  number,
  text,
  kind,
  essential,
  ...(check ? { check } : {}),
});

/** The built-in rubric `course-essentials`, edition 1 (readiness.md), in the project's own words. */
export const DEFAULT_RUBRIC: Rubric = {
  id: 'course-essentials',
  name: 'Course essentials',
  attribution: 'coursebook built-in rubric, edition 1',
  standards: [
    {
      standardId: 's1',
      number: '1',
      title: 'Course overview',
      items: [
        item('1.1', 'The first module opens with a lesson that has content', 'automatic', true, 'first-lesson-has-content'),
        item('1.2', 'The course description says what the course is for and how it is organised (at least 30 words)', 'automatic', true, 'description-purpose'),
        item('1.3', 'How and when learners can reach the instructor is stated', 'human', false),
      ],
    },
    {
      standardId: 's2',
      number: '2',
      title: 'Objectives',
      items: [
        item('2.1', 'Every module states an objective', 'automatic', true, 'module-objectives'),
        item('2.2', 'Module objectives are measurable', 'ai', true, 'module-objectives'),
      ],
    },
    {
      standardId: 's3',
      number: '3',
      title: 'Assessment',
      items: [
        item('3.1', 'The gradebook setup has no open checks', 'automatic', true, 'gradebook-clean'),
        item('3.2', 'Every published assignment with points has a rubric', 'automatic', true, 'rubrics-present'),
        item('3.3', 'Every published assignment has a due date', 'automatic', false, 'due-dates'),
        item('3.4', 'Every assignment has instructions', 'automatic', false, 'instructions-present'),
      ],
    },
    {
      standardId: 's4',
      number: '4',
      title: 'Materials',
      items: [
        item('4.1', 'Materials support the stated objectives', 'human', true),
        item('4.2', 'Every lesson has content', 'automatic', false, 'lessons-have-content'),
      ],
    },
    { standardId: 's5', number: '5', title: 'Interaction', items: [item('5.1', 'Learners interact with each other or with the instructor', 'human', false)] },
    {
      standardId: 's6',
      number: '6',
      title: 'Generated content',
      items: [
        item('6.1', 'Every AI-generated block has been reviewed', 'automatic', true, 'ai-reviewed'),
        item('6.2', 'Every embed links to a privacy statement', 'automatic', false, 'embed-privacy'),
      ],
    },
    {
      standardId: 's7',
      number: '7',
      title: 'Learner support',
      items: [item('7.1', 'Links to technical, accessibility and academic support are given', 'human', true)],
    },
    {
      standardId: 's8',
      number: '8',
      title: 'Accessibility',
      items: [
        item('8.1', "Headings are in order: a lesson's first heading is level 1 or 2, and no level is skipped", 'automatic', true, 'heading-order'),
        item('8.2', 'Every image has alt text or is marked decorative', 'automatic', true, 'image-alt'),
        item('8.3', 'Every video has captions', 'automatic', false, 'video-captions'),
        item('8.4', 'Link text says where it goes', 'automatic', false, 'link-text'),
      ],
    },
  ],
};

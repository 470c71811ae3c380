import type { CommandDef, GroupDef } from '../cli/command.js';
import { assignmentsCommands } from './assignments.js';
import { blocksCommands } from './blocks.js';
import { certificatesCommands } from './certificates.js';
import { configCommands } from './config.js';
import { contentLifecycleCommands } from './content-lifecycle.js';
import { courseSyncCommands } from './course-sync.js';
import { coursesCommands } from './courses.js';
import { datasetCommands } from './dataset.js';
import { fixtureCommands } from './fixture.js';
import { gradebookCommands } from './gradebook.js';
import { gradebookCategoriesCommands } from './gradebook-categories.js';
import { gradebookImportCommands } from './gradebook-import.js';
import { gradebookPoliciesCommands } from './gradebook-policies.js';
import { SETUP_DOC } from './gradebook-setup-change.js';
import { lessonsCommands } from './lessons.js';
import { metaCommands } from './meta.js';
import { peopleCommands } from './people.js';
import { rawCommands } from './raw.js';
import { readinessCommands } from './readiness.js';
import { reportingLinesCommands } from './reporting-lines.js';
import { rubricsCommands } from './rubrics.js';
import { serveCommands } from './serve.js';
import { submissionsCommands } from './submissions.js';
import { templatesCommands } from './templates.js';
import { tokensCommands } from './tokens.js';

export const COMMANDS: CommandDef[] = [
  ...coursesCommands,
  ...lessonsCommands,
  ...blocksCommands,
  ...assignmentsCommands,
  ...submissionsCommands,
  ...gradebookCommands,
  ...readinessCommands,
  ...rubricsCommands,
  ...templatesCommands,
  ...certificatesCommands,
  ...reportingLinesCommands,
  ...peopleCommands,
  ...tokensCommands,
  ...datasetCommands,
  ...serveCommands,
  ...rawCommands,
  ...configCommands,
  // #16: serve as a CI fixture
  ...fixtureCommands,
  // #14 offline authoring round trip and the content lifecycle
  ...contentLifecycleCommands,
  ...courseSyncCommands,
  // issue #13: categories, setup parts and the letter scheme by command; grades from a spreadsheet
  ...gradebookCategoriesCommands,
  ...gradebookPoliciesCommands,
  ...gradebookImportCommands,
  // issue #15: coursebook version, coursebook completion bash|zsh|fish
  ...metaCommands,
];

/** Descriptions (and where to read more) for command groups that need one in --help. */
export const COMMAND_GROUPS: GroupDef[] = [
  // issue #13
  {
    name: 'gradebook setup',
    description: "A course's gradebook setup: show it, change one part (late, missing, extra-credit, mode), or replace it whole (set, edit)",
    help: `Every setup field, its meaning, limits and an example: ${SETUP_DOC}\nCategories: coursebook gradebook categories --help. Letters: coursebook gradebook scheme set --help.`,
  },
  {
    name: 'gradebook categories',
    description: "A course's gradebook categories: list, create, update, delete",
    help: `Every category field and its limits: ${SETUP_DOC}`,
  },
  { name: 'gradebook scheme', description: "A course's letter scheme", help: `The scheme's fields and limits: ${SETUP_DOC}` },
];

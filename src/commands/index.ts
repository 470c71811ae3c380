import type { CommandDef } from '../cli/command.js';
import { assignmentsCommands } from './assignments.js';
import { blocksCommands } from './blocks.js';
import { certificatesCommands } from './certificates.js';
import { configCommands } from './config.js';
import { coursesCommands } from './courses.js';
import { datasetCommands } from './dataset.js';
import { gradebookCommands } from './gradebook.js';
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
  // issue #15: coursebook version, coursebook completion bash|zsh|fish
  ...metaCommands,
];

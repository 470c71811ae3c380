/**
 * What the program knows before it loads a command module (the Performance issue: a cold
 * start loads only the group it runs). Each top-level word of `coursebook --help` with what
 * help and completion show of it, and each command module with the top-level words its
 * commands start with. test/cli/command-catalog.test.ts checks both against the modules.
 */
import type { CommandDef, GroupDef } from '../cli/command.js';
import { GROUP_DESCRIPTIONS } from './examples.js';
import { SETUP_DOC } from './gradebook-setup-change.js';

/** A top-level word of the program, as `coursebook --help` lists it before its module is loaded. */
export interface TopLevelCommand {
  word: string;
  description: string;
  /** A single command's options and arguments as help lists them ('[options] <file>'); absent for a group. */
  usage?: string;
}

const group = (word: string): TopLevelCommand => ({ word, description: GROUP_DESCRIPTIONS[word] ?? '' });

/** In `coursebook --help` order (the order the modules below define them in). */
export const TOP_LEVEL_COMMANDS: readonly TopLevelCommand[] = [
  group('courses'),
  group('modules'),
  group('lessons'),
  group('blocks'),
  group('assignments'),
  group('submissions'),
  group('gradebook'),
  group('readiness'),
  group('rubrics'),
  group('templates'),
  group('certificates'),
  group('reporting-lines'),
  { word: 'whoami', description: 'Show the acting user, the scopes of the credential, the back end in use (store or service) and the profile', usage: '' },
  group('users'),
  group('enrollments'),
  group('tokens'),
  {
    word: 'import',
    description: 'Import a dataset file, or a nested course file: all or nothing; every problem is listed with its path',
    usage: '[options] <file>',
  },
  { word: 'dump', description: 'Write the whole store as a dataset document (tokens as tokenSha256)', usage: '[options]' },
  { word: 'serve', description: 'Serve the store as the HTTP JSON API (prints one JSON "listening" line on stdout when ready)', usage: '[options]' },
  { word: 'api', description: 'Send a raw API request in either mode, like `gh api` (PATH is relative to /api/v1)', usage: '[options] <method> <path>' },
  {
    word: 'health',
    description: 'Check a service: GET URL/api/v1/health (exit 0 when it answers {"status":"ok"}, 1 when it answers anything else, 9 when nothing answers)',
    usage: '[options] <url>',
  },
  group('config'),
  group('fixture'),
  { word: 'version', description: 'Print the version of coursebook (and the store schema and Node it runs with)', usage: '' },
  { word: 'completion', description: 'Print a shell completion script (commands, flags and, on a local store, course ids)', usage: '<shell>' },
];

/** A module of src/commands, loaded on first use, and the top-level words of its commands. */
export interface CommandModule {
  words: readonly string[];
  load(): Promise<CommandDef[]>;
}

/** Every command module; the program lists a group's commands in this order. */
export const COMMAND_MODULES: readonly CommandModule[] = [
  { words: ['courses', 'modules'], load: async () => (await import('./courses.js')).coursesCommands },
  { words: ['lessons'], load: async () => (await import('./lessons.js')).lessonsCommands },
  { words: ['blocks'], load: async () => (await import('./blocks.js')).blocksCommands },
  { words: ['assignments'], load: async () => (await import('./assignments.js')).assignmentsCommands },
  { words: ['submissions'], load: async () => (await import('./submissions.js')).submissionsCommands },
  { words: ['gradebook'], load: async () => (await import('./gradebook.js')).gradebookCommands },
  { words: ['readiness', 'courses'], load: async () => (await import('./readiness.js')).readinessCommands },
  { words: ['rubrics'], load: async () => (await import('./rubrics.js')).rubricsCommands },
  { words: ['templates'], load: async () => (await import('./templates.js')).templatesCommands },
  { words: ['certificates'], load: async () => (await import('./certificates.js')).certificatesCommands },
  { words: ['reporting-lines'], load: async () => (await import('./reporting-lines.js')).reportingLinesCommands },
  { words: ['whoami', 'users', 'enrollments'], load: async () => (await import('./people.js')).peopleCommands },
  { words: ['tokens'], load: async () => (await import('./tokens.js')).tokensCommands },
  { words: ['import', 'dump'], load: async () => (await import('./dataset.js')).datasetCommands },
  { words: ['serve'], load: async () => (await import('./serve.js')).serveCommands },
  { words: ['api', 'health'], load: async () => (await import('./raw.js')).rawCommands },
  { words: ['config'], load: async () => (await import('./config.js')).configCommands },
  // #16: serve as a CI fixture
  { words: ['fixture'], load: async () => (await import('./fixture.js')).fixtureCommands },
  // #14 offline authoring round trip and the content lifecycle
  { words: ['courses', 'modules', 'lessons', 'assignments'], load: async () => (await import('./content-lifecycle.js')).contentLifecycleCommands },
  { words: ['courses'], load: async () => (await import('./course-sync.js')).courseSyncCommands },
  // issue #13: categories, setup parts and the letter scheme by command; grades from a spreadsheet
  { words: ['gradebook'], load: async () => (await import('./gradebook-categories.js')).gradebookCategoriesCommands },
  { words: ['gradebook'], load: async () => (await import('./gradebook-policies.js')).gradebookPoliciesCommands },
  { words: ['gradebook'], load: async () => (await import('./gradebook-import.js')).gradebookImportCommands },
  // issue #15: coursebook version, coursebook completion bash|zsh|fish
  { words: ['version', 'completion'], load: async () => (await import('./meta.js')).metaCommands },
  // An assignment's rubric and instruction blocks without JSON (readiness 3.2 and 3.4)
  { words: ['assignments'], load: async () => (await import('./assignment-parts.js')).assignmentPartsCommands },
];

/**
 * The commands under these top-level words (all of them when `words` is absent), in
 * program order: only the modules that define them are loaded.
 */
export async function loadCommands(words?: ReadonlySet<string>): Promise<CommandDef[]> {
  const wanted = (word: string) => words === undefined || words.has(word);
  const modules = COMMAND_MODULES.filter((m) => m.words.some(wanted));
  const loaded = await Promise.all(modules.map((m) => m.load()));
  return loaded.flat().filter((def) => wanted(def.name.split(' ')[0]!));
}

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

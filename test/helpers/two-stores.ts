/**
 * Two stores for the offline authoring round trip tests (#14): a laptop store where the
 * author works, and a "hub" store standing in for the service, reached through profiles
 * (`hub`: a store file, acting as its admin; `hub-inst` and `hub-other` act as instructors).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sequentialIds } from '../../src/runtime/ids.js';
import type { CliResult, InProcessOptions } from './cli.js';
import { type CliStore, cliStore } from './cli-store.js';

export const HUB = {
  coursebook: 1,
  users: [
    { id: 'admin', name: 'Ada Admin', admin: true },
    { id: 'inst', name: 'Ivan Instructor' },
    { id: 'inst2', name: 'Olga Other' },
    { id: 'stu', name: 'Sam Student' },
  ],
  tokens: [
    { token: 'tok-admin', userId: 'admin', scopes: ['*'] },
    { token: 'tok-inst', userId: 'inst', scopes: ['*'] },
  ],
  courses: [{ id: 'crs_other', title: 'Another course' }],
  enrollments: [{ courseId: 'crs_other', userId: 'inst2', role: 'instructor' }],
  modules: [{ id: 'mod_other', courseId: 'crs_other', title: 'Theirs' }],
};

const RUBRIC = JSON.stringify([{ id: 'acc', title: 'Accuracy', levels: [{ id: 'full', title: 'Full', points: 5 }] }]);

export interface Setup {
  laptop: CliStore;
  hub: CliStore;
  hubKey: string;
  /** Run on the laptop (ids come from one sequential source, so they repeat run after run). */
  lap(args: string[], options?: InProcessOptions): Promise<CliResult>;
  /** The same, asserting exit 0; answers stdout. */
  lapOk(args: string[], options?: InProcessOptions): Promise<string>;
  /** A course's GET .../content body on one side, as sent (bytes). */
  contentText(side: CliStore, courseId?: string): Promise<string>;
}

let open: CliStore[] = [];

/** Keep a store to clean up with the others. */
export function trackStore<T extends CliStore>(store: T): T {
  open.push(store);
  return store;
}

/** Remove every store made since the last call (each test file calls it after each test). */
export function cleanupStores(): void {
  for (const s of open) s.cleanup();
  open = [];
}

export async function twoStores(): Promise<Setup> {
  const laptop = await cliStore('empty');
  const hub = await cliStore(HUB);
  trackStore(laptop);
  trackStore(hub);
  mkdirSync(join(laptop.env.XDG_CONFIG_HOME!, 'coursebook'), { recursive: true });
  writeFileSync(
    join(laptop.env.XDG_CONFIG_HOME!, 'coursebook', 'config.json'),
    JSON.stringify({ profiles: { hub: { db: hub.db }, 'hub-inst': { db: hub.db, as: 'inst' }, 'hub-other': { db: hub.db, as: 'inst2' }, empty: {} } }),
  );
  const ids = sequentialIds();
  const lap = (args: string[], options: InProcessOptions = {}) => laptop.run(args, { ids: () => ids, ...options });
  return {
    laptop,
    hub,
    hubKey: `store:${hub.db}`,
    lap,
    lapOk: async (args, options) => {
      const res = await lap(args, options);
      if (res.code !== 0) throw new Error(`coursebook ${args.join(' ')} exited ${res.code}: ${res.stderr}`);
      return res.stdout;
    },
    contentText: (side, courseId = 'crs_stats') => side.ok(['--json', 'api', 'GET', `/courses/${courseId}/content`]),
  };
}

/** Author "Statistics 101" offline: one module, three lessons with four blocks, one assignment. */
export async function authorOffline(s: Setup): Promise<void> {
  await s.lapOk(['courses', 'create', '--id', 'crs_stats', '--title', 'Statistics 101']);
  await s.lapOk(['modules', 'create', '--course', 'crs_stats', '--title', 'Describing data']); // mod_0001
  await s.lapOk(['lessons', 'create', '--module', 'mod_0001', '--title', 'Welcome', '--minutes', '10']); // les_0001
  await s.lapOk(['lessons', 'create', '--module', 'mod_0001', '--title', 'Averages', '--minutes', '20']); // les_0002
  await s.lapOk(['lessons', 'create', '--module', 'mod_0001', '--title', 'Spread', '--minutes', '25']); // les_0003
  await s.lapOk(['blocks', 'add', 'les_0001', '--type', 'heading', '--level', '2', '--text', 'Hello']); // blk_0001
  await s.lapOk(['blocks', 'add', 'les_0001', '--type', 'paragraph', '--text', 'This course is about data.']); // blk_0002
  await s.lapOk(['blocks', 'add', 'les_0002', '--type', 'paragraph', '--text', 'The mean is the sum over the count.']); // blk_0003
  await s.lapOk(['blocks', 'add', 'les_0002', '--type', 'paragraph', '--text', 'An outdated note.']); // blk_0004
  await s.lapOk(['assignments', 'create', '--module', 'mod_0001', '--title', 'Summary', '--points', '10']); // asg_0001
  await s.lapOk(['assignments', 'publish', 'asg_0001']);
  await s.lapOk(['modules', 'publish', 'mod_0001']);
}

/** The first admin of a new local store: who acts on the laptop. */
export const LOCAL_ADMIN = 'local';

/**
 * Author "Probability" (crs_pub) and publish it: ready by readiness, with two attestations
 * (4.1, 7.1) and an accepted AI finding (2.2) in this store only. One module, one lesson
 * with a heading and a paragraph, the empty gradebook category's check dismissed.
 */
export async function authorReady(s: Setup): Promise<void> {
  const description =
    'This course teaches the basics of probability: events, counting and expected values. It is organised in one module of short lessons that you work through at your own pace, with a quiz at the end.';
  await s.lapOk(['courses', 'create', '--id', 'crs_pub', '--title', 'Probability', '--description', description]);
  await s.lapOk(['modules', 'create', '--course', 'crs_pub', '--title', 'Events']); // mod_0001
  await s.lapOk(['modules', 'update', 'mod_0001', '--objective', 'Compute the probability of an event']);
  await s.lapOk(['lessons', 'create', '--module', 'mod_0001', '--title', 'Counting', '--minutes', '10']); // les_0001
  await s.lapOk(['blocks', 'create', '--lesson', 'les_0001', '--type', 'heading', '--level', '2', '--text', 'Counting']);
  await s.lapOk(['blocks', 'create', '--lesson', 'les_0001', '--type', 'paragraph', '--text', 'Count the ways.']);
  await s.lapOk(['gradebook', 'dismiss', '-c', 'crs_pub', '--code', 'category-empty', '--target', 'assignments']);
  await s.lapOk(['readiness', 'attest', '-c', 'crs_pub', '--item', '4.1', '--note', 'Checked against the objectives.']);
  await s.lapOk(['readiness', 'attest', '-c', 'crs_pub', '--item', '7.1', '--note', 'Support links are in the syllabus.']);
  await s.lapOk([
    'api',
    'PUT',
    '/courses/crs_pub/readiness/items/2.2/finding',
    '--body',
    '{"verdict":"met","evidence":"The objective names a measurable action."}',
  ]);
  await s.lapOk(['readiness', 'findings', 'review', '-c', 'crs_pub', '--item', '2.2', '--accept']);
  await s.lapOk(['courses', 'publish', 'crs_pub']);
}

/** The edits of the issue: rename a lesson, delete a block, reorder lessons, add an assignment with a rubric, move a block to another lesson. */
export async function editOffline(s: Setup): Promise<void> {
  await s.lapOk(['lessons', 'update', 'les_0002', '--title', 'Averages and medians']);
  await s.lapOk(['blocks', 'delete', 'blk_0004', '--yes']);
  await s.lapOk(['lessons', 'update', 'les_0003', '--position', '0']);
  await s.lapOk(['assignments', 'create', '--module', 'mod_0001', '--title', 'Quiz', '--points', '5', '--rubric-file', '-'], { input: RUBRIC }); // asg_0002
  await s.lapOk(['blocks', 'move', 'blk_0002', '0', '--lesson', 'les_0003']);
}

export const EDIT_TREE = [
  '  course crs_stats "Statistics 101"',
  '    module mod_0001 "Describing data"',
  '    > lesson les_0003 "Spread" (moved: position 2 -> 0)',
  '      > block blk_0002 paragraph "This course is about data." (moved from lesson les_0001)',
  '    ~ lesson les_0002 "Averages and medians" (title)',
  '      - block blk_0004 paragraph "An outdated note."',
  '    + assignment asg_0002 "Quiz"',
  '',
].join('\n');

export const withoutRevision = (text: string) => text.replace(/,"contentRevision":\d+/, '');

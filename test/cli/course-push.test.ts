/**
 * `courses push` (#14), in-process with two stores (test/helpers/two-stores.ts), and once
 * over HTTP to an in-process `serve`.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/serve/server.js';
import { runCli, scriptedPrompter } from '../helpers/cli.js';
import { cliStore } from '../helpers/cli-store.js';
import { inProcessServeOptions } from '../helpers/serve.js';
import {
  authorOffline,
  authorReady,
  cleanupStores,
  EDIT_TREE,
  editOffline,
  HUB,
  LOCAL_ADMIN,
  trackStore,
  twoStores,
  withoutRevision,
} from '../helpers/two-stores.js';

afterEach(cleanupStores);

describe('courses push', () => {
  it('pushes an offline course (creating it), edits, pushes again: the two GET .../content bodies are equal but for contentRevision', async () => {
    const s = await twoStores();
    await authorOffline(s);
    const first = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      [
        '+ course crs_stats "Statistics 101"',
        '  + module mod_0001 "Describing data"',
        '    + lesson les_0001 "Welcome"',
        '      + block blk_0001 heading 2 "Hello"',
        '      + block blk_0002 paragraph "This course is about data."',
        '    + lesson les_0002 "Averages"',
        '      + block blk_0003 paragraph "The mean is the sum over the count."',
        '      + block blk_0004 paragraph "An outdated note."',
        '    + lesson les_0003 "Spread"',
        '    + assignment asg_0001 "Summary"',
        `pushed crs_stats to ${s.hubKey}: 10 added (remote revision 10)`,
        '',
      ].join('\n'),
    );
    expect(withoutRevision(await s.contentText(s.hub))).toBe(withoutRevision(await s.contentText(s.laptop)));

    await editOffline(s);
    const dry = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--dry-run']);
    expect(dry.stdout).toBe(`${EDIT_TREE}dry run: push to ${s.hubKey} would make 1 added, 1 changed, 2 moved, 1 removed; nothing changed\n`);
    expect(JSON.parse(await s.contentText(s.hub)).modules[0].lessons.map((l: { title: string }) => l.title)).toEqual(['Welcome', 'Averages', 'Spread']);

    const second = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    expect(second.code).toBe(0);
    expect(second.stdout.startsWith(EDIT_TREE)).toBe(true);
    expect(second.stdout.slice(EDIT_TREE.length)).toMatch(/^pushed crs_stats to store:.*: 1 added, 1 changed, 2 moved, 1 removed \(remote revision \d+\)\n$/);
    const local = await s.contentText(s.laptop);
    const remote = await s.contentText(s.hub);
    expect(withoutRevision(remote)).toBe(withoutRevision(local));
    expect(remote).not.toBe(local); // the revisions are each store's own

    const third = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    expect(third.stdout).toMatch(/^crs_stats is up to date with store:.* \(local revision \d+, remote revision \d+\)\n$/);
    expect(await s.contentText(s.hub)).toBe(remote);
  });

  it('--json prints the API answer of the write: the plan by id and the new revision', async () => {
    const s = await twoStores();
    await authorOffline(s);
    await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    await editOffline(s);
    const res = JSON.parse(await s.lapOk(['--json', 'courses', 'push', 'crs_stats', '--to', 'hub', '--yes']));
    expect(res).toMatchObject({ courseId: 'crs_stats', dryRun: false, created: false, changes: 5 });
    expect(res.plan).toEqual({
      course: { created: false, changed: [] },
      modules: { added: [], changed: [], moved: [], removed: [] },
      lessons: { added: [], changed: [{ id: 'les_0002', fields: ['title'] }], moved: ['les_0003'], removed: [] },
      assignments: { added: ['asg_0002'], changed: [], moved: [], removed: [] },
      blocks: { added: [], changed: [], moved: ['blk_0002'], removed: ['blk_0004'] },
      gradebookSetup: { changed: [] },
    });
  });

  it('a push over a remote edit is refused (exit 6) showing that edit; pull brings it down; then pushing is up to date', async () => {
    const s = await twoStores();
    await authorOffline(s);
    await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    await s.hub.ok(['lessons', 'update', 'les_0001', '--title', 'Welcome!']);
    const before = await s.contentText(s.hub);
    const refused = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    expect(refused.code).toBe(6);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      [
        `The changes on ${s.hubKey} since your last push or pull (1 changed):`,
        '  course crs_stats "Statistics 101"',
        '    module mod_0001 "Describing data"',
        '    ~ lesson les_0001 "Welcome!" (title)',
        `error (conflict): ${s.hubKey} changed course crs_stats since your last push or pull (revision 10 then, 11 now): someone else edited it. Bring those changes down with courses pull crs_stats, or push --force to overwrite them.`,
        '',
      ].join('\n'),
    );
    expect(await s.contentText(s.hub)).toBe(before);

    const pulled = await s.lap(['courses', 'pull', 'crs_stats', '--from', 'hub', '--yes']);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toMatch(/~ lesson les_0001 "Welcome!" \(title\)\npulled crs_stats from store:.*: 1 changed \(local revision \d+\)\n$/);
    expect(JSON.parse(await s.contentText(s.laptop)).modules[0].lessons[0].title).toBe('Welcome!');
    expect((await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes'])).stdout).toMatch(/is up to date with/);
    // Local work goes up again as usual.
    await s.lapOk(['lessons', 'update', 'les_0003', '--minutes', '30']);
    expect((await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes'])).stdout).toMatch(/~ lesson les_0003 "Spread" \(minutes\)\npushed/);
  });

  it('a remote edit undone (renamed and renamed back: the revision moved, the course file did not) is no conflict: the push goes ahead', async () => {
    const s = await twoStores();
    await authorOffline(s);
    await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    await s.lapOk(['lessons', 'update', 'les_0003', '--minutes', '30']);
    await s.hub.ok(['lessons', 'update', 'les_0001', '--title', 'Tmp']);
    await s.hub.ok(['lessons', 'update', 'les_0001', '--title', 'Welcome']);
    const pushed = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    expect(pushed).toEqual({
      code: 0,
      stdout: [
        '  course crs_stats "Statistics 101"',
        '    module mod_0001 "Describing data"',
        '    ~ lesson les_0003 "Spread" (minutes)',
        `pushed crs_stats to ${s.hubKey}: 1 changed (remote revision 13)`,
        '',
      ].join('\n'),
      stderr: '',
    });
    // The mark now holds revision 13: the next remote edit is measured from there.
    await s.hub.ok(['lessons', 'update', 'les_0001', '--title', 'Welcome!']);
    expect((await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes'])).stderr).toContain('(revision 13 then, 14 now)');
  });

  it('--force pushes over a remote edit; with --json a refusal carries the remote changes in its details', async () => {
    const s = await twoStores();
    await authorOffline(s);
    await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    await s.hub.ok(['lessons', 'update', 'les_0001', '--title', 'Welcome!']);
    const refused = await s.lap(['--json', 'courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    expect(refused.code).toBe(6);
    const error = JSON.parse(refused.stderr).error;
    expect(error).toMatchObject({ code: 'conflict', details: { courseId: 'crs_stats', remote: s.hubKey, expectedRevision: 10, currentRevision: 11 } });
    expect(error.details.remoteChanges.lessons.changed).toEqual([{ id: 'les_0001', fields: ['title'] }]);
    const forced = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('~ lesson les_0001 "Welcome" (title)');
    expect(JSON.parse(await s.contentText(s.hub)).modules[0].lessons[0].title).toBe('Welcome');
  });

  it('submissions made on the remote survive every push; removing their assignment is refused (exit 6) and nothing is written', async () => {
    const s = await twoStores();
    await authorOffline(s);
    await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    await s.hub.ok(['enrollments', 'create', '--course', 'crs_stats', '--user', 'stu', '--role', 'student']);
    await s.hub.ok(['--as', 'stu', 'submissions', 'create', '--assignment', 'asg_0001', '--text', 'My summary.']);
    const submissions = () => s.hub.ok(['--json', 'submissions', 'list', '--assignment', 'asg_0001']);
    const kept = await submissions();
    expect(JSON.parse(kept)).toHaveLength(1);
    await editOffline(s);
    await s.lapOk(['assignments', 'update', 'asg_0001', '--title', 'Summary (500 words)']);
    await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    expect(await submissions()).toBe(kept);

    await s.lapOk(['assignments', 'delete', 'asg_0001', '--yes']);
    const before = await s.contentText(s.hub);
    const refused = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toBe(
      'error (conflict): Student work would be lost: asg_0001 ("Summary (500 words)", 1 submission) would be deleted. Nothing was changed.\n',
    );
    expect(await s.contentText(s.hub)).toBe(before);
    expect(await submissions()).toBe(kept);
  });

  it('an instructor of the course may push; an instructor of another course may not (exit 5)', async () => {
    const s = await twoStores();
    await authorOffline(s);
    await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    await s.hub.ok(['enrollments', 'create', '--course', 'crs_stats', '--user', 'inst', '--role', 'instructor']);
    await s.lapOk(['lessons', 'update', 'les_0001', '--title', 'Hello, class']);
    const inst = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub-inst', '--yes']);
    expect(inst.code).toBe(0);
    expect(inst.stdout).toContain('~ lesson les_0001 "Hello, class" (title)');
    await s.lapOk(['lessons', 'update', 'les_0001', '--title', 'Hello again']);
    const other = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub-other', '--yes']);
    expect(other).toEqual({ code: 5, stdout: '', stderr: 'error (not-found): Course "crs_stats" was not found.\n' });
    expect(JSON.parse(await s.contentText(s.hub)).modules[0].lessons[0].title).toBe('Hello, class');
  });

  it('asks on a terminal (no: nothing pushed); off a terminal it needs --yes (exit 2)', async () => {
    const s = await twoStores();
    await authorOffline(s);
    const tty = { tty: { stdin: true, stdout: true }, env: { CI: '' } };
    const no = scriptedPrompter([false]);
    const declined = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub'], { ...tty, prompter: no });
    expect(declined.code).toBe(0);
    expect(no.asked).toEqual([`Push these changes (10 added) to ${s.hubKey}?`]);
    expect(declined.stderr).toMatch(/^\+ course crs_stats "Statistics 101"\n[\s\S]*\nnothing pushed\n$/);
    expect((await s.hub.run(['courses', 'show', 'crs_stats'])).code).toBe(5);
    const yes = scriptedPrompter([true]);
    const accepted = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub'], { ...tty, prompter: yes });
    expect(accepted.stdout).toBe(`pushed crs_stats to ${s.hubKey}: 10 added (remote revision 10)\n`);
    await s.lapOk(['lessons', 'update', 'les_0001', '--minutes', '12']);
    expect(await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: push changes crs_stats (1 changed); confirm with --yes when not interactive (see --dry-run)\n',
    });
  });

  it('colours the tree on a terminal: + green, ~ yellow, > cyan, - red', async () => {
    const s = await twoStores();
    await authorOffline(s);
    await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    await editOffline(s);
    const out = await s.lapOk(['courses', 'push', 'crs_stats', '--to', 'hub', '--dry-run'], { env: { FORCE_COLOR: '1', NO_COLOR: '' } });
    expect(out).toContain('\x1b[36m> lesson les_0003 "Spread" (moved: position 2 -> 0)\x1b[39m');
    expect(out).toContain('\x1b[33m~ lesson les_0002 "Averages and medians" (title)\x1b[39m');
    expect(out).toContain('\x1b[31m- block blk_0004 paragraph "An outdated note."\x1b[39m');
    expect(out).toContain('\x1b[32m+ assignment asg_0002 "Quiz"\x1b[39m');
  });

  it('a remote that already has the course but was never pushed to from here is refused, showing what would change', async () => {
    const s = await twoStores();
    await s.hub.ok(['courses', 'create', '--id', 'crs_stats', '--title', 'Statistics (hub copy)']);
    await s.lapOk(['courses', 'create', '--id', 'crs_stats', '--title', 'Statistics 101']);
    const res = await s.lap(['courses', 'push', 'crs_stats', '--to', 'hub', '--yes']);
    expect(res.code).toBe(6);
    expect(res.stderr).toBe(
      [
        'A push would change (1 changed):',
        '~ course crs_stats "Statistics 101" (title)',
        `error (conflict): ${s.hubKey} already has course crs_stats, and this store has not pushed it to or pulled it from ${s.hubKey}, so its changes could be lost; compare with courses diff, then push --force to overwrite them, or pull to start from the remote copy.`,
        '',
      ].join('\n'),
    );
  });

  it('usage errors: no remote (exit 2), an unknown or empty profile (exit 2), a course not in this store (exit 5)', async () => {
    const s = await twoStores();
    expect(await s.lap(['courses', 'push', 'crs_stats'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: missing the remote: give --to PROFILE, or --base-url URL with --token TOKEN\n',
    });
    expect((await s.lap(['courses', 'push', 'crs_stats', '--to', 'nope'])).stderr).toBe(
      'error: no profile named "nope" for --to (see coursebook config list)\n',
    );
    // A store file's path or a service's URL, where a profile goes: the hint says how to make one of it.
    expect(await s.lap(['courses', 'diff', 'crs_stats', '--to', 'other/hub.db'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: no profile named "other/hub.db" for --to: it takes a profile; make one of the store with coursebook config set db other/hub.db --name NAME\n',
    });
    expect((await s.lap(['courses', 'pull', 'crs_stats', '--from', 'https://lms.example'])).stderr).toBe(
      'error: no profile named "https://lms.example" for --from: it takes a profile; make one of the service with coursebook config set baseUrl https://lms.example --name NAME (and config set token ... --name NAME), or give --base-url and --token instead\n',
    );
    expect((await s.lap(['courses', 'push', 'crs_stats', '--to', 'empty'])).stderr).toBe(
      'error: profile "empty" (--to) has neither a baseUrl nor a db; set one with coursebook config set\n',
    );
    expect(await s.lap(['courses', 'push', 'crs_nope', '--to', 'hub', '--yes'])).toEqual({
      code: 5,
      stdout: '',
      stderr: 'error (not-found): Course "crs_nope" was not found in this store.\n',
    });
  });

  it('a published course pushes to a new service and pulls into a new store: its readiness evidence goes with the first copy, so the gate passes there', async () => {
    const s = await twoStores();
    await authorReady(s);
    const pushed = await s.lap(['courses', 'push', 'crs_pub', '--to', 'hub', '--yes']);
    expect(pushed.stderr).toBe('');
    expect(pushed.code).toBe(0);
    expect(pushed.stdout.split('\n').slice(-3)).toEqual([
      `pushed crs_pub to ${s.hubKey}: 5 added (remote revision 5)`,
      'with its readiness evidence: 2 attestations, 1 finding',
      '',
    ]);
    const report = JSON.parse(await s.hub.ok(['--json', 'readiness', 'show', '-c', 'crs_pub']));
    expect(report.blocksPublishing).toBe(false);
    const items = Object.fromEntries(report.standards.flatMap((st: { items: { itemId: string }[] }) => st.items).map((i: { itemId: string }) => [i.itemId, i]));
    // Recorded by the laptop's admin, as on the laptop: the copy is not re-attested by whoever pushed.
    expect(items['4.1']).toMatchObject({ status: 'attested', attestation: { by: LOCAL_ADMIN, note: 'Checked against the objectives.' } });
    expect(items['2.2']).toMatchObject({ status: 'met', finding: { state: 'accepted', reviewedBy: LOCAL_ADMIN } });
    expect(JSON.parse(await s.hub.ok(['--json', 'courses', 'show', 'crs_pub'])).status).toBe('published');

    // A new laptop: pull into an empty store.
    const fresh = trackStore(await cliStore('empty'));
    mkdirSync(join(fresh.env.XDG_CONFIG_HOME!, 'coursebook'), { recursive: true });
    writeFileSync(join(fresh.env.XDG_CONFIG_HOME!, 'coursebook', 'config.json'), JSON.stringify({ profiles: { hub: { db: s.hub.db } } }));
    const pulled = await fresh.run(['courses', 'pull', 'crs_pub', '--from', 'hub', '--yes']);
    expect(pulled.stderr).toBe('');
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toMatch(/pulled crs_pub from store:.*: 5 added \(local revision 5\)\nwith its readiness evidence: 2 attestations, 1 finding\n$/);
    expect(JSON.parse(await fresh.ok(['--json', 'readiness', 'show', '-c', 'crs_pub'])).blocksPublishing).toBe(false);
    // Afterwards each copy keeps its own: a second push sends none, and a withdrawal here stays here.
    await s.lapOk(['readiness', 'withdraw', '-c', 'crs_pub', '--item', '7.1']);
    await s.lapOk(['lessons', 'update', 'les_0001', '--minutes', '12']);
    expect((await s.lap(['courses', 'push', 'crs_pub', '--to', 'hub', '--yes'])).stdout).toMatch(/: 1 changed \(remote revision 6\)\n$/);
    expect(JSON.parse(await s.hub.ok(['--json', 'readiness', 'show', '-c', 'crs_pub'])).blocksPublishing).toBe(false);
  });

  it('an unready source is refused on the new end (exit 6, not-ready naming the items), and nothing is written there', async () => {
    const s = await twoStores();
    await authorReady(s);
    await s.lapOk(['readiness', 'withdraw', '-c', 'crs_pub', '--item', '4.1']);
    expect(await s.lap(['courses', 'push', 'crs_pub', '--to', 'hub', '--yes'])).toEqual({
      code: 6,
      stdout: '',
      stderr: 'error (not-ready): The course is not ready to publish: essential items 4.1 are not met.\n',
    });
    expect((await s.hub.run(['courses', 'show', 'crs_pub'])).code).toBe(5);
  });

  it("--base-url/--token name the other end: the local end stays the default profile's store (no new store); a default profile that is a service is refused (exit 2)", async () => {
    const s = await twoStores();
    const server = await startServer(inProcessServeOptions({ seed: { name: 'hub.json', text: JSON.stringify(HUB) } }));
    try {
      await authorOffline(s);
      const config = join(s.laptop.env.XDG_CONFIG_HOME!, 'coursebook', 'config.json');
      const profiles = { laptop: { db: s.laptop.db }, hub: { baseUrl: server.url, token: 'tok-admin' } };
      writeFileSync(config, JSON.stringify({ profiles, defaultProfile: 'laptop' }));
      // No --db: the store is the default profile's, as authoring.md sets it up.
      const http = ['--base-url', server.url, '--token', 'tok-admin'];
      const pushed = await runCli(['courses', 'push', 'crs_stats', ...http, '--yes'], { env: s.laptop.env });
      expect(pushed.stderr).toBe('');
      expect(pushed.code).toBe(0);
      expect(pushed.stdout).toMatch(new RegExp(`pushed crs_stats to ${server.url}: 10 added \\(remote revision 10\\)\n$`));
      expect(existsSync(join(s.laptop.env.XDG_DATA_HOME!, 'coursebook', 'coursebook.db'))).toBe(false);
      // The same from the environment, for diff and pull.
      const env = { ...s.laptop.env, COURSEBOOK_BASE_URL: server.url, COURSEBOOK_TOKEN: 'tok-admin' };
      expect((await runCli(['courses', 'diff', 'crs_stats'], { env })).stdout).toMatch(
        /^local: {2}crs_stats revision 12, unchanged since the last push or pull\n/,
      );
      expect((await runCli(['courses', 'pull', 'crs_stats', '--yes'], { env })).stdout).toMatch(/^crs_stats is up to date with /);

      // A default profile that is a service is no local store: said, not guessed.
      writeFileSync(config, JSON.stringify({ profiles, defaultProfile: 'hub' }));
      expect(await runCli(['courses', 'push', 'crs_stats', ...http, '--yes'], { env: s.laptop.env })).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: --base-url names the other end, and this end comes from the profile, but the profile "hub" is the service ${server.url}, not a local store: give the local store with --db PATH or --profile NAME (a profile with a db)\n`,
      });
      expect((await runCli(['courses', 'pull', 'crs_stats', '--yes'], { env: s.laptop.env })).stderr).toBe(
        `error: missing the remote: give --from PROFILE, or --base-url URL with --token TOKEN (the profile "hub" is the service ${server.url}, not a local store: it is the end this command works from; to make it the remote, give --from hub)\n`,
      );
      // --db names the local end beside --base-url (no longer "give one").
      expect((await runCli(['--db', s.laptop.db, 'courses', 'push', 'crs_stats', ...http, '--yes'], { env: s.laptop.env })).stdout).toMatch(
        /is up to date with/,
      );
      expect(existsSync(join(s.laptop.env.XDG_DATA_HOME!, 'coursebook', 'coursebook.db'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('a service given as its root or as its API (/api/v1, a slash, an upper-case scheme) is one remote: one sync mark, named by its root', async () => {
    const s = await twoStores();
    const server = await startServer(inProcessServeOptions({ seed: { name: 'hub.json', text: JSON.stringify(HUB) } }));
    const url = server.url;
    try {
      await authorOffline(s);
      expect((await s.lap(['courses', 'push', 'crs_stats', '--base-url', url, '--token', 'tok-admin', '--yes'])).code).toBe(0);
      expect(await s.lapOk(['courses', 'diff', 'crs_stats', '--base-url', `${url}/api/v1`, '--token', 'tok-admin'])).toBe(
        [
          'local:  crs_stats revision 12, unchanged since the last push or pull',
          `remote: ${url} revision 10, unchanged since the last push or pull`,
          'no differences',
          '',
        ].join('\n'),
      );
      const env = { ...s.laptop.env, COURSEBOOK_BASE_URL: `${url.replace('http:', 'HTTP:')}/api/v1/`, COURSEBOOK_TOKEN: 'tok-admin' };
      await s.lapOk(['lessons', 'update', 'les_0002', '--minutes', '22']);
      expect((await s.lap(['courses', 'diff', 'crs_stats'], { env })).stdout.split('\n').slice(0, 2)).toEqual([
        'local:  crs_stats revision 13, changed since the last push or pull',
        `remote: ${url} revision 10, unchanged since the last push or pull`,
      ]);
      const pushed = await s.lap(['courses', 'push', 'crs_stats', '--yes'], { env });
      expect(pushed.stderr).toBe('');
      expect(pushed.stdout.split('\n').at(-2)).toBe(`pushed crs_stats to ${url}: 1 changed (remote revision 11)`);
      expect(JSON.parse(await s.lapOk(['--json', 'api', 'GET', `/courses/crs_stats/sync-mark?remote=${encodeURIComponent(url)}`])).mark).toMatchObject({
        remote: url,
        remoteRevision: 11,
        localRevision: 13,
      });
      // The profile is the same service as --base-url: the copy this command works from.
      writeFileSync(
        join(s.laptop.env.XDG_CONFIG_HOME!, 'coursebook', 'config.json'),
        JSON.stringify({ profiles: { hub: { baseUrl: `${url}/api/v1/`, token: 'tok-admin' } } }),
      );
      expect(await runCli(['--profile', 'hub', 'courses', 'push', 'crs_stats', '--to', 'hub', '--yes'], { env: s.laptop.env })).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: the remote (${url}) is the copy this command works from\n`,
      });
    } finally {
      await server.close();
    }
  });

  it('a sync mark an earlier version kept under the API form (URL/api/v1) is still found, and kept under the root from the next push', async () => {
    const s = await twoStores();
    const server = await startServer(inProcessServeOptions({ seed: { name: 'hub.json', text: JSON.stringify(HUB) } }));
    const url = server.url;
    const http = ['--base-url', url, '--token', 'tok-admin'];
    const markAt = async (key: string) =>
      JSON.parse(await s.lapOk(['--json', 'api', 'GET', `/courses/crs_stats/sync-mark?remote=${encodeURIComponent(key)}`])).mark;
    try {
      await authorOffline(s);
      // What a push with --base-url URL/api/v1 left before: the course on the service, and the mark under that name.
      const { contentRevision: localRevision, ...file } = JSON.parse(await s.contentText(s.laptop));
      const onService = await runCli(['--json', ...http, 'api', 'PUT', '/courses/crs_stats/content', '--body', JSON.stringify(file)], { env: s.laptop.env });
      const written = JSON.parse(onService.stdout);
      const mark = { remote: `${url}/api/v1`, remoteRevision: written.revision, localRevision, base: file };
      await s.lapOk(['api', 'PUT', '/courses/crs_stats/sync-mark', '--body', JSON.stringify(mark)]);
      expect(await markAt(url)).toBeNull();

      expect((await s.lapOk(['courses', 'diff', 'crs_stats', ...http])).split('\n').slice(0, 3)).toEqual([
        'local:  crs_stats revision 12, unchanged since the last push or pull',
        `remote: ${url} revision 10, unchanged since the last push or pull`,
        'no differences',
      ]);
      // Up to date: the mark is written again under the root.
      expect(await s.lapOk(['courses', 'push', 'crs_stats', ...http, '--yes'])).toBe(
        `crs_stats is up to date with ${url} (local revision 12, remote revision 10)\n`,
      );
      expect(await markAt(url)).toMatchObject({ remote: url, remoteRevision: 10, localRevision: 12 });
      // A local edit pushes without --force; the root's mark (the old one stays) is the one read.
      await s.lapOk(['lessons', 'update', 'les_0002', '--minutes', '22']);
      const pushed = await s.lap(['courses', 'push', 'crs_stats', ...http, '--yes']);
      expect(pushed.stderr).toBe('');
      expect(pushed.stdout.split('\n').at(-2)).toBe(`pushed crs_stats to ${url}: 1 changed (remote revision 11)`);
      expect((await s.lapOk(['courses', 'diff', 'crs_stats', '--base-url', `${url}/api/v1`, '--token', 'tok-admin'])).split('\n')[1]).toBe(
        `remote: ${url} revision 11, unchanged since the last push or pull`,
      );
    } finally {
      await server.close();
    }
  });

  it('over HTTP to a service (--base-url/--token), and between a service and a store file', async () => {
    const s = await twoStores();
    const server = await startServer(inProcessServeOptions({ seed: { name: 'hub.json', text: JSON.stringify(HUB) } }));
    try {
      await authorOffline(s);
      const http = ['--base-url', server.url, '--token', 'tok-admin'];
      const pushed = await s.lap(['courses', 'push', 'crs_stats', ...http, '--yes']);
      expect(pushed.code).toBe(0);
      expect(pushed.stdout).toMatch(new RegExp(`pushed crs_stats to ${server.url}: 10 added`));
      expect((await s.lap(['courses', 'push', 'crs_stats', ...http, '--yes'])).stdout).toMatch(/is up to date with/);
      // The service now pushes to another store file: the sync mark is the service's.
      const other = trackStore(await cliStore('empty'));
      writeFileSync(join(s.laptop.env.XDG_CONFIG_HOME!, 'coursebook', 'config.json'), JSON.stringify({ profiles: { spare: { db: other.db } } }));
      // The service is this end (no --db: a store and a service together are a usage error).
      const relayed = await runCli(['--base-url', server.url, '--token', 'tok-admin', 'courses', 'push', 'crs_stats', '--to', 'spare', '--yes'], {
        env: s.laptop.env,
      });
      expect(relayed.stderr).toBe('');
      expect(relayed.code).toBe(0);
      expect(withoutRevision(await s.contentText(other))).toBe(withoutRevision(await s.contentText(s.laptop)));
      // An instructor of no course on that service: the course is not-found to them.
      const refused = await s.lap(['courses', 'push', 'crs_stats', '--base-url', server.url, '--token', 'tok-inst', '--yes']);
      expect(refused.code).toBe(5);
    } finally {
      await server.close();
    }
  });
});

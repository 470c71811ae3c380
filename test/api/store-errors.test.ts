/**
 * What the store's own failures become, the same on SQLite and PostgreSQL (#18): a taken
 * unique value is a `conflict` naming the collection and fields in the same words (the
 * values never: a token's hash is one); other constraint failures are coursebook's bugs and
 * stay errors on both. The statements reach beneath the API with portable SQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { nulRefusal, uniqueConflict } from '../../src/store/unique-conflict.js';
import { makeService, type TestService } from '../helpers/app.js';
import { value } from '../helpers/store-sql.js';

let svc: TestService;
afterEach(() => svc?.close());

const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => {
      throw new Error('the statement was expected to fail');
    },
    (err: unknown) => err,
  );

describe('a unique failure is a conflict on both stores', () => {
  it('a composite primary key names both fields', async () => {
    svc = await makeService();
    const err = await failureOf(svc.store.run("INSERT INTO enrollments (course_id, user_id, role) VALUES ('c1', 'stu1', 'student')"));
    expect(uniqueConflict(err)?.toEnvelope().error).toEqual({
      code: 'conflict',
      message: 'Another record in enrollments already has the same courseId and userId; nothing was written.',
      details: { collection: 'enrollments', fields: ['courseId', 'userId'] },
    });
  });

  it('a UNIQUE column other than the key is named, and its value is not told', async () => {
    svc = await makeService();
    const hash = (await svc.store.get<{ token_sha256: string }>("SELECT token_sha256 FROM tokens WHERE user_id = 'admin'"))!.token_sha256;
    const err = await failureOf(
      svc.store.run(
        "INSERT INTO tokens (id, user_id, token_sha256, name, scopes, created_at) SELECT 'tk_copy', user_id, token_sha256, name, scopes, created_at FROM tokens WHERE user_id = 'admin'",
      ),
    );
    const envelope = uniqueConflict(err)?.toEnvelope();
    expect(envelope?.error.details).toEqual({ collection: 'tokens', fields: ['tokenSha256'] });
    expect(JSON.stringify(envelope)).not.toContain(hash);
  });

  it('a foreign-key failure is not a conflict on either store', async () => {
    svc = await makeService();
    const err = await failureOf(svc.store.run("INSERT INTO enrollments (course_id, user_id, role) VALUES ('c1', 'nobody', 'student')"));
    expect(err).toBeInstanceOf(Error);
    expect(uniqueConflict(err)).toBeNull();
  });
});

describe('U+0000 that reaches the store (the edges refuse it first: text-encoding.test.ts)', () => {
  it('PostgreSQL refuses it (22021), which is invalid, never a 500; SQLite would store it', async () => {
    svc = await makeService();
    const write = svc.store.run("UPDATE users SET name = ? WHERE id = 'stu1'", 'a\u0000b');
    // Truly dialect-specific: the reason every edge refuses U+0000 on both stores alike.
    if (svc.store.dialect === 'postgres') {
      expect(nulRefusal(await failureOf(write))?.toEnvelope().error).toMatchObject({ code: 'invalid', details: [{ path: '(request)' }] });
    } else {
      await write;
      expect(await value(svc.store, "SELECT name FROM users WHERE id = 'stu1'")).toBe('a\u0000b');
    }
  });
});

// Two servers on one database, one with the in-process unary fast paths and
// one answering every RPC through stock connect-fastify, for tests that send
// both the same request and compare the answers byte for byte.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { startTestApp, type TestApp } from "./app.ts";
import { createTestDatabase, type TestDatabase } from "./db.ts";

/** For each case, an `it` asserting that `answer` reads the same from both servers. */
export function answersLikeStock<Case extends [name: string, ...rest: unknown[]]>(cases: readonly Case[], answer: (port: number, c: Case) => Promise<unknown>): void {
  let database: TestDatabase;
  let fast: TestApp;
  let stock: TestApp;
  before(async () => {
    database = await createTestDatabase();
    fast = await startTestApp({ database });
    stock = await startTestApp({ database, deps: { connectFastPath: false } });
  });
  after(async () => {
    await fast.close();
    await stock.close();
    await database.drop();
  });

  for (const c of cases) {
    it(`answers like connect-fastify: ${c[0]}`, async () => {
      const [a, b] = await Promise.all([answer(fast.port, c), answer(stock.port, c)]);
      assert.deepEqual(a, b);
    });
  }
}

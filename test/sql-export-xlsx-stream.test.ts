// The XLSX export's stream ends as its rows do: rows that fail fail the
// file (instead of an uncaught error in the ZIP writer, which would stop the
// process), and a file closed early stops pulling rows.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { xlsxChunks } from "../shared/sql-editor/export/xlsx.ts";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("XLSX export stream", () => {
  it("fails the file when its rows fail", async () => {
    async function* failing() {
      yield Buffer.from("<row/>");
      await tick();
      throw new Error("the target went away");
    }
    const read = async () => {
      for await (const chunk of xlsxChunks(failing())) assert.ok(chunk.length > 0);
    };
    await assert.rejects(read(), /the target went away/);
  });

  it("stops pulling rows once the file is closed", async () => {
    const rows = { pulled: 0, closed: false };
    async function* endless() {
      try {
        for (;;) {
          await tick();
          rows.pulled++;
          yield Buffer.alloc(64 * 1024, "<row/>");
        }
      } finally {
        rows.closed = true;
      }
    }
    let chunks = 0;
    for await (const _chunk of xlsxChunks(endless())) if (++chunks > 8) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const pulled = rows.pulled;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(rows.closed, true, "the rows' generator was closed");
    assert.equal(rows.pulled, pulled, "no rows were pulled after the file closed");
  });
});

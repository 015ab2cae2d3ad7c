// Log lines stay short whatever a client sent (a 5 MB value would otherwise
// be a 5 MB line), in both the JSON and the human-readable form.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FIELD_LIMIT, LINE_LIMIT } from "./log-line-bound.ts";
import { createLogger } from "./logger.ts";

const HUGE = "x".repeat(5 * 1024 * 1024);

function capture(json: boolean): { lines: string[]; logger: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const logger = createLogger({ json, debug: false, destination: { write: (line: string) => void lines.push(line) } });
  return { lines, logger };
}

describe("bounded log lines", () => {
  it("cuts a long message, field and error text, and says how long each was", () => {
    const { lines, logger } = capture(true);
    logger.info({ email: HUGE, nested: { title: HUGE }, error: new Error(HUGE) }, `refused ${HUGE}`);
    assert.equal(lines.length, 1);
    const line = lines[0]!;
    assert.ok(line.length < LINE_LIMIT, `line of ${line.length} characters`);
    const record = JSON.parse(line) as { msg: string; email: string; nested: { title: string }; error: { message: string }; level: string };
    const marker = `…[truncated, ${HUGE.length} characters]`;
    assert.equal(record.email, `${"x".repeat(FIELD_LIMIT)}${marker}`);
    assert.ok(record.nested.title.endsWith(marker));
    assert.ok(record.error.message.endsWith(marker));
    assert.ok(record.msg.startsWith("refused x") && record.msg.endsWith(`…[truncated, ${HUGE.length + 8} characters]`));
    assert.equal(record.level, "INFO");
  });

  it("writes lines of normal size untouched", () => {
    const { lines, logger } = capture(true);
    const long = "y".repeat(FIELD_LIMIT * 2);
    logger.info({ statement: long }, "ran a statement");
    assert.equal((JSON.parse(lines[0]!) as { statement: string }).statement, long);
  });

  it("bounds the human-readable form too", () => {
    const { lines, logger } = capture(false);
    logger.warn({ loginId: HUGE }, "sign-in refused");
    assert.ok(lines[0]!.length < LINE_LIMIT, `line of ${lines[0]!.length} characters`);
  });
});

// A SELECT read through `COPY (…) TO STDOUT` in text format on a pg client
// (docs/decisions/0131): each row arrives as one CopyData message of bytes,
// with no string per cell. COPY says nothing of its columns, so a Describe
// of the statement (Parse, Describe, Sync: planned, not run) comes first.
// Both are queries pg's client runs like its own (its "submittable"
// interface: submit, then a handler per message of the answer).
import type pg from "pg";
import { parsePostgres } from "../../inventory/parsers.ts";
import type { CopyLineSink } from "./read-session.ts";

interface Connection {
  parse(query: { text: string }): void;
  bind(config: object): void;
  execute(config: object): void;
  describe(message: { type: "S" }): void;
  sync(): void;
  stream: { pause(): void; resume(): void };
}

type Fields = pg.FieldDef[];

/**
 * The statement without its own terminator and what follows it (a comment):
 * inside COPY's parentheses a `;` is a syntax error. The guard has parsed it
 * as one statement; the parser says where that statement's text ends.
 */
export async function statementBody(statement: string): Promise<string> {
  const parsed = await parsePostgres(statement);
  const raw = "trees" in parsed ? parsed.trees[0] : undefined;
  if (!raw?.stmt_len) return statement; // 0: the statement runs to the end of the text
  const start = raw.stmt_location ?? 0;
  return Buffer.from(statement).subarray(start, start + raw.stmt_len).toString();
}

/** The statement's result columns, from a Describe; the target's refusal rejects. */
export function describeStatement(client: pg.Client, statement: string): Promise<Fields> {
  const described = Promise.withResolvers<Fields>();
  let fields: Fields = [];
  const submittable = {
    submit(connection: Connection) {
      connection.parse({ text: statement });
      connection.describe({ type: "S" });
      connection.sync();
    },
    handleRowDescription(message: { fields: Fields }) {
      fields = message.fields;
    },
    handleReadyForQuery: () => described.resolve(fields),
    handleError: (error: Error) => described.reject(error),
  };
  void client.query(submittable as never);
  return described.promise;
}

/**
 * Runs the statement as `COPY (…) TO STDOUT` and hands each line to the sink
 * as it arrives; the client's socket is paused while the sink's consumer is
 * behind. When the sink wants no more, `stop` is called once (it cancels the
 * statement); the promise settles when the target has answered.
 */
export function copyOut(client: pg.Client, statement: string, sink: CopyLineSink, stop: () => void): Promise<void> {
  const copied = Promise.withResolvers<void>();
  let stopped = false;
  let paused = false;
  /** The target has answered: nothing is to be stopped any more, and the socket reads on for the session's next statement. */
  let settled = false;
  const settle = (connection: Connection) => {
    settled = true;
    if (paused) connection.stream.resume();
  };
  const stopOnce = () => {
    if (!stopped) stop();
    stopped = true;
  };
  const submittable = {
    submit(connection: Connection) {
      // The extended protocol, as the cursor's, refuses a text of two
      // statements; the parenthesis on a line of its own, as the statement
      // may end in a line comment.
      connection.parse({ text: `copy (${statement}\n) to stdout` });
      connection.bind({});
      connection.execute({});
      connection.sync();
    },
    handleCopyData(message: { chunk: Buffer }, connection: Connection) {
      if (stopped) return;
      if (!sink.line(message.chunk)) return stopOnce();
      const backlog = paused ? undefined : sink.backlog();
      if (!backlog) return;
      paused = true;
      connection.stream.pause();
      void backlog.then((more) => {
        if (settled) return;
        paused = false;
        connection.stream.resume();
        if (!more) stopOnce();
      });
    },
    handleCommandComplete: () => undefined,
    handleReadyForQuery(connection: Connection) {
      settle(connection);
      copied.resolve();
    },
    handleError(error: Error, connection: Connection) {
      settle(connection);
      copied.reject(error);
    },
  };
  void client.query(submittable as never);
  return copied.promise;
}

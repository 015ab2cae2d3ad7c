// The implementation of the test-only TranscodingService: it echoes what the
// transport delivered, so tests can assert the transcoding rules.
import { create } from "@bufbuild/protobuf";
import { ConnectError, type HandlerContext } from "@connectrpc/connect";
import { sql } from "slonik";
import { auditScope } from "../../api/transport/audit-scope.ts";
import { registration } from "../../api/transport/services.ts";
import { DomainError, type ErrorCode } from "../../shared/platform/errors.ts";
import { type RecordThingRequest, ThingSchema, TranscodingService } from "../gen/svctest/v1/transcoding_service_pb.js";

export const transcodingService = registration(TranscodingService, {
  getThing(req) {
    return create(ThingSchema, {
      name: req.name,
      shiny: req.shiny,
      color: req.color,
      labels: req.labels,
      size: req.size,
      seenTime: req.seenTime,
      detail: req.detail,
      require2fa: req.require2fa,
      title: `page size ${req.pageSize}`,
    });
  },
  updateThing(req) {
    const thing = req.thing ?? create(ThingSchema);
    thing.receivedMask = req.updateMask?.paths.join(",") ?? "";
    return thing;
  },
  polishThing(req) {
    return create(ThingSchema, { name: req.name, title: `polished ${req.title}`, shiny: true });
  },
  countThings(req) {
    return { count: req.count };
  },
  fail(req) {
    if (req.code === "crash") throw new Error("a secret internal detail");
    if (req.code === "connect") throw new ConnectError(req.message);
    throw new DomainError(req.code as ErrorCode, req.message, { details: { asked: req.code }, headers: { "retry-after": "7" } });
  },
  getSecretThing(req) {
    return create(ThingSchema, { name: req.name });
  },
  recordThing: recordThing,
  guardedRecordThing: recordThing,
  async *listThingsStream(req) {
    for (let i = 0; i < req.count; i++) yield create(ThingSchema, { name: `things/${i}` });
    if (req.count < 0) throw new DomainError("invalid_argument", "count must not be negative");
  },
  async *downloadThings(req) {
    for (const [i, chunk] of req.chunks.entries()) {
      if (req.failCode && i === req.failAfter) throw new DomainError(req.failCode as ErrorCode, `asked to fail after ${i} chunks`);
      yield i === 0 ? { content: Buffer.from(chunk), contentType: req.contentType, filename: req.filename } : { content: Buffer.from(chunk) };
    }
    if (req.failCode && req.failAfter >= req.chunks.length) throw new DomainError(req.failCode as ErrorCode, "asked to fail at the end");
  },
});

/** Inserts into thing_change (which the test creates) on the call's transaction. */
async function recordThing(req: Pick<RecordThingRequest, "name" | "outcome"> & { note?: string }, context: HandlerContext) {
  const scope = auditScope(context);
  await scope.tx.query(sql.unsafe`insert into thing_change (name) values (${req.name})`);
  const [code = "ok", ...flags] = req.outcome.split("+");
  scope.detail = { note: req.note ?? "" };
  scope.keepChangesOnError = flags.includes("keep");
  if (flags.includes("extra")) scope.extra.push({ action: "svctest.things.extra", severity: "CRITICAL", actor: "system" });
  if (code !== "ok") throw new DomainError(code as ErrorCode, `asked to fail with ${code}`);
  return { name: req.name, receipt: "secret-receipt" };
}

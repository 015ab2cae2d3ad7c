// The implementation of the test-only TranscodingService: it echoes what the
// transport delivered, so tests can assert the transcoding rules.
import { create } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { registration } from "../../api/transport/services.ts";
import { DomainError, type ErrorCode } from "../../shared/platform/errors.ts";
import { ThingSchema, TranscodingService } from "../gen/svctest/v1/transcoding_service_pb.js";

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
  async *listThingsStream(req) {
    for (let i = 0; i < req.count; i++) yield create(ThingSchema, { name: `things/${i}` });
    if (req.count < 0) throw new DomainError("invalid_argument", "count must not be negative");
  },
});

// A response message's JSON text, the one place the JSON forms (REST, Connect
// JSON) turn a message into text. protobuf-es's writer walks every field of
// every message by reflection; for the one reply that holds up to a hundred
// thousand rows of cells (SqlService.Query) that walk and the object per cell
// it builds were two thirds of a 10,000-row Query's CPU (bench sql.query), so
// that message has a writer of its own (query-response-json.ts) that writes
// the same JSON straight to text. Every other message goes through protobuf-es.
import { type DescMessage, type JsonWriteOptions, type Message, toJsonString } from "@bufbuild/protobuf";
import { QueryResponseSchema } from "../../shared/gen/svc/v1/sql_service_pb.js";
import { queryResponseJson } from "./query-response-json.ts";

const OWN_WRITERS = new Map<string, (message: never) => string>([[QueryResponseSchema.typeName, queryResponseJson]]);

/** The message as protobuf JSON text (the options of connect's serializer apply to messages without a writer of their own). */
export function jsonText(schema: DescMessage, message: Message, options?: Partial<JsonWriteOptions>): string {
  const own = OWN_WRITERS.get(schema.typeName);
  return own ? own(message as never) : toJsonString(schema, message as never, options);
}

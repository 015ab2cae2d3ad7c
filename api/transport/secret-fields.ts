// Which fields of svc.v1 messages carry secrets (contract §3.4), read from
// the descriptors: INPUT_ONLY fields and fields with the svc.v1.secret option.
// A stored secret is shown only through its companion `<field>_set` flag.
import { getOption, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { FieldBehavior, field_behavior } from "../../shared/gen/google/api/field_behavior_pb.js";
import { not_audited, secret } from "../../shared/gen/svc/v1/annotation_pb.js";

const secretFields = new WeakMap<DescField, boolean>();

export function isSecretField(field: DescField): boolean {
  let known = secretFields.get(field);
  if (known === undefined) {
    known = getOption(field, secret) || getOption(field, field_behavior).includes(FieldBehavior.INPUT_ONLY);
    secretFields.set(field, known);
  }
  return known;
}

const bulkFields = new WeakMap<DescField, boolean>();

/** Bulk result data (svc.v1.not_audited: a query's rows) that audit records leave out (contract §8.1). */
export function isNotAuditedField(field: DescField): boolean {
  let known = bulkFields.get(field);
  if (known === undefined) {
    known = getOption(field, not_audited);
    bulkFields.set(field, known);
  }
  return known;
}

export function isOutputOnlyField(field: DescField): boolean {
  return getOption(field, field_behavior).includes(FieldBehavior.OUTPUT_ONLY);
}

/** The `<secret>_set` flag beside a secret field, when the message has one. */
export function secretFlagField(message: DescMessage, field: DescField): DescField | undefined {
  return message.fields.find((f) => f.name === `${field.name}_set`);
}

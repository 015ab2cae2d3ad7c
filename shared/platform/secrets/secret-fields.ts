// Which fields of the store's messages carry credentials (contract §3.4):
// those marked with the svc.store.secret option, read from the descriptors.
// They are stored sealed.
import { getOption, type DescField } from "@bufbuild/protobuf";
import { secret } from "../../gen/svc/store/annotation_pb.js";

const secretFields = new WeakMap<DescField, boolean>();

export function isStoredSecret(field: DescField): boolean {
  let known = secretFields.get(field);
  if (known === undefined) {
    known = getOption(field, secret);
    secretFields.set(field, known);
  }
  return known;
}

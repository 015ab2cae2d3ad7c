// Which top-level fields of a setting's payload a draft changes, compared as
// messages: the update mask of a page that writes lists whole (contract §7.1).
import { create, type DescMessage, equals } from "@bufbuild/protobuf";

export function changedFields(schema: DescMessage, read: object, next: object, fields: readonly string[]): string[] {
  const only = (payload: object, field: string) => create(schema, { [field]: (payload as Record<string, unknown>)[field] });
  return fields.filter((field) => !equals(schema, only(read, field), only(next, field)));
}

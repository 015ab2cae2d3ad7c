// The masking algorithms of SEMANTIC_TYPES (contract §7.6), applied to one
// value's text: full (the substitution, "******" by default), range slices
// replaced, md5 with salt (hex of md5(salt + value)), inner or outer parts
// replaced. Positions count characters, not bytes.
import { createHash } from "node:crypto";
import { SemanticTypesSetting_InnerOuterMask_Type } from "../../gen/svc/store/setting_data_pb.js";
import type { SemanticType } from "./masking-schemes.ts";

export const FULL_MASK = "******";

export type Mask = (text: string) => string;

/** The mask of a semantic type; undefined (or no algorithm) = full mask. */
export function maskOf(type: SemanticType | undefined): Mask {
  const mask = type?.algorithm?.mask;
  switch (mask?.case) {
    case "fullMask":
      return () => mask.value.substitution || FULL_MASK;
    case "rangeMask":
      return (text) => rangeMasked(text, mask.value.slices);
    case "md5Mask":
      return (text) => createHash("md5").update(`${mask.value.salt ?? ""}${text}`).digest("hex");
    case "innerOuterMask":
      return (text) => innerOuterMasked(text, mask.value.prefixLen ?? 0, mask.value.suffixLen ?? 0, mask.value.type === SemanticTypesSetting_InnerOuterMask_Type.INNER, mask.value.substitution || "*");
    default:
      return () => FULL_MASK;
  }
}

function rangeMasked(text: string, slices: readonly { start?: number; end?: number; substitution?: string }[]): string {
  const chars = [...text];
  for (const slice of slices) {
    const start = Math.min(slice.start ?? 0, chars.length);
    const end = Math.min(slice.end ?? 0, chars.length);
    for (let i = start; i < end; i++) chars[i] = i === start ? (slice.substitution ?? "*") : "";
  }
  return chars.join("");
}

/** INNER keeps the prefix and suffix and masks what lies between; OUTER masks the prefix and suffix. A value no longer than both is masked whole either way: kept, it would show in full. */
function innerOuterMasked(text: string, prefixLen: number, suffixLen: number, inner: boolean, substitution: string): string {
  const chars = [...text];
  if (prefixLen + suffixLen >= chars.length) return substitution.repeat(chars.length);
  const head = chars.slice(0, prefixLen);
  const middle = chars.slice(prefixLen, chars.length - suffixLen);
  const tail = chars.slice(chars.length - suffixLen);
  const hide = (part: string[]) => substitution.repeat(part.length);
  return inner ? head.join("") + hide(middle) + tail.join("") : hide(head) + middle.join("") + hide(tail);
}

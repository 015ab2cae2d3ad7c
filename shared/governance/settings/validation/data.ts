// DATA_CLASSIFICATION and SEMANTIC_TYPES (contract §7.6).
import type { DataClassificationSetting, SemanticTypesSetting } from "../../../gen/svc/store/setting_data_pb.js";
import { quoted } from "../../../platform/index.ts";
import { checkUnique, fieldError, requireText } from "./checks.ts";

export function validateDataClassification(value: DataClassificationSetting): void {
  if (value.configs.length > 1) throw fieldError("dataClassification.configs", "holds one configuration");
  value.configs.forEach((config, i) => {
    const path = `dataClassification.configs[${i}]`;
    requireText(config.id, `${path}.id`);
    config.levels.forEach((level, j) => requireText(level.id, `${path}.levels[${j}].id`));
    checkUnique(config.levels, (level) => level.id, (j) => `${path}.levels[${j}].id`, "the id");
    const levels = new Set(config.levels.map((level) => level.id));
    for (const [key, classification] of Object.entries(config.classifications)) {
      if (classification.id !== undefined && classification.id !== key) {
        throw fieldError(`${path}.classifications[${quoted(key)}].id`, `must equal its key ${quoted(key)}`);
      }
      if (classification.level && !levels.has(classification.level)) {
        throw fieldError(`${path}.classifications[${quoted(key)}].level`, `names unknown level ${quoted(classification.level)}`);
      }
    }
  });
}

export function validateSemanticTypes(value: SemanticTypesSetting): void {
  value.types.forEach((type, i) => {
    const path = `semanticTypes.types[${i}]`;
    requireText(type.id, `${path}.id`);
    const mask = type.algorithm?.mask;
    if (mask?.case === "rangeMask") {
      mask.value.slices.forEach((slice, j) => {
        if ((slice.start ?? 0) < 0 || (slice.end ?? 0) < (slice.start ?? 0)) {
          throw fieldError(`${path}.algorithm.rangeMask.slices[${j}]`, "needs 0 ≤ start ≤ end");
        }
      });
    }
    if (mask?.case === "innerOuterMask") {
      const m = mask.value;
      if ((m.prefixLen ?? 0) < 0 || (m.suffixLen ?? 0) < 0) throw fieldError(`${path}.algorithm.innerOuterMask`, "lengths must not be negative");
      if (m.type === 0) throw fieldError(`${path}.algorithm.innerOuterMask.type`, "is required: INNER or OUTER");
    }
  });
  checkUnique(value.types, (type) => type.id, (i) => `semanticTypes.types[${i}].id`, "the id");
}

// The schemes masking applies (contract §7.6): SEMANTIC_TYPES' types by id and
// DATA_CLASSIFICATION's classifications with their levels.
import type { SemanticTypesSetting_SemanticType } from "../../gen/svc/store/setting_data_pb.js";
import { readSetting, type SettingReader } from "../../governance/index.ts";

export type SemanticType = SemanticTypesSetting_SemanticType;

export interface MaskingSchemes {
  semanticTypes: ReadonlyMap<string, SemanticType>;
  /** Classification id → its level id ("" when it has none). */
  classificationLevels: ReadonlyMap<string, string>;
  /** The level ids the configuration defines. */
  levels: ReadonlySet<string>;
}

export async function readMaskingSchemes(settings: SettingReader): Promise<MaskingSchemes> {
  const types = (await readSetting(settings, "SEMANTIC_TYPES")).types;
  const config = (await readSetting(settings, "DATA_CLASSIFICATION")).configs[0];
  const classifications = Object.entries(config?.classifications ?? {});
  return {
    semanticTypes: new Map(types.map((type) => [type.id ?? "", type])),
    classificationLevels: new Map(classifications.map(([id, classification]) => [id, classification.level ?? ""])),
    levels: new Set((config?.levels ?? []).map((level) => level.id ?? "")),
  };
}

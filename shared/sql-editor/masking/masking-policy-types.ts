// The masking policies' content (contract §19.2): the workspace's rules, in
// order, and a project's exemptions.

export interface MaskingCondition {
  /** environments/<id> */
  environments: string[];
  /** projects/<id> */
  projects: string[];
  /** DATA_CLASSIFICATION level ids. */
  classificationLevels: string[];
  /** SEMANTIC_TYPES ids. */
  semanticTypes: string[];
}

export interface MaskingRule {
  id: string;
  condition: MaskingCondition;
  /** The SEMANTIC_TYPES id whose algorithm applies; "" = full mask. */
  semanticType: string;
}

export interface MaskingExemption {
  /** user:login_id=<id> or group:<id> */
  members: string[];
  /** instances/<i>/databases/<d>; "" = every database of the project. */
  database: string;
  /** "" = any. */
  schema: string;
  /** "" = any. */
  table: string;
  /** [] = every column. */
  columns: string[];
  /** ISO time; undefined = no expiry. */
  expireTime?: string;
  reason: string;
}

export interface MaskingRulePolicy {
  rules: MaskingRule[];
}

export interface MaskingExemptionPolicy {
  exemptions: MaskingExemption[];
}

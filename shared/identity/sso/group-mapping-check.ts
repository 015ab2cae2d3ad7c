// SSO_GROUP_MAPPING's check (contract §7.12), a rule of the setting's write:
// providers and scopes must be well-formed names, roles must exist and are
// stored by their canonical name.
import type { SsoGroupMappingSetting } from "../../gen/svc/store/setting_integrations_pb.js";
import { fieldError, requireText, type SaveContext } from "../../governance/index.ts";
import { parseResourceName, quoted } from "../../platform/index.ts";
import { WORKSPACE } from "../iam/authorize.ts";
import { findCanonicalRole } from "../iam/policy-validation.ts";
import { parseIdpName } from "./identity-providers.ts";

const PROJECTS = "projects";

export async function validateSsoGroupMapping(value: SsoGroupMappingSetting, { tx }: SaveContext): Promise<void> {
  for (const [i, mapping] of value.mappings.entries()) {
    const path = `ssoGroupMapping.mappings[${i}]`;
    parseIdpName(requireText(mapping.idp, `${path}.idp`), `${path}.idp`);
    requireText(mapping.group, `${path}.group`);
    for (const [j, binding] of mapping.bindings.entries()) {
      const role = requireText(binding.role, `${path}.bindings[${j}].role`);
      const name = await findCanonicalRole(tx, role);
      if (!name) throw fieldError(`${path}.bindings[${j}].role`, `names unknown role ${quoted(role)}`);
      binding.role = name;
      const scope = requireText(binding.scope, `${path}.bindings[${j}].scope`);
      if (scope === WORKSPACE) continue;
      if (!scope.startsWith(`${PROJECTS}/`)) throw fieldError(`${path}.bindings[${j}].scope`, `must be ${WORKSPACE} or ${PROJECTS}/<project_id>, got ${quoted(scope)}`);
      parseResourceName(scope, PROJECTS, `${path}.bindings[${j}].scope`);
    }
  }
}

// The schema URNs and the discovery documents of RFC 7643 §5–§7 and RFC 7644
// §4: what this service provider supports (PATCH and filters, no bulk, sort,
// etag or password change), its two resource types and the attributes it
// keeps of each. Attributes a directory sends beyond these are accepted and
// dropped.
import type { JsonObject } from "./scim-json.ts";

export const SCIM_SCHEMA = {
  user: "urn:ietf:params:scim:schemas:core:2.0:User",
  group: "urn:ietf:params:scim:schemas:core:2.0:Group",
  listResponse: "urn:ietf:params:scim:api:messages:2.0:ListResponse",
  patchOp: "urn:ietf:params:scim:api:messages:2.0:PatchOp",
  error: "urn:ietf:params:scim:api:messages:2.0:Error",
  serviceProviderConfig: "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig",
  resourceType: "urn:ietf:params:scim:schemas:core:2.0:ResourceType",
  schema: "urn:ietf:params:scim:schemas:core:2.0:Schema",
} as const;

/** Most resources a list answers at once (a larger count is clamped). */
export const MAX_RESULTS = 1000;

export function serviceProviderConfig(baseUrl: string): JsonObject {
  return {
    schemas: [SCIM_SCHEMA.serviceProviderConfig],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "Bearer token",
        description: "WORKSPACE_PROFILE.directory_sync_token, sent as Authorization: Bearer <token>",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string): JsonObject[] {
  const type = (name: string, endpoint: string, schema: string, description: string): JsonObject => ({
    schemas: [SCIM_SCHEMA.resourceType],
    id: name,
    name,
    endpoint,
    description,
    schema,
    meta: { resourceType: "ResourceType", location: `${baseUrl}/ResourceTypes/${name}` },
  });
  return [type("User", "/Users", SCIM_SCHEMA.user, "Users of the workspace"), type("Group", "/Groups", SCIM_SCHEMA.group, "Groups of users")];
}

export function schemas(baseUrl: string): JsonObject[] {
  const schema = (id: string, name: string, attributes: JsonObject[]): JsonObject => ({
    schemas: [SCIM_SCHEMA.schema],
    id,
    name,
    description: `${name} as this service keeps it`,
    attributes,
    meta: { resourceType: "Schema", location: `${baseUrl}/Schemas/${id}` },
  });
  return [
    schema(SCIM_SCHEMA.user, "User", [
      attribute("userName", { required: true, uniqueness: "server", mutability: "immutable" }),
      complex("name", [attribute("formatted"), attribute("givenName"), attribute("familyName")]),
      attribute("displayName"),
      complex("emails", [attribute("value"), attribute("type"), attribute("primary", { type: "boolean" })], true),
      attribute("active", { type: "boolean" }),
    ]),
    schema(SCIM_SCHEMA.group, "Group", [
      attribute("displayName", { required: true }),
      complex("members", [attribute("value", { mutability: "immutable" }), attribute("$ref", { type: "reference", mutability: "immutable" }), attribute("type")], true),
    ]),
  ];
}

function attribute(name: string, overrides: JsonObject = {}): JsonObject {
  return {
    name,
    type: "string",
    multiValued: false,
    required: false,
    caseExact: false,
    mutability: "readWrite",
    returned: "default",
    uniqueness: "none",
    ...overrides,
  };
}

function complex(name: string, subAttributes: JsonObject[], multiValued = false): JsonObject {
  return { name, type: "complex", multiValued, required: false, mutability: "readWrite", returned: "default", subAttributes };
}

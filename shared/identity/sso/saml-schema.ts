// XML schema validation of SAML messages, which samlify requires before it
// parses any (it refuses every message without a validator). xmllint-wasm is
// libxml2's xmllint compiled to WebAssembly: offline, no Java, run in a
// worker thread so the event loop is not blocked. The SAML 2.0 and XML
// signature/encryption schemas are read from the schema package
// @authenio/samlify-xsd-schema-validator (its Java validator is not used and
// its install script never runs).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as samlify from "samlify";
import { validateXML } from "xmllint-wasm";

const SCHEMA_DIR = new URL("schemas/", `file://${createRequire(import.meta.url).resolve("@authenio/samlify-xsd-schema-validator/package.json")}`);
const schema = (fileName: string) => ({ fileName, contents: readFileSync(new URL(fileName, SCHEMA_DIR), "utf8") });

// The protocol schema first; the ones it imports (by these file names) after it.
const PROTOCOL = schema("saml-schema-protocol-2.0.xsd");
const IMPORTED = ["saml-schema-assertion-2.0.xsd", "xmldsig-core-schema.xsd", "xenc-schema.xsd"].map(schema);

/** Resolves when the message is valid SAML 2.0; rejects with xmllint's first error otherwise. */
async function validateSamlXml(xml: string): Promise<string> {
  const result = await validateXML({ xml: [{ fileName: "message.xml", contents: xml }], schema: [PROTOCOL], preload: IMPORTED });
  if (!result.valid) throw new Error(`the SAML message does not follow the SAML 2.0 schema: ${result.errors[0]?.message ?? "invalid"}`);
  return "SUCCESS_VALIDATE_XML";
}

samlify.setSchemaValidator({ validate: validateSamlXml });

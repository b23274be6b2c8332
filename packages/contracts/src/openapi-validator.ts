import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { openApiDocument } from "./openapi";

/** OpenAPI's local `#/components/schemas/X` refs made absolute (`urn:authsvc:X`), so a schema compiles on its own. */
export function absoluteRefs<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components\/schemas\/([A-Za-z]+)"/g, '"urn:authsvc:$1"')) as T;
}

/**
 * Ajv for JSON Schema 2020-12 (what OpenAPI 3.1's schemas are), strict, knowing the document's component
 * schemas as `urn:authsvc:<Name>`: for tests that hold examples and real answers against the document.
 */
export function openApiAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  for (const [name, schema] of Object.entries(openApiDocument.components.schemas))
    ajv.addSchema({ $id: `urn:authsvc:${name}`, ...absoluteRefs(schema) });
  return ajv;
}

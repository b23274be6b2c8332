import { createConfig, lintFromString, type NormalizedProblem } from "@redocly/openapi-core";
import { openApiDocument } from "./openapi";
import { absoluteRefs, openApiAjv } from "./openapi-validator";

const DOCUMENT_REF = "/openapi.json";

/** Redocly's recommended rules, and where we deliberately differ. */
async function lintConfig() {
  const config = await createConfig({
    extends: ["recommended"],
    rules: {
      // A private service: there is no licence to state.
      "info-license": "off",
      // Stricter than recommended: every example is checked, and properties its schema does not name are an error.
      "no-invalid-media-type-examples": { severity: "error", allowAdditionalProperties: false },
      // Every answer names its request (quoted in support tickets and found in our logs).
      "response-contains-header": {
        severity: "error",
        names: { "2XX": ["X-Request-Id"], "4XX": ["X-Request-Id"], "5XX": ["X-Request-Id"] },
      },
      "operation-tag-defined": "error",
      "operation-singular-tag": "error",
      "no-unused-components": "error",
    },
  });
  // The health probes, the document and its page answer no client error: they have no 4XX to declare.
  config.styleguide.ignore[DOCUMENT_REF] = {
    "operation-4xx-response": new Set(
      ["/healthz", "/readyz", "/openapi.json", "/docs"].map((p) => `#/paths/${p.replace(/\//g, "~1")}/get/responses`),
    ),
  };
  return config;
}

async function lint(document: unknown): Promise<NormalizedProblem[]> {
  const problems = await lintFromString({
    source: JSON.stringify(document, null, 2),
    absoluteRef: DOCUMENT_REF,
    config: await lintConfig(),
  });
  return problems.filter((p) => !p.ignored);
}

const describeProblem = (p: NormalizedProblem) =>
  `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`;

/** Every `{ schema, example | examples }` in the document, with its JSON pointer. */
function mediaTypes(
  node: unknown,
  pointer = "#",
): Array<{ pointer: string; mediaType: string; schema: object; examples: unknown[] }> {
  if (typeof node !== "object" || node === null) return [];
  const found = [];
  for (const [key, value] of Object.entries(node)) {
    const here = `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (key === "content" && typeof value === "object" && value !== null) {
      for (const [mediaType, media] of Object.entries(
        value as Record<string, { schema: object; example?: unknown; examples?: Record<string, { value: unknown }> }>,
      )) {
        const examples = [
          ...("example" in media ? [media.example] : []),
          ...Object.values(media.examples ?? {}).map((e) => e.value),
        ];
        found.push({ pointer: `${here}/${mediaType}`, mediaType, schema: media.schema, examples });
      }
    } else found.push(...mediaTypes(value, here));
  }
  return found;
}

describe("the OpenAPI document", () => {
  it("passes Redocly's recommended lint with no error and no warning", async () => {
    expect((await lint(openApiDocument)).map(describeProblem)).toEqual([]);
  });

  it("fails the lint when it is broken", async () => {
    const broken = structuredClone(openApiDocument) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    broken.paths["/login"]!.post!.responses["200"] = {
      description: "Signed in.",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Nowhere" } } },
    };
    expect((await lint(broken)).map((p) => p.ruleId)).toEqual(
      expect.arrayContaining(["no-unresolved-refs", "response-contains-header"]),
    );
  });

  it("documents every field of a failed job's error, `details` too", () => {
    const { JobError } = openApiDocument.components.schemas;
    const validate = openApiAjv().compile(absoluteRefs({ ...JobError, additionalProperties: false }));
    const error = {
      code: "form_ambiguous",
      message: "More than one field could take `company`.",
      details: [{ field: "/additionalFields/company", message: "Name one of: Company, Company name." }],
    };
    expect(validate(error) ? [] : validate.errors).toEqual([]);
  });

  describe("its examples match their schemas (ajv, JSON Schema 2020-12)", () => {
    const ajv = openApiAjv();

    const all = mediaTypes(openApiDocument.paths);
    it("has an example for every request and response body", () => {
      expect(all.filter((m) => m.examples.length === 0).map((m) => m.pointer)).toEqual([]);
    });

    it.each(all.filter((m) => /json|urlencoded|event-stream/.test(m.mediaType)).map((m) => [m.pointer, m] as const))(
      "%s",
      (_pointer, media) => {
        const validate = ajv.compile(absoluteRefs(media.schema));
        for (const example of media.examples) {
          expect(validate(example) ? [] : validate.errors).toEqual([]);
          // A Server-Sent Events body: each message's data is a JobEvent of the message's type.
          if (media.mediaType === "text/event-stream") {
            for (const message of example as Array<{ event: string; data: string }>) {
              const event = JSON.parse(message.data) as { type: string };
              expect(ajv.validate("urn:authsvc:JobEvent", event) ? [] : ajv.errors).toEqual([]);
              expect(event.type).toBe(message.event);
            }
          }
        }
      },
    );
  });
});

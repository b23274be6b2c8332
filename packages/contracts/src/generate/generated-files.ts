import { readFile } from "node:fs/promises";
import path from "node:path";
import { pythonApiTypes, sdkApiTypes } from "./api-types";
import { errorsDoc, pythonErrorCodes, sdkErrorCodes } from "./error-tables";

export const REPO_ROOT = path.resolve(__dirname, "../../../..");

/** A file made from the contracts: its path from the repository's root, and its text made afresh. */
export interface GeneratedFile {
  path: string;
  content: string;
}

/** Every file `npm run generate:contracts` writes, made from the contracts as they are now. */
export async function generatedFiles(): Promise<GeneratedFile[]> {
  const read = (file: string) => readFile(path.join(REPO_ROOT, file), "utf8");
  return [
    { path: "packages/sdk/src/generated/error-codes.ts", content: sdkErrorCodes() },
    { path: "clients/python/src/authsvc/error_codes.py", content: pythonErrorCodes() },
    { path: "packages/sdk/src/generated/api-types.ts", content: sdkApiTypes() },
    { path: "clients/python/src/authsvc/api_types.py", content: pythonApiTypes() },
    { path: "docs/errors.md", content: errorsDoc(await read("docs/errors.md")) },
  ];
}

import { ERROR_CODES as CONTRACT_CODES } from "@authsvc/contracts";
import { ERROR_STATUS } from "./generated/error-codes";

describe("the SDK's error codes", () => {
  it("are the API's codes with the API's statuses", () => {
    expect(ERROR_STATUS).toEqual(
      Object.fromEntries(Object.entries(CONTRACT_CODES).map(([code, { status }]) => [code, status])),
    );
  });
});

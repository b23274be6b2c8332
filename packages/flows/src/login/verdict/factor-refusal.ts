import { EXPIRED, refusalCode } from "@authsvc/contracts";

/**
 * Once a code was typed or a link opened, words that would refuse a password ("Invalid code") or say it
 * expired refuse that code or link: login and signup both read it so.
 */
export function refusesFactor(message: string, code = refusalCode(message)): boolean {
  return code === "invalid_credentials" || EXPIRED.test(message);
}

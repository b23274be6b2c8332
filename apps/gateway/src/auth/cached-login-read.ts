import type { AdmissionRead } from "../http/authenticate";
import type { AuthService } from "./auth-service";
import { parseLoginRequest, type LoginCommand } from "./parse-login-request";

/**
 * `POST /v1/login` with `useCache`: its cached session is read in the same Redis call as its rate-limit
 * token. The body is parsed here once and kept in `res.locals.loginCommand` for the route; an invalid body
 * reads nothing and the route answers its 400.
 */
export function cachedLoginRead(auth: AuthService): AdmissionRead {
  return (req, res) => {
    if (
      req.method !== "POST" ||
      req.path !== "/login" ||
      (req.body as { useCache?: unknown } | undefined)?.useCache !== true
    )
      return undefined;
    let command: LoginCommand;
    try {
      command = parseLoginRequest(req.body);
    } catch {
      return undefined;
    }
    res.locals.loginCommand = command;
    return auth.cachedSessionKey(res.locals.orgId as string, command);
  };
}

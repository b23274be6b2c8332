import { Router } from "express";
import { page } from "../accounts";

/** Pages on which a login cannot happen: a server error and a page without any login form. */
export function failurePages(): Router {
  const r = Router();
  r.get("/errors/500", (_req, res) => {
    res.status(500).type("html").send(page("Error", "<h1>Internal Server Error</h1>"));
  });
  r.get("/no-form", (_req, res) => {
    res
      .type("html")
      .send(
        page(
          "About us",
          "<h1>About us</h1><p>We make things.</p><form><input name=q type=search><button>Search</button></form>",
        ),
      );
  });
  return r;
}

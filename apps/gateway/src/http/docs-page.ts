import path from "node:path";
import { Router, type Response } from "express";

/** Swagger UI's prebuilt files (swagger-ui-dist), served by the gateway itself: the page loads nothing from a CDN. */
const SWAGGER_UI_DIR = path.dirname(require.resolve("swagger-ui-dist/package.json"));
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

// Swagger UI's styles are its stylesheet and element styles set from script (which CSP allows); its icons
// are inline SVG or data: images; it fetches the document, and "Try it out" calls the API, on this origin.
// No inline script or style element, nothing from elsewhere.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>authsvc API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

// A file, not an inline script, so that the policy can forbid inline scripts. No validator badge: it would
// send the document to validator.swagger.io.
const INIT = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#docs",
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
});
`;

function secured(res: Response, type: string): Response {
  return res
    .type(type)
    .set({ "Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" });
}

/** `GET /docs`: the OpenAPI document rendered by Swagger UI, public like /openapi.json. */
export function docsPage(): Router {
  const r = Router();
  r.get("/docs", (_req, res) => {
    secured(res, "text/html; charset=utf-8").send(PAGE);
  });
  r.get("/docs/assets/init.js", (_req, res) => {
    secured(res, "text/javascript; charset=utf-8").send(INIT);
  });
  // Only the files the page names: no directory of node_modules is exposed.
  r.get("/docs/assets/:file", (req, res, next) => {
    const type = ASSETS[req.params.file];
    if (!type) return next();
    // `root`: pnpm's store path has a dot-directory (.pnpm), which sendFile refuses in an absolute path.
    // The files change only with the package version; a day in the browser's cache spares 1.9 MB per visit.
    secured(res, type)
      .set("Cache-Control", "public, max-age=86400")
      .sendFile(req.params.file, { root: SWAGGER_UI_DIR });
  });
  return r;
}

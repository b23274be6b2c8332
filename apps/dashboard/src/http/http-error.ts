/** A refusal the person should read on a page: status and a plain message (never a stack or a secret). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }

  static notFound(what = "page"): HttpError {
    return new HttpError(404, `No such ${what}.`);
  }
}

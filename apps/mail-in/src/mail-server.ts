import { Transform } from "node:stream";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from "smtp-server";
import type { Database, InboundContent } from "@authsvc/db";
import type { Logger } from "@authsvc/logging";
import { MailAuthDeferred } from "./authenticate-mail";
import { mailboxAddressOf } from "./mailbox-address";
import { originalRecipientsOf } from "./original-recipients";

export interface MailServerDeps {
  db: Database;
  /** The mailbox domain; mail for any other domain is refused. */
  domain: string;
  maxBytes: number;
  /** Tells waiting flows that a mailbox received a message. */
  notify: (mailboxId: string, messageId: string) => Promise<void>;
  log: Logger;
  onMessage?: (outcome: "stored" | "refused" | "deferred" | "failed") => void;
  /**
   * Which domains a message is authenticated for (DKIM, a trusted forwarder's ARC seal): asked for mail
   * that reaches a forwarding inbox, where a code or link counts only when the site's own domain signed it.
   */
  authenticate: (raw: Buffer) => Promise<{ dkim: string[]; arc: string[] }>;
}

// Recipients of one message we accept at most; a verification mail has one.
const MAX_RECIPIENTS = 20;

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * mail-in's SMTP server: the MX of the mailbox domain. It takes mail for the mailboxes organizations
 * created and nothing else (550 at RCPT, so the sender knows at once), parses each message, stores it
 * encrypted per organization and mailbox, and wakes the flows waiting on that mailbox.
 */
export function createMailServer(deps: MailServerDeps): SMTPServer {
  const { db, domain, log } = deps;
  // Per SMTP session: each accepted recipient address (as given, lower case) and its mailbox.
  const accepted = new Map<string, Map<string, { id: string; orgId: string; forwarding: boolean }>>();
  const recipientsOf = (session: SMTPServerSession) => {
    let map = accepted.get(session.id);
    if (!map) accepted.set(session.id, (map = new Map()));
    return map;
  };

  const server = new SMTPServer({
    name: domain,
    banner: "authsvc mail-in",
    // Senders deliver to us as to any MX: no AUTH. TLS is ended in front of mail-in (docs/mail-in.md).
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    size: deps.maxBytes,
    logger: false,
    // The client's hostname is of no use to us, and a reverse DNS lookup costs every connection ~100 ms.
    disableReverseLookup: true,
    maxClients: 500,
    socketTimeout: 60_000,
    onRcptTo(address: SMTPServerAddress, session, callback) {
      const mailboxAddress = mailboxAddressOf(address.address, domain);
      if (!mailboxAddress) {
        deps.onMessage?.("refused");
        return callback(smtpError(550, `5.7.1 relaying denied: this server accepts mail for @${domain} only`));
      }
      const recipients = recipientsOf(session);
      if (recipients.size >= MAX_RECIPIENTS) return callback(smtpError(452, "4.5.3 too many recipients"));
      db.mailboxes
        .findByAddress(mailboxAddress)
        .then((mailbox) => {
          if (!mailbox) {
            deps.onMessage?.("refused");
            return callback(smtpError(550, "5.1.1 no such mailbox"));
          }
          recipients.set(address.address.toLowerCase().replace(/\.$/, ""), {
            id: mailbox.id,
            orgId: mailbox.orgId,
            forwarding: mailbox.forwarding,
          });
          callback();
        })
        .catch((err: unknown) => {
          log.error({ err: String(err) }, "mailbox lookup failed");
          callback(smtpError(451, "4.3.0 temporary failure, try again later"));
        });
    },
    onData(stream, session, callback) {
      const recipients = [...recipientsOf(session).entries()];
      // SIZE only makes smtp-server flag an oversized message; the parser must not hold it all in memory.
      // Past the limit the rest is drained, unparsed, and the message refused.
      let bytes = 0;
      // The message as it came, for its signatures: only mail to a forwarding inbox is checked (and kept here).
      const raw: Buffer[] | null = recipients.some(([, mailbox]) => mailbox.forwarding) ? [] : null;
      const capped = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          if (bytes <= deps.maxBytes) raw?.push(chunk);
          done(null, bytes <= deps.maxBytes ? chunk : undefined);
        },
      });
      stream.pipe(capped);
      simpleParser(capped, { skipImageLinks: true, skipTextToHtml: true })
        .then(async (mail) => {
          if (bytes > deps.maxBytes || (stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
            deps.onMessage?.("refused");
            return callback(smtpError(552, `5.3.4 message larger than ${deps.maxBytes} bytes`));
          }
          const from =
            mail.from?.value[0]?.address ?? (session.envelope.mailFrom ? session.envelope.mailFrom.address : "");
          const content: InboundContent = {
            from,
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: typeof mail.html === "string" ? mail.html : "",
          };
          const originals = originalRecipientsOf(mail.headers, domain);
          // A key that could not be looked up for now: the sender tries again later (as any MTA does on a 4xx).
          // Any other failed check proves nothing: stored as unauthenticated, never as passed.
          let authenticated: { dkim: string[]; arc: string[] } | null = null;
          if (raw) {
            try {
              authenticated = await deps.authenticate(Buffer.concat(raw));
            } catch (err) {
              if (err instanceof MailAuthDeferred) {
                log.warn({ reason: err.message }, "mail deferred: its signature could not be checked yet");
                deps.onMessage?.("deferred");
                return callback(smtpError(451, "4.4.3 the message's DKIM key could not be looked up; try again later"));
              }
              log.warn({ err: String(err) }, "mail authentication failed; stored as unauthenticated");
              authenticated = { dkim: [], arc: [] };
            }
          }
          for (const [recipient, mailbox] of recipients) {
            const stored = await db.inboundMessages.store(
              mailbox.orgId,
              { mailboxId: mailbox.id },
              recipient,
              mailbox.forwarding ? { ...content, authenticated } : content,
              originals,
            );
            deps.onMessage?.("stored");
            log.info(
              { orgId: mailbox.orgId, mailboxId: mailbox.id, messageId: stored.id, size: mail.text?.length ?? 0 },
              "mail stored",
            );
            await deps
              .notify(mailbox.id, stored.id)
              .catch((err: unknown) => log.warn({ err: String(err) }, "waiting flows not notified"));
          }
          callback();
        })
        .catch((err: unknown) => {
          deps.onMessage?.("failed");
          log.error({ err: String(err) }, "mail not stored");
          callback(smtpError(451, "4.3.0 temporary failure, try again later"));
        })
        .finally(() => accepted.delete(session.id));
    },
    onClose(session) {
      accepted.delete(session.id);
    },
  });
  server.on("error", (err) => log.warn({ err: err.message }, "SMTP connection error"));
  return server;
}

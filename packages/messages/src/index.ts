export { extractCode, extractLink, extractPassword, htmlToText, pickMessage, registrableDomain, senderDomain, type VerificationMail } from "./read-verification-message";

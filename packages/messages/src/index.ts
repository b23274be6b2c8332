export {
  extractCode,
  extractLink,
  extractLogin,
  extractPassword,
  htmlToText,
  pickMessage,
  registrableDomain,
  senderDomain,
  type VerificationMail,
} from "./read-verification-message";

import { READ_NOTES_SOURCE } from "./in-page/generated/read-notes-source";
import { bundled } from "./in-page/bundled";
import { readNotes } from "./in-page/read-notes";

/** One block of text a frame shows: a paragraph, a table cell, a toast, the text of a form. */
export interface Note {
  text: string;
  /** Near the login form (or, without one, in a small page), in the main content, a dialog or a toast. */
  near: boolean;
}

/** The text blocks a person reads on a page (see in-page/read-notes.ts), as Puppeteer evaluates them. */
export const readNotesInPage = bundled(readNotes, READ_NOTES_SOURCE);

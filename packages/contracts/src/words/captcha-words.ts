/**
 * The words of a distorted-text CAPTCHA that is not named one (many sites never say "captcha"), as
 * readCaptcha in flows' in-page/read-captcha.ts reads them, en, de, fr, es, pt, it, nl.
 */

/** A field's label or surroundings ask for what a picture (or a recording) shows. */
export const ASKS_WHAT_IS_SHOWN =
  /\b(type|enter|copy|write|retype|solve)\b[^.!?]{0,40}\b(characters|letters|text|code|words?|numbers|digits|symbols|sum|answer)\b[^.!?]{0,40}\b(image|picture|shown|above|below|you see|you hear|audio)\b|\b(characters|letters|text|code|words?|numbers|digits)\b (in|from|on|of) the (image|picture|audio|recording)\b|what you (see|hear)\b|zeichen (im|aus dem|auf dem) bild|caract[eè]res (de|dans|sur) l.image|caracteres (de|en) la imagen|caracteres (da|na) imagem|caratteri (dell|nell).immagine|tekens (in|uit|op) de afbeelding/i;

/** A control beside it asks for another picture, or to hear it. */
export const ANOTHER_IMAGE =
  /\b(new|another|other|refresh|reload|change)\b[^.!?]{0,10}\b(image|picture|code|challenge)\b|\blisten\b|\baudio\b|neues bild|nouvelle image|otra imagen|nova imagem|nuova immagine|nieuwe afbeelding/i;
